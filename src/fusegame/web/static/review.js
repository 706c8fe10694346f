// A finished game's review (fusegame.review, served at /api/log/{id}/review), in the page's words.
//
// The server sends facts (seats, dice as {colours, face, as}, card ids, costs with their unit,
// reason codes); the sentences are made here from the catalogues' `review.*` templates, the same
// ones `fuse review` fills in Python (fusegame/words/review.py), so the page and the command line
// say the same things. Numbers are said the page's way (a decimal comma in Spanish).
//
// The replay page shows the whole review beside the table (`reviewNodes`); the end screen shows its
// key moments in one line each (`momentLine`). Both get it from `loadReview`, which asks again
// while the server's worker makes it and keeps a review once it has come.
import {h} from './dom.js';
import {getLang, t, tOr} from './i18n.js';
import {api} from './api.js';
import {dieName} from './dice.js';

/** How often to ask again while the review is being made, and for how long at most. */
export const POLL_MS = 1000;
const GIVE_UP_MS = 5 * 60 * 1000;

/** The reviews that have come, by game: a page opened again shows its review at once. */
const made = new Map();

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The review of game `id`: resolves to {status: 'ready', review}, {status: 'unavailable'} (no such
 * game, or one played at a table: nothing to show), {status: 'failed', error} or {status: 'gone'}
 * (`gone()` said the asker left). `onWorking(ahead)` is called when the server says it is making
 * it, and again whenever the number of reviews it makes first (`ahead`) changes.
 */
export async function loadReview(id, {onWorking = () => {}, gone = () => false} = {}) {
  if (made.has(String(id))) return {status: 'ready', review: made.get(String(id))};
  const until = Date.now() + GIVE_UP_MS;
  let told = null;
  let failures = 0;
  for (;;) {
    if (gone()) return {status: 'gone'};
    try {
      const r = await api.review(id);
      if (r && r.status === 'ready' && r.review) {
        made.set(String(id), r.review);
        return {status: 'ready', review: r.review};
      }
      const ahead = Number((r && r.ahead) || 0);
      if (ahead !== told && !gone()) {
        told = ahead;
        onWorking(ahead);
      }
    } catch (e) {
      if (e.status === 404) return {status: 'unavailable'};
      // asked once more (a lost connection, or a worker that stopped: the server starts another)
      if (++failures > 1) return {status: 'failed', error: e.message};
    }
    if (Date.now() > until) return {status: 'failed', error: t('review.late')};
    await sleep(POLL_MS);
  }
}

/**
 * Follow a game's review for a page: `show` is told "working" while the server makes it, then the
 * answer of `loadReview` (nothing once the page is `gone`).
 */
export function followReview(id, gone, show) {
  loadReview(id, {gone, onWorking: (ahead) => show({status: 'working', ahead})}).then((r) => {
    if (!gone() && r.status !== 'gone') show(r);
  });
}

// ------------------------------------------------------------------ words
/** What a page says while the server makes a review: how many it makes first, if any. */
export function workingWords(r) {
  const n = Number((r && r.ahead) || 0);
  return n > 0 ? t('review.waiting', {n}) : t('review.working');
}

/** `x` with `digits` decimals, as the page's language writes numbers. */
export function num(x, digits = 0) {
  return Number(x || 0).toLocaleString(getLang(), {minimumFractionDigits: digits, maximumFractionDigits: digits,
    useGrouping: false});
}

