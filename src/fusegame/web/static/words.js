// The game in words: events, actions, hints and the causes of dice given up, in the page's
// language, with the players' names. The server sends facts (seats, card ids, dice as {colours,
// face, as}, causes and advice as small objects); every sentence is made here from them.
import {getLang, t, tOr} from './i18n.js';
import {COLOURS, dieName} from './dice.js';

/** "R" -> "Red", "K/Y" -> "Black/Yellow". */
export function colourWords(letters) {
  return String(letters || '').split('/').map((c) => t(`colour.${c}`)).join('/');
}

/** What a Cutter or an Operations Engineer names: a colour letter or a number. */
export function namedWords(value) {
  return COLOURS.includes(value) ? t(`colour.${value}`) : String(value ?? '');
}

/**
 * A fuse card's symbols in words: a list (["R", "3"]) from events and causes, or the view's
 * symbols joined by spaces ("R 3").
 */
export function symbolWords(shows) {
  return (shows || []).map(namedWords).join(' / ');
}

/** "A", "A and B", "A, B and C". */
export function listWords(items) {
  if (items.length <= 1) return items.join('');
  return t('list.and', {a: items.slice(0, -1).join(', '), b: items[items.length - 1]});
}

/** Why a die went back to the bag (a cause fact: fuse, penalty, no_spark or unstated) in words. */
export function causeWords(cause) {
  if (!cause) return '';
  switch (cause.kind) {
    case 'fuse': return cause.card ? t('why.fuse', {card: cause.card, shows: symbolWords(cause.shows)})
      : t('why.fuseSymbol', {shows: symbolWords(cause.shows)});
    case 'penalty': return t('why.unused', {die: dieName(cause.die)});
    case 'no_spark': return t('why.noSpark');
    default: return t('why.unstated');
  }
}

/** The notice over the table while every player must give up a die (the view's removal_cause). */
export function removalNotice(cause) {
  switch (cause.kind) {
    case 'fuse': return t('notice.removalFuse', {card: cause.card || '', shows: symbolWords(cause.shows)});
    case 'penalty': return t('notice.removalPenalty', {die: dieName(cause.die)});
    case 'no_spark': return t('notice.removalNoSpark');
    default: return t('notice.removalUnstated');
  }
}

