// The game in words: events, actions, hints and penalty reasons in the page's language, with the
// players' names. The server's own texts are English only, so they are rebuilt here from the data
// (events carry their fields) or, for the replay's plain lines, read back from the engine's wording.
import {t} from './i18n.js';
import {dieName} from './dice.js';

const LABEL = /^([RBGYK](?:\/[RBGYK])?)(\d)(?: as ([RBGYK](?:\/[RBGYK])?))?$/;

/** "B4" -> "Blue 4", "K/Y3 as R" -> "Black/Yellow 3, as Red"; anything else stays as it is. */
export function labelWords(label) {
  const m = LABEL.exec(String(label || '').trim());
  if (!m) return String(label ?? '');
  return dieName({colours: m[1], face: Number(m[2]), as: m[3] || null});
}

/** A fuse card's symbols ("K", "2", "R 3") in words. */
export function symbolWords(shows) {
  return String(shows || '').split(/\s+/).filter(Boolean)
    .map((s) => (/^[RBGYK]$/.test(s) ? t(`colour.${s}`) : s)).join(' ');
}

/** Why a die must go back (the engine's removal reason) in words. */
export function reasonWords(reason) {
  const r = String(reason || '');
  let m = /^fuse card (.+)$/.exec(r);
  if (m) return t('why.fuse', {shows: symbolWords(m[1])});
  m = /^unused die (.+)$/.exec(r);
  if (m) return t('why.unused', {die: labelWords(m[1])});
  if (r === 'no spark card left') return t('why.noSpark');
  return r;
}