/** m:ss of a time in ms, rounded to the second. */
function clock(ms) {
  const s = Math.round((ms || 0) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** "about 2.5 dice of work" or "12 s". */
export function costWords(cost, unit) {
  if (unit === 's') return t('review.costSeconds', {cost: num(cost, 0)});
  const shown = Math.round(Number(cost || 0) * 10) / 10;
  return t('review.costDice', {cost: num(cost, 1), n: shown === 1 ? 1 : 2});
}

/** A seat by its player's name ("player 2" where none is known), marked where a bot played it. */
export function seatName(seat, names = [], bots = []) {
  if (seat === null || seat === undefined) return t('review.nothing');
  const name = names[seat] || t('review.seat', {n: seat + 1});
  return bots.includes(seat) ? t('review.botMark', {name}) : name;
}

/** Placements as "Ana: Red 4 on F12, Bo: Blue 2 on F07" ("nothing" when none). */
export function placesWords(places, names = []) {
  if (!places || !places.length) return t('review.nothing');
  return places.map((p) => t('review.place', {who: seatName(p.seat, names), die: dieName(p.die), card: p.card}))
    .join(', ');
}

const rollWords = (m) => t('review.roll', {turn: m.turn});

/** The template of a moment and its facts in words (the cost is said after it, but for a slow roll). */
function momentParts(m, names) {
  const did = m.did || {};
  const better = m.better || {};
  const who = seatName(m.seat, names);
  switch (m.kind) {
    case 'roll': return {key: 'review.moment.roll', params: {roll: rollWords(m), did: placesWords(did.places, names),
      better: placesWords(better.places, names), why: tOr(`review.why.${m.why}`, '')}};
    case 'take': return {key: 'review.moment.take', params: {roll: rollWords(m), who, card: did.card,
      dice: num(did.dice, 1), better: better.card, betterDice: num(better.dice, 1)}};
    case 'give_up': return {key: 'review.moment.give_up', params: {roll: rollWords(m), who,
      die: dieName(did.die), better: dieName(better.die)}};
    case 'slow': return {key: 'review.moment.slow', bare: true, params: {roll: rollWords(m),
      s: num((did.ms || 0) / 1000, 0), extra: num(m.cost, 0), usual: num((better.ms || 0) / 1000, 0)}};
    default: return null;
  }
}

/** One key moment in a sentence, its cost after it: "Roll 13: the team did …; … was better: … (about 4.5 dice of work)". */
export function momentWords(m, names = []) {
  const parts = momentParts(m, names);
  if (!parts) return '';
  const text = t(parts.key, parts.params);
  return parts.bare ? text : `${text} (${costWords(m.cost, m.unit)})`;
}

/**
 * The same sentence as nodes: the roll, what the team did and what was better set apart, so that
 * an eye finds them (the text is momentWords' to the letter).
 */
function momentSentence(m, names) {
  const parts = momentParts(m, names);
  if (!parts) return [];
  const mark = {roll: 'm-roll', did: 'm-did', better: 'm-better', who: 'm-who'};
  const out = [];
  const template = t(parts.key);
  let last = 0;
  for (const found of template.matchAll(/\{(\w+)(?::[^{}]*)?\}/g)) {
    out.push(template.slice(last, found.index));
    const value = parts.params[found[1]];
    const text = value === undefined || value === null ? found[0] : String(value);
    out.push(mark[found[1]] ? h('span', {class: mark[found[1]]}, text) : text);
    last = found.index + found[0].length;
  }
  out.push(template.slice(last));
  if (!parts.bare) out.push(' (', h('span', {class: 'm-cost'}, costWords(m.cost, m.unit)), ')');
  return out;
}

/** A key moment in a few words, for the end screen: "Roll 13: more dice could have been placed (about 10.4 dice of work)". */
export function momentLine(m, names = []) {
  const roll = rollWords(m);
  const did = m.did || {};
  const better = m.better || {};
  const who = seatName(m.seat, names);
  let what;
  switch (m.kind) {
    case 'take': what = t('review.short.take', {who, card: did.card, better: better.card}); break;
    case 'give_up': what = t('review.short.give_up', {who, die: dieName(did.die), better: dieName(better.die)}); break;
    case 'slow':
      return t('review.lineBare', {roll, what: t('review.short.slow', {s: num((did.ms || 0) / 1000, 0),
        extra: num(m.cost, 0)})});
    default: what = tOr(`review.short.${m.why}`, tOr(`review.why.${m.why}`, ''));
  }
  return t('review.line', {roll, what, cost: costWords(m.cost, m.unit)});
}

/** The summary: rolls judged, and the cost of the team's choices in all. */
export function summaryWords(review) {
  return t('review.summary', {judged: review.judged, rolls: review.rolls, cost: num(review.cost, 1)});
}

/** The dice lost, by cause: "2 to fuse cards, 24 to the penalty" ("none"). */
export function lostWords(lost) {
  const causes = Object.entries(lost || {}).filter(([, n]) => n > 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (!causes.length) return t('review.lostNone');
  return causes.map(([k, n]) => `${n} ${tOr(`review.lost.${k}`, t('review.lost.other'))}`).join(', ');
}

/** A seat's figures in a sentence. */
export function playerWords(s, names, bots) {
  return t('review.player', {name: seatName(s.seat, names, bots), placed: s.placed,
    given: Object.values(s.given_up || {}).reduce((a, b) => a + b, 0), completed: s.completed, taken: s.taken,
    claim: s.claim_ms === null || s.claim_ms === undefined ? t('review.claimNone') : `${num(s.claim_ms / 1000, 1)} s`});
}

/** A roll of "roll by roll": its time, dice and what it cost (or why it was not judged). */
export function turnWords(turn) {
  const line = t('review.turn', {roll: rollWords(turn), ms: num((turn.ms || 0) / 1000, 0),
    rolled: (turn.rolled || []).length, placed: turn.placed, lost: turn.lost});
  if (turn.cost === null || turn.cost === undefined) {
    const why = turn.unjudged ? tOr(`review.unjudged.${turn.unjudged}`, '') : '';
    return why ? `${line} · ${why}` : line;
  }
  return turn.cost >= 0.05 ? `${line} · ${t('review.turnCost', {cost: costWords(turn.cost, 'dice')})}` : line;
}

// ------------------------------------------------------------------ pictures
/** The order the time's kinds are drawn and coloured in. */
const TIME_KINDS = ['sharing', 'taking', 'penalty', 'roles', 'other'];

/** Where the time went: one bar of the game's time in parts, and the parts in words under it. */
function timeNodes(timeMs) {
  const parts = Object.entries(timeMs || {}).filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1]);
  if (!parts.length) return null;
  const total = parts.reduce((n, [, ms]) => n + ms, 0);
  const kind = (k) => (TIME_KINDS.includes(k) ? k : 'other');
  return h('section', {class: 'review-time', dataset: {testid: 'review-time'}},
    h('h3', {class: 'section-title'}, t('review.timeTitle')),
    h('div', {class: 'time-bar', 'aria-hidden': 'true'},
      parts.map(([k, ms]) => h('span', {class: `time-${kind(k)}`, style: `flex-grow: ${ms / total}`}))),
    h('ul', {class: 'time-list'}, parts.map(([k, ms]) => h('li', {},
      h('span', {class: ['swatch', `time-${kind(k)}`], 'aria-hidden': 'true'}),
      `${tOr(`review.time.${k}`, t('review.time.other'))}: `, h('b', {}, clock(ms))))));
}

/**
 * The review's nodes for the replay page. `names`: the seats' names (the log entry's);
 * `hrefOf(step)`: the address of a step; `go(step)`: show it (a click on a moment or a roll).
 */
export function reviewNodes(review, {names = [], hrefOf = () => '#', go = null} = {}) {
  const bots = (review.seats || []).filter((s) => s.bot).map((s) => s.seat);
  const link = (step, cls, testid, ...children) => h('a', {class: cls, href: hrefOf(step),
    dataset: {testid, step: String(step), reviewStep: String(step)},
    onclick: go ? (ev) => {
      if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return; // a new tab
      ev.preventDefault();
      go(step);
    } : null}, ...children);
  const moments = review.moments || [];
  const turns = review.turns || [];
  return [
    h('h2', {id: 'review-title', class: 'section-title'}, t('review.title')),
    h('details', {class: 'review-estimate', dataset: {testid: 'review-estimate'}},
      h('summary', {}, t('review.estimateShort')),
      h('p', {class: 'small'}, t('review.estimate'))),
    h('section', {class: 'review-moments'},
      h('h3', {class: 'section-title'}, t('review.keyMoments')),
      moments.length
        ? h('ol', {class: 'moment-list'}, moments.map((m) => h('li', {},
          link(m.step, ['moment', `moment-${m.kind}`], 'review-moment', momentSentence(m, names)))))
        : h('p', {class: 'muted small', dataset: {testid: 'review-no-moments'}}, t('review.noMoments'))),
    h('p', {class: 'review-summary small', dataset: {testid: 'review-summary'}}, summaryWords(review)),
    timeNodes(review.time_ms),
    h('p', {class: 'review-lost small', dataset: {testid: 'review-lost'}},
      h('b', {}, t('review.lostTitle')), ': ', lostWords(review.lost)),
    h('section', {class: 'review-players'},
      h('h3', {class: 'section-title'}, t('review.playersTitle')),
      h('ul', {class: 'player-lines small'}, (review.seats || []).map((s) => h('li', {
        dataset: {testid: 'review-player', seat: String(s.seat), bot: s.bot ? 'true' : 'false'}},
      playerWords(s, names, bots))))),
    turns.length ? h('details', {class: 'review-turns', dataset: {testid: 'review-turns'}},
      h('summary', {}, t('review.turnsTitle'), ' ', h('span', {class: 'muted'}, `(${turns.length})`)),
      h('ol', {class: 'turn-list small'}, turns.map((turn) => h('li', {
        class: turn.cost !== null && turn.cost !== undefined && turn.cost >= 0.5 ? 'costly' : null,
        dataset: {from: String(turn.step), to: String(turn.end_step)}},
      link(turn.step, 'turn-link', 'review-turn', turnWords(turn)))))) : null,
  ];
}

/** Mark what shows step `step`: the moment whose step it is, and the roll it is in. */
export function markReviewStep(root, step) {
  if (!root) return;
  for (const a of root.querySelectorAll('a.moment')) {
    if (Number(a.dataset.step) === step) a.setAttribute('aria-current', 'step');
    else a.removeAttribute('aria-current');
  }
  // a roll shows from its step up to the next roll's (the last one to the game's end)
  const rolls = [...root.querySelectorAll('.turn-list > li')];
  for (const [i, li] of rolls.entries()) {
    const from = Number(li.dataset.from);
    const to = Number(li.dataset.to);
    li.classList.toggle('current', step >= from && (step < to || (i === rolls.length - 1 && step <= to)));
  }
}
