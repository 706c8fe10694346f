// The pace gauge: the bombs a table has taken from the middle against a steady line that empties it
// with an eighth of the clock to spare (fusegame.pace, where the server works out the line). The
// bots' games (research/studies/pace_line.py) say what a step off the line is worth: the further behind it,
// the more games are lost, at every table where games are lost (at three players, a third or more
// of those three bombs behind after five minutes), so that is where the gauge turns red.
import {h} from './dom.js';
import {getLang, t} from './i18n.js';

/** Three bombs behind the line or more: the gauge turns red, where the server does not say
 * otherwise for the table (the view's `pace.far`: five behind in FUSE at four players or more,
 * which catch up late; fusegame.pace.far_behind). */
export const FAR_BEHIND = -3;

/** The line for `needed` bombs on a clock of `clockMs` ({needed, every_ms}), as the server works it
 * out for a game's view; the Ship's Computer's clock is the table's own length. */
export function paceLine(needed, clockMs) {
  return {needed, every_ms: Math.round((clockMs * 7) / 8 / needed)};
}

/** Whole bombs ahead of the line (behind it when negative) after `elapsedMs` of play. */
export function paceStep(needed, everyMs, taken, elapsedMs) {
  const expected = Math.min(needed, Math.max(0, elapsedMs) / everyMs);
  const step = Math.round(taken - expected);
  return step === 0 ? 0 : step; // never -0
}

/** `ahead`, `line`, `behind` or `far`: the gauge's colour, red from `far` behind. */
export function paceLevel(step, far = FAR_BEHIND) {
  if (step > 0) return 'ahead';
  if (step === 0) return 'line';
  return step > far ? 'behind' : 'far';
}

/** The gauge's words for a step: "2 ahead", "on the line", "3 behind". */
export function paceText(step) {
  if (step > 0) return t('pace.ahead', {n: step});
  if (step === 0) return t('pace.onLine');
  return t('pace.behind', {n: -step});
}

/** A chip that shows the gauge; `show(step, everyMs, far)` or `hide()`. */
export class PaceGauge {
  constructor(testid = 'pace') {
    this.label = h('span', {class: 'pace-label'});
    this.value = h('b', {});
    this.el = h('div', {class: 'pace', role: 'status', hidden: true, dataset: {testid}}, this.label, ' ', this.value);
    this.shown = null;
  }

  show(step, everyMs, far = FAR_BEHIND) {
    const key = `${step}/${everyMs}/${far}/${getLang()}`;
    if (this.shown === key) return;
    this.shown = key;
    this.el.hidden = false;
    this.el.dataset.level = paceLevel(step, far);
    this.el.dataset.step = String(step);
    this.label.textContent = t('pace.label');
    this.value.textContent = paceText(step);
    this.el.title = t('pace.help', {s: Math.round(everyMs / 1000), n: -far});
  }

  hide() {
    this.shown = null;
    this.el.hidden = true;
  }
}

/** The picture's size and margins, in its own units. */
const W = 360, H = 150, L = 30, R = 10, T = 10, B = 22;

/** Where `ms` of play falls across the picture of `pace`, in its own units. */
function chartX(pace, ms) {
  const clock = pace.clock_ms;
  return (L + (Math.min(clock, Math.max(0, ms)) / clock) * (W - L - R)).toFixed(1);
}

/** Move the picture's mark of the moment shown (a replay's step) to `ms` of play. */
export function markPaceChart(box, pace, ms) {
  const mark = box.querySelector('line.now');
  if (!mark) return;
  const at = chartX(pace, ms);
  mark.setAttribute('x1', at);
  mark.setAttribute('x2', at);
}

/**
 * The pace of a finished game as a picture: the bombs taken from the middle (a staircase) against
 * the line (dashed), minutes across; `pace` as the replay sends it ({needed, every_ms, clock_ms,
 * taken: [[time_ms, taken, step]...]}), `endMs` the game's last moment, `atMs` the step shown (a
 * mark), `onPick(ms)` called with the time a click or tap points at.
 */
export function paceChart(pace, endMs, atMs, onPick) {
  const clock = pace.clock_ms;
  const x = (ms) => chartX(pace, ms);
  const y = (n) => (T + (1 - n / pace.needed) * (H - T - B)).toFixed(1);
  const lineEnd = pace.every_ms * pace.needed;
  const parts = [];
  for (let m = 0; m * 60_000 <= clock; m += clock > 360_000 ? 2 : 1) {
    parts.push(`<line class="grid" x1="${x(m * 60_000)}" x2="${x(m * 60_000)}" y1="${T}" y2="${H - B}"/>`,
      `<text class="tick" x="${x(m * 60_000)}" y="${H - 6}" text-anchor="middle">${m}</text>`);
  }
  for (const n of [0, pace.needed]) {
    parts.push(`<line class="grid" x1="${L}" x2="${W - R}" y1="${y(n)}" y2="${y(n)}"/>`,
      `<text class="tick" x="${L - 5}" y="${Number(y(n)) + 4}" text-anchor="end">${n}</text>`);
  }
  parts.push(`<polyline class="line" points="${x(0)},${y(0)} ${x(lineEnd)},${y(pace.needed)} ${x(clock)},${y(pace.needed)}"/>`);
  const taken = pace.taken || [];
  if (taken.length) {
    let d = `M${x(0)},${y(taken[0][1])}`;
    for (const [ms, n] of taken.slice(1)) d += ` H${x(ms)} V${y(n)}`;
    d += ` H${x(endMs)}`;
    parts.push(`<path class="taken" d="${d}"/>`);
  }
  if (atMs !== null && atMs !== undefined) {
    parts.push(`<line class="now" x1="${x(atMs)}" x2="${x(atMs)}" y1="${T}" y2="${H - B}"/>`);
  }
  const box = h('div', {class: 'pace-chart', dataset: {testid: 'pace-chart'}, role: 'img',
    'aria-label': paceSummary(pace, endMs),
    html: `<svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="xMidYMid meet" aria-hidden="true">${parts.join('')}</svg>`});
  if (onPick) {
    box.addEventListener('click', (e) => {
      const r = box.querySelector('svg').getBoundingClientRect();
      const px = ((e.clientX - r.left) / r.width) * W;
      onPick(((px - L) / (W - L - R)) * clock);
    });
  }
  return box;
}

/** The bombs taken `atMs` into the game, from the replay's `taken`. */
export function takenAt(pace, atMs) {
  let n = 0;
  for (const [ms, k] of pace.taken || []) {
    if (ms > atMs) break;
    n = k;
  }
  return n;
}

/** In words: the gauge at three, five and seven minutes, as far as the game went. */
export function paceSummary(pace, endMs) {
  const marks = [];
  for (const m of [3, 5, 7]) {
    const ms = m * 60_000;
    if (ms >= endMs || ms >= pace.clock_ms) break;
    const taken = takenAt(pace, ms);
    if (taken >= pace.needed) break;
    marks.push(t('pace.atMark', {m, words: paceText(paceStep(pace.needed, pace.every_ms, taken, ms))}));
  }
  return [t('pace.legend'), ...marks].join(' · ');
}