function mmss(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * One event ({kind, ...fields}, as the server sends them) as a sentence. `nameOf(seat)` names a
 * seat; an event this page does not know keeps the server's text.
 */
export function eventText(ev, nameOf) {
  const who = ev.seat !== undefined && ev.seat !== null ? nameOf(ev.seat) : '';
  const die = ev.die !== undefined ? labelWords(ev.die) : '';
  switch (ev.kind) {
    case 'deal': return t('ev.deal');
    case 'dice_rolled': return t('ev.rolled', {who: nameOf(ev.leader), dice: (ev.dice || []).map(labelWords).join(', ')});
    case 'die_placed': return t('ev.placed', {who, die, card: ev.card, slot: ev.slot + 1});
    case 'card_completed': return t('ev.completed', {who, card: ev.card});
    case 'bomb_defused': return t('ev.defused', {who, card: ev.card, points: ev.points});
    case 'card_taken': return t('ev.taken', {who, card: ev.card});
    case 'card_revealed': return t('ev.revealed', {card: ev.card});
    case 'fuse_activated':
      return ev.effect && ev.effect !== 'symbol'
        ? t('ev.fuseEffect', {card: ev.card, effect: t(`effect.${ev.effect}`)})
        : t('ev.fuse', {card: ev.card, shows: symbolWords(ev.shows)});
    case 'die_returned': return t('ev.returned', {who, die, card: ev.card, reason: reasonWords(ev.reason)});
    case 'seat_done': return t('ev.done', {who});
    case 'penalty_rolled': return t('ev.penalty', {die});
    case 'turn_ended': return t('ev.turnEnded', {turn: ev.turn});
    case 'game_won': return t('ev.won', {score: ev.score});
    case 'game_lost': return t('ev.lost', {reason: t(`reason.${ev.reason}`), score: ev.score});
    case 'spark_drawn': return t('ev.sparkDrawn', {who, card: ev.card});
    case 'spark_defused': return t('ev.sparkDefused', {who, card: ev.card});
    case 'sparks_turned_over': return t('ev.sparksTurned', {n: ev.cards});
    case 'no_spark_left': return t('ev.noSpark', {who});
    case 'card_turned_down': return t('ev.turnedDown', {who, card: ev.card});
    case 'clock_stopped': return t('ev.clockStopped', {time: mmss(ev.time_ms)});
    case 'role_used':
      if (ev.role === 'name') return t('ev.roleName', {who, value: symbolWords(ev.value)});
      if (ev.role === 'recolour') return t('ev.roleRecolour', {who, die});
      if (ev.role === 'renumber') return t('ev.roleRenumber', {who, die});
      if (ev.role === 'flip') return t('ev.roleFlip', {who, die});
      if (ev.role === 'rethrow') return t('ev.roleRethrow', {who, n: (ev.die_ids || []).length});
      return ev.text || ev.kind;
    case 'role_restored': return t('ev.roleRestored', {who});
    case 'dice_rerolled': return t('ev.rerolled', {dice: (ev.dice || []).map(labelWords).join(', ')});
    case 'six_rolled': return t('ev.six', {who});
    case 'not_six': return t('ev.notSix', {who, face: ev.face});
    case 'die_returned_free': return t('ev.returnedFree', {who, die});
    default: return ev.text || ev.kind;
  }
}

// The engine's English lines (the replay sends only these), read back into events.
const P = '(?:P(\\d+))';
const LINES = [
  [/^the deal$/, () => ({kind: 'deal'})],
  [new RegExp(`^${P} rolls a 6$`), (m) => ({kind: 'six_rolled', seat: m[1] - 1})],
  [new RegExp(`^${P} rolls a (\\d), not a 6$`), (m) => ({kind: 'not_six', seat: m[1] - 1, face: Number(m[2])})],
  [new RegExp(`^${P} rolls (.+)$`), (m) => ({kind: 'dice_rolled', leader: m[1] - 1, dice: m[2].split(' ').filter((x) => x !== 'as')
    .reduce((out, x) => (/^[RBGYK](\/[RBGYK])?$/.test(x) && out.length ? [...out.slice(0, -1), `${out[out.length - 1]} as ${x}`] : [...out, x]), [])})],
  [new RegExp(`^${P} places (.+) on (\\S+) slot (\\d+)$`), (m) => ({kind: 'die_placed', seat: m[1] - 1, die: m[2], card: m[3], slot: m[4] - 1})],
  [new RegExp(`^${P} completes (\\S+)$`), (m) => ({kind: 'card_completed', seat: m[1] - 1, card: m[2]})],
  [new RegExp(`^${P} defuses spark (\\S+) \\(\\+2\\)$`), (m) => ({kind: 'spark_defused', seat: m[1] - 1, card: m[2]})],
  [new RegExp(`^${P} defuses (\\S+) \\(\\+(\\d+)\\)$`), (m) => ({kind: 'bomb_defused', seat: m[1] - 1, card: m[2], points: Number(m[3])})],
  [new RegExp(`^${P} takes (\\S+)$`), (m) => ({kind: 'card_taken', seat: m[1] - 1, card: m[2]})],
  [/^(\S+) is turned into the row$/, (m) => ({kind: 'card_revealed', card: m[1]})],
  [/^fuse card (\S+) goes off \(\+2\): (.+)$/, (m) => ({kind: 'fuse_activated', card: m[1], text: `fuse card ${m[1]} goes off (+2): ${m[2]}`,
    effect: {'All players must draw a spark card.': 'spark', 'All players must roll a 6 before the game continues.': 'roll-six',
      'All players lose their role ability until they defuse a bomb card.': 'lose-roles'}[m[2]]})],
  [/^fuse card (\S+) \((.+)\) goes off \(\+2\)$/, (m) => ({kind: 'fuse_activated', card: m[1], shows: m[2]})],
  [new RegExp(`^${P} returns (.+) from (\\S+) to the bag \\((.+)\\)$`), (m) => ({kind: 'die_returned', seat: m[1] - 1, die: m[2], card: m[3], reason: m[4]})],
  [new RegExp(`^${P} returns (.+) to the bag without penalty$`), (m) => ({kind: 'die_returned_free', seat: m[1] - 1, die: m[2]})],
  [new RegExp(`^${P} is done$`), (m) => ({kind: 'seat_done', seat: m[1] - 1})],
  [/^unused die rolled: (.+)$/, (m) => ({kind: 'penalty_rolled', die: m[1]})],
  [/^turn (\d+) ends$/, (m) => ({kind: 'turn_ended', turn: Number(m[1])})],
  [/^the team wins: score (-?\d+)$/, (m) => ({kind: 'game_won', score: Number(m[1])})],
  [/^the team loses \((\S+)\): score (-?\d+)$/, (m) => ({kind: 'game_lost', reason: m[1], score: Number(m[2])})],
  [new RegExp(`^${P} draws spark (\\S+)$`), (m) => ({kind: 'spark_drawn', seat: m[1] - 1, card: m[2]})],
  [new RegExp(`^${P} turns (\\S+) face down`), (m) => ({kind: 'card_turned_down', seat: m[1] - 1, card: m[2]})],
  [new RegExp(`^${P} names (\\S+)$`), (m) => ({kind: 'role_used', role: 'name', seat: m[1] - 1, value: m[2]})],
  [new RegExp(`^${P} recolours d\\d+: (.+)$`), (m) => ({kind: 'role_used', role: 'recolour', seat: m[1] - 1, die: m[2]})],
  [new RegExp(`^${P} turns d\\d+ to (.+)$`), (m) => ({kind: 'role_used', role: 'renumber', seat: m[1] - 1, die: m[2]})],
  [new RegExp(`^${P} flips d\\d+ to (.+)$`), (m) => ({kind: 'role_used', role: 'flip', seat: m[1] - 1, die: m[2]})],
  [new RegExp(`^${P} rerolls ((?:d\\d+ ?)+)$`), (m) => ({kind: 'role_used', role: 'rethrow', seat: m[1] - 1, die_ids: m[2].trim().split(' ')})],
  [new RegExp(`^${P}'s role card is face up again$`), (m) => ({kind: 'role_restored', seat: m[1] - 1})],
  [/^rerolled: (.+)$/, (m) => ({kind: 'dice_rerolled', dice: m[1].split(' ')})],
  [/^the ship is saved: the clock stops after (\d+):(\d\d)$/, (m) => ({kind: 'clock_stopped', time_ms: (m[1] * 60 + Number(m[2])) * 1000})],
  [/^the spark discard pile \((\d+) cards\) becomes the spark deck$/, (m) => ({kind: 'sparks_turned_over', cards: Number(m[1])})],
  [new RegExp(`^${P} must draw a spark but every spark is in play`), (m) => ({kind: 'no_spark_left', seat: m[1] - 1})],
];

/** An engine line ("P1 places G6 on F10 slot 1") as an event; unknown lines stay plain text. */
export function eventFromText(text) {
  const s = String(text || '');
  for (const [re, make] of LINES) {
    const m = re.exec(s);
    if (m) {
      const ev = make(m);
      if (ev) return {text: s, ...ev};
    }
  }
  return {kind: 'text', text: s};
}

/** "p0 place d3 F12 s1 @40" -> {seat, kind, die, dice, card, slot, value} */
export function readAction(text) {
  const parts = String(text || '').trim().replace(/\s+@\d+$/, '').split(/\s+/);
  let seat = null;
  if (/^p\d+$/.test(parts[0] || '')) seat = Number(parts.shift().slice(1));
  const out = {seat, kind: parts[0] || '', die: null, dice: [], card: null, slot: null, value: null};
  for (const p of parts.slice(1)) {
    if (/^d\d+$/.test(p)) {
      out.dice.push(Number(p.slice(1)));
      if (out.die === null) out.die = out.dice[0];
    } else if (/^s\d+$/.test(p) && out.card !== null) out.slot = Number(p.slice(1)) - 1;
    else if (['take', 'defuse'].includes(out.kind) || (out.kind === 'place' && out.card === null)) out.card = p;
    else out.value = p;
  }
  return out;
}

/**
 * An action in words: "Put the Blue 5 on F12, slot 3". `findDie(id)` gives the die as the table
 * shows it (null when it is not on the table any more: the die's number is said instead).
 */
export function actionWords(text, findDie = () => null) {
  const a = readAction(text);
  const dieW = (id) => {
    const d = findDie(id);
    return d ? dieName(d) : t('words.dieN', {n: id});
  };
  const valueW = (v) => (/^[RBGYK](\/[RBGYK])?$/.test(v || '') ? v.split('/').map((c) => t(`colour.${c}`)).join('/') : v);
  switch (a.kind) {
    case 'place': return t('words.place', {die: dieW(a.die), card: a.card, slot: (a.slot ?? 0) + 1});
    case 'done': return t('words.done');
    case 'take': return t('words.take', {card: a.card});
    case 'give': return t('words.give', {die: dieW(a.die)});
    case 'reroll': return t('words.reroll', {die: dieW(a.die)});
    case 'return': return t('words.return', {die: dieW(a.die)});
    case 'defuse': return t('words.defuse', {card: a.card});
    case 'roll': return t('words.roll');
    case 'name': return t('words.name', {value: valueW(a.value)});
    case 'recolour': return t('words.recolour', {die: dieW(a.die), value: valueW(a.value)});
    case 'renumber': return t('words.renumber', {die: dieW(a.die), value: a.value});
    case 'flip': return t('words.flip', {die: dieW(a.die)});
    case 'rethrow': return t('words.rethrow', {dice: a.dice.map(dieW).join(', ')});
    case 'reveal': return t('words.reveal');
    case 'tick': return t('words.tick');
    default: return String(text || '').replace(/\s+@\d+$/, '');
  }
}

/** Translate the server's one-line refusals that a player meets in the lobby and at the table. */
export function serverMessage(message, code = null) {
  const m = String(message || '');
  let x;
  if (/^every seat is taken/.test(m)) return t('err.full');
  if (/^the game has started/.test(m) || /^the game has already started/.test(m)) return t('err.started');
  if ((x = /^seat (\d+) is taken/.exec(m))) return t('err.seatTaken', {n: Number(x[1]) + 1});
  if ((x = /^a name is 1 to (\d+) characters/.exec(m))) return t('err.name', {n: x[1]});
  if (/^no room/.test(m)) return t('err.noRoom');
  if (/^spectators can only watch/.test(m)) return t('err.spectator');
  if (/ is still here: only they can hand their seat to a bot$/.test(m)) return t('err.stillHere', {name: m.split(' is still here')[0]});
  if (/^the game is over/.test(m)) return t('err.over');
  if (/^the game is not being played/.test(m)) return t('err.notPlaying');
  if (code === 'illegal') return t('err.illegal', {detail: m});
  return m;
}

/**
 * A game's title in the page's language ("FUSE + role cards, spark cards"); `fallback` is the
 * server's own title, for a game this page does not know.
 */
export function gameTitle(options, fallback = '') {
  const o = options || {};
  if (!o.game) return fallback;
  const base = t(`game.${o.game}`);
  if (base === `game.${o.game}`) return fallback || o.game;
  const mods = o.game === 'fuse' ? (o.modules || []) : [];
  if (!mods.length) return o.game === 'epic' ? t('game.epicShort') : base;
  return `${base} + ${mods.map((m) => t(`module.${m}`).toLowerCase()).join(', ')}`;
}