function mmss(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

const diceWords = (dice) => (dice || []).map(dieName).join(', ');

/** One event ({kind, ...facts}, as the server sends them) as a sentence; `nameOf(seat)` names a seat. */
export function eventText(ev, nameOf) {
  const who = ev.seat !== undefined && ev.seat !== null ? nameOf(ev.seat) : '';
  const die = ev.die ? dieName(ev.die) : '';
  switch (ev.kind) {
    case 'dice_rolled': return t('ev.rolled', {who: nameOf(ev.leader), dice: diceWords(ev.dice)});
    case 'die_placed': return t('ev.placed', {who, die, card: ev.card, slot: ev.slot + 1});
    case 'card_completed': return t('ev.completed', {who, card: ev.card});
    case 'bomb_defused': return t('ev.defused', {who, card: ev.card, points: ev.points});
    case 'card_taken': return t('ev.taken', {who, card: ev.card});
    case 'card_revealed': return t('ev.revealed', {card: ev.card});
    case 'fuse_activated':
      return ev.effect && ev.effect !== 'symbol'
        ? t('ev.fuseEffect', {card: ev.card, effect: t(`effect.${ev.effect}`)})
        : t('ev.fuse', {card: ev.card, shows: symbolWords(ev.shows)});
    case 'die_returned': return t('ev.returned', {who, die, card: ev.card, reason: causeWords(ev.cause)});
    case 'seat_done': return t('ev.done', {who});
    case 'penalty_rolled': return t('ev.penalty', {die});
    case 'turn_ended': return t('ev.turnEnded', {turn: ev.turn});
    case 'game_won': return t('ev.won', {score: ev.score});
    case 'game_lost': return t('ev.lost', {reason: t(`reason.${ev.reason}`), score: ev.score});
    case 'spark_drawn': {
      const drawn = t('ev.sparkDrawn', {who, card: ev.card});
      if (ev.why === 'fuse') return `${drawn}: ${t('ev.sparkWhyFuse')}`;
      return ev.why === 'short' ? `${drawn}: ${t('ev.sparkWhyShort')}` : drawn;
    }
    case 'spark_defused': return t('ev.sparkDefused', {who, card: ev.card});
    case 'sparks_turned_over': return t('ev.sparksTurned', {n: ev.cards});
    case 'no_spark_left': return t('ev.noSpark', {who});
    case 'card_turned_down': return t('ev.turnedDown', {who, card: ev.card});
    case 'clock_stopped': return t('ev.clockStopped', {time: mmss(ev.time_ms)});
    case 'role_used':
      if (ev.role === 'name') return t('ev.roleName', {who, value: namedWords(ev.value)});
      // every other ability has its line under ev.role<Verb> (ev.roleFlip, ev.roleRethrow...)
      return tOr(`ev.role${ev.role.charAt(0).toUpperCase()}${ev.role.slice(1)}`, t('ev.role', {who}),
        {who, die, n: (ev.dice || []).length, dice: diceWords(ev.dice || [])});
    case 'role_restored': return t('ev.roleRestored', {who});
    case 'dice_rerolled': return t('ev.rerolled', {dice: diceWords(ev.dice)});
    case 'six_rolled': return t('ev.six', {who});
    case 'not_six': return t('ev.notSix', {who, face: ev.face});
    case 'die_returned_free': return t('ev.returnedFree', {who, die});
    default: return t('ev.other', {kind: ev.kind});
  }
}

/**
 * An action ({verb, seat, die, card, slot, ...}: the server's action data) in words: "Put the
 * Blue 5 on F12, slot 3". `findDie(id)` gives the die as the table shows it (null when it is not
 * on the table any more: the die's number is said instead).
 */
export function actionWords(act, findDie = () => null) {
  if (!act) return '';
  const dieW = (id) => {
    const d = findDie(id);
    return d ? dieName(d) : t('words.someDie'); // never the die's id: no one sees it
  };
  switch (act.verb) {
    case 'place': return t('words.place', {die: dieW(act.die), card: act.card, slot: act.slot + 1});
    case 'done': return t('words.done');
    case 'take': return t('words.take', {card: act.card});
    case 'give': return t('words.give', {die: dieW(act.die)});
    case 'reroll': return t('words.reroll', {die: dieW(act.die)});
    case 'return': return t('words.return', {die: dieW(act.die)});
    case 'defuse': return t('words.defuse', {card: act.card});
    case 'roll': return t('words.roll');
    case 'name': return t('words.name', {value: namedWords(act.value)});
    case 'recolour': return t('words.recolour', {die: dieW(act.die), value: colourWords(act.colour)});
    case 'renumber': return t('words.renumber', {die: dieW(act.die), value: act.face});
    case 'reveal': return t('words.reveal');
    case 'tick': return t('words.tick');
    // any other action (a role's flip or rethrow...) has its words under words.<verb>
    default: return tOr(`words.${act.verb}`, t('words.other', {verb: act.verb}), {
      die: act.die === undefined ? '' : dieW(act.die), dice: listWords((act.dice || []).map(dieW)),
      card: act.card, value: act.value, face: act.face});
  }
}

// ------------------------------------------------------------------ hints
/** A card as advice names it: "F12 (Little tent, pyramid)", "spark card S03". */
function cardWords(card) {
  if (!card) return '';
  // the card's name in the page's language
  const name = (getLang() === 'es' && card.name_es) || card.name || '';
  const extra = name ? [name] : [];
  // "Staggered stack" says its layout already
  const layout = card.layout ? t(`layout.${card.layout.replace(' ', '-')}`) : '';
  if (layout && !name.toLowerCase().includes(layout.toLowerCase())) extra.push(layout);
  const head = card.kind === 'spark' ? t('advice.spark', {id: card.id}) : card.id;
  return extra.length ? `${head} (${extra.join(', ')})` : head;
}

/** The planner's expected dice still needed: a whole number, or null for "no way to finish". */
function workWords(n) {
  if (n === null || n === undefined) return t('advice.noWay');
  return n > 0 ? t('advice.dice', {n}) : t('advice.noDice');
}

function toGoWords(toGo) {
  if (!toGo) return '';
  const {after, before} = toGo;
  if (after === null || after === undefined) return t('advice.toGoNoWay');
  if (before === null || before === undefined) return t('advice.toGoNow', {n: after});
  if (after === before) return t('advice.toGoStill', {n: after});
  return t('advice.toGo', {n: after, was: before});
}

const pointsWords = (n) => t('advice.points', {n});

/** `card` on `seat`'s side, from the viewer's (`me`) point of view: "your F12", "Bo's F12". */
function whoseCard(seat, card, me, nameOf) {
  return seat === me ? t('advice.yourCard', {card: cardWords(card)})
    : t('advice.theirCard', {card: cardWords(card), who: nameOf(seat)});
}

function placeWhy(why, card) {
  const go = toGoWords(why.to_go);
  switch (why.kind) {
    case 'completes': return t('advice.completes', {card: cardWords(card), points: pointsWords(why.points)});
    case 'wins': return t('advice.wins', {card: cardWords(card), points: pointsWords(why.points), n: why.left});
    case 'clears_spark': return t('advice.clearsSpark', {card: cardWords(card)});
    case 'closer': return t(why.most_ways ? 'advice.mostWays' : 'advice.closer', {card: cardWords(card), go});
    case 'focus': return t('advice.focus', {card: cardWords(card), go, n: why.left, spare: cardWords(why.spare)});
    case 'spares_spark': return t('advice.sparesSpark', {go});
    case 'beats_penalty': return t('advice.beatsPenalty', {go});
    case 'next_roll': {
      const more = why.ahead_tenths / 10;
      const args = {n: more, more: more.toLocaleString(getLang()), go};
      if (!why.instead) return t('advice.nextRoll', args);
      return t('advice.nextRollInstead', {...args, die: dieName(why.instead.die), card: cardWords(why.instead.card)});
    }
    default: return '';
  }
}

function doneWhy(why, me, nameOf) {
  switch (why && why.kind) {
    case 'no_fit': return t('advice.noFit');
    case 'harder': return t('advice.harder');
    case 'team': return t('advice.team');
    case 'better_elsewhere':
      return t('advice.betterElsewhere', {die: dieName(why.die), where: whoseCard(why.seat, why.card, me, nameOf)});
    default: return '';
  }
}

function doneThen(then) {
  if (!then) return '';
  if (then.kind === 'sparks') return t('advice.thenSparks', {n: then.count});
  if (then.kind === 'penalty') {
    const dice = then.dice || [];
    const left = t('advice.thenPenalty', {n: dice.length, dice: listWords(dice.map(dieName))});
    const tenths = then.cost_tenths;
    if (tenths === undefined || tenths === null) return left; // a hint without its cost
    if (tenths === 0) return left + t('advice.penaltyFree');
    const cost = tenths / 10;
    return left + t('advice.penaltyCost', {n: cost, cost: cost.toLocaleString(getLang())});
  }
  return '';
}

function takeWhy(why, card) {
  const work = workWords(why.work);
  const where = why.where ? t(`advice.where.${why.where}`) : '';
  switch (why.kind) {
    case 'only': return t('advice.takeOnly', {work, points: pointsWords(card.points)});
    case 'easiest': return t('advice.takeEasiest', {work, where});
    case 'hardest_late': return t('advice.takeHardest', {work});
    case 'hardest_first': return t('advice.takeHardestFirst', {work, where});
    case 'best_trade': return t('advice.takeTrade', {work, where, points: pointsWords(card.points)});
    case 'smallest': return t('advice.takeSmallest', {work, where});
    case 'next_roll': {
      const more = why.ahead_tenths / 10;
      return t('advice.takeNextRoll', {work, n: more, more: more.toLocaleString(getLang()), instead: cardWords(why.instead)});
    }
    default: return '';
  }
}

function roleWords(a, me, nameOf) {
  if (a.dice) {  // an ability over several dice (a rethrow): hint.<role> and advice.<role>
    const dice = a.dice;
    return {text: t(`hint.${a.role}`, {n: dice.length, dice: listWords(dice.map(dieName))}),
      reason: t(`advice.${a.role}`, {n: dice.length})};
  }
  let text;
  if (a.role === 'recolour') text = t('words.recolour', {die: dieName(a.die), value: colourWords(a.colour)});
  else if (a.role === 'renumber') text = t('words.renumber', {die: dieName(a.die), value: a.face});
  else text = tOr(`hint.${a.role}`, t('words.other', {verb: a.role}), {die: dieName(a.die), face: a.face});
  // null: without the role no card could be finished at all
  const saves = a.saves === undefined ? '' : a.saves === null ? t('advice.savesAll')
    : t('advice.saves', {work: workWords(a.saves)});
  const reason = a.then ? t('advice.roleThen', {where: whoseCard(a.then.seat, a.then.card, me, nameOf), saves})
    : t('advice.roleRoll', {saves});
  return {text, reason: reason.trim()};
}

/** Why the die must go, as a give-up hint says it. */
function giveUpCause(cause) {
  switch (cause && cause.kind) {
    case 'fuse': return t('advice.forFuse', {card: cause.card || '', shows: symbolWords(cause.shows)});
    case 'penalty': return t('advice.forPenalty', {die: dieName(cause.die)});
    case 'no_spark': return t('advice.forNoSpark');
    default: return '';
  }
}

const joined = (...parts) => parts.filter(Boolean).join('; ');

/**
 * A hint in words: {text, reason} from its advice (the planner's facts), in the page's language.
 * `me` is the viewer's seat; `nameOf(seat)` names the others. A hint whose advice this page does
 * not know is told from its action alone.
 */
export function hintWords(hint, {me = null, nameOf = (s) => t('player.n', {n: s + 1}), findDie = () => null} = {}) {
  const a = hint.advice || {};
  switch (a.kind) {
    case 'place':
      return {text: t('words.place', {die: dieName(a.die), card: a.card.id, slot: a.slot + 1}),
        reason: placeWhy(a.why || {}, a.card)};
    case 'done':
      return {text: t('words.done'), reason: joined(doneWhy(a.why, me, nameOf), doneThen(a.then))};
    case 'wait_for_role':
      return {text: t('hint.wait'), reason: t('advice.waitForRole',
        {who: nameOf(a.leader), die: dieName(a.die), card: cardWords(a.card)})};
    case 'role': return roleWords(a, me, nameOf);
    case 'no_role_gain': return {text: t('hint.nothing'), reason: t('advice.noRoleGain')};
    case 'defuse':
      return {text: t('words.defuse', {card: a.card.id}), reason: a.card.kind === 'spark'
        ? t('advice.defuseSpark', {card: cardWords(a.card)})
        : t('advice.defuseBomb', {card: cardWords(a.card), points: pointsWords(a.card.points)})};
    case 'take':
      return {text: t('words.take', {card: a.card.id}), reason: joined(
        t('advice.take', {card: cardWords(a.card), why: takeWhy(a.why || {}, a.card)}),
        ...(a.others || []).map((o) => t('advice.goesTo', {card: o.card.id || o.card, who: nameOf(o.seat)})))};
    case 'wait_to_take': return {text: t('hint.wait'), reason: t('advice.waitToTake')};
    case 'nothing_to_take': return {text: t('hint.nothingToTake'), reason: t('advice.middleEmpty')};
    case 'give_up': {
      const costs = t('advice.giveUp', {go: toGoWords(a.to_go)});
      const cause = giveUpCause(a.cause);
      return {text: t('hint.giveUp', {die: dieName(a.die), card: a.card.id}),
        reason: cause ? t('advice.giveUpFor', {cause, why: costs}) : costs};
    }
    case 'name':
      if (COLOURS.includes(a.value)) {
        return {text: t('words.name', {value: namedWords(a.value)}), reason: a.in_bag === null || a.in_bag === undefined
          ? t('advice.nameColourAny', {dice: t(`advice.dice.${a.value}`)})
          : t('advice.nameColour', {dice: t(`advice.dice.${a.value}`), n: a.in_bag})};
      }
      return {text: t('words.name', {value: namedWords(a.value)}), reason: t('advice.nameNumber')};
    case 'reroll': return {text: t('hint.reroll', {die: dieName(a.die)}), reason: t('advice.reroll')};
    case 'return_free': return {text: t('words.return', {die: dieName(a.die)}), reason: t('advice.returnFree')};
    case 'roll_six': return {text: t('words.roll'), reason: t('advice.rollSix')};
    // a decision the bots have no advice of their own for: its default answer, as an action
    case 'act': return {text: actionWords(a.action, findDie), reason: t('advice.declared')};
    default:
      return {text: hint.act ? actionWords(hint.act, findDie) : t('hint.nothing'), reason: ''};
  }
}

/**
 * A refusal from the server ({message, code, reason, params}: an error frame, or an ApiError) in
 * words: told from its reason and facts; a refusal the page has no words for keeps the server's line.
 */
export function refusalWords({message = '', code = null, reason = null, params = {}} = {}) {
  const p = params || {};
  switch (reason) {
    case 'full': return t('err.full');
    case 'started': return t('err.started');
    case 'seat_taken': return t('err.seatTaken', {n: p.seat + 1});
    case 'no_seat': return t('err.noSeat', {n: p.seat + 1});
    case 'not_a_bot': return t('err.notABot', {n: p.seat + 1});
    case 'already_bot': return t('err.alreadyBot', {n: p.seat + 1});
    case 'name': return t('err.name', {n: p.max});
    case 'still_here': return t('err.stillHere', {name: p.name});
    case 'over': return t('err.over');
    case 'not_playing': return t('err.notPlaying');
    case 'rate_limited': return t('err.rateLimited', {n: p.retry_after});
    case 'unavailable': return t('err.unavailable');
    default: break;
  }
  if (code === 'not_seated') return t('err.spectator');
  if (code === 'illegal') return t('err.illegal', {detail: ruleRefusal(reason, p) ?? message});
  if (code === 'internal') return t('err.internal');
  if (code === 'unavailable') return t('err.unavailable');
  return String(message || code || '');
}

const FACT = /\{(\w+)(\+1)?\}/g;

/** A fact of a refusal in the page's words: seats, dice, colours, roles and actions. */
function factWords(key, v, facts) {
  if (key === 'seat') return t('player.n', {n: Number(v) + 1});
  if (key === 'seats') return (v || []).map((s) => t('player.n', {n: Number(s) + 1})).join(', ');
  if (key === 'die') return v && typeof v === 'object' ? dieName(v) : String(v);
  if (key === 'colours' || key === 'named' || key === 'options') {
    return String(v).split(' ').map((x) => (COLOURS.includes(x.split('/')[0]) ? colourWords(x) : x)).join(' ');
  }
  if (key === 'role' && facts.ability) return tOr(`role.${facts.ability}`, v);
  if (key === 'action') return tOr(`refuse.action.${v}`, v);
  return typeof v === 'number' ? v.toLocaleString(getLang()) : String(v);
}

/**
 * A refusal of the rules (an `illegal` error frame's reason code and facts: fusegame.rules.errors)
 * in the page's words; null for a code the page has no words for (the server's English stands).
 */
export function ruleRefusal(reason, facts) {
  if (!reason) return null;
  const key = `refuse.${reason}`;
  const template = tOr(key, '');
  if (!template) return null;
  const f = facts || {};
  return template.replace(FACT, (m, k, plus) => {
    if (!(k in f)) return m;
    return plus ? String(Number(f[k]) + 1) : factWords(k, f[k], f);
  });
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
