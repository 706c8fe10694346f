// The pace gauge: the bombs a table has taken from the middle against a steady line that empties it
// with an eighth of the clock to spare (fusegame.pace, where the server works out the line). The
// bots' games (bench/pace_line.py) say what a step off the line is worth: on it or ahead, nearly
// every game is won; three bombs behind, one in four or more is lost, and the table must speed up.
import {h} from './dom.js';
import {getLang, t} from './i18n.js';

/** Three bombs behind the line or more: the gauge turns red. */
export const FAR_BEHIND = -3;

/** The line as the server sends it ({needed, taken, every_ms}) for a clock of `clockMs`. */
export function paceLine(needed, clockMs) {
  return {needed, every_ms: Math.round((clockMs * 7) / 8 / needed)};
}

/** Whole bombs ahead of the line (behind it when negative) after `elapsedMs` of play. */
export function paceStep(needed, everyMs, taken, elapsedMs) {
  const expected = Math.min(needed, Math.max(0, elapsedMs) / everyMs);
  const step = Math.round(taken - expected);
  return step === 0 ? 0 : step; // never -0
}

/** `ahead`, `line`, `behind` or `far`: the gauge's colour. */
export function paceLevel(step) {
  if (step > 0) return 'ahead';
  if (step === 0) return 'line';
  return step > FAR_BEHIND ? 'behind' : 'far';
}

/** The gauge's words for a step: "2 ahead", "on the line", "3 behind". */
export function paceText(step) {
  if (step > 0) return t('pace.ahead', {n: step});
  if (step === 0) return t('pace.onLine');
  return t('pace.behind', {n: -step});
}

/** A chip that shows the gauge; `show(step, everyMs)` or `hide()`. */
export class PaceGauge {
  constructor(testid = 'pace') {
    this.label = h('span', {class: 'pace-label'});
    this.value = h('b', {});
    this.el = h('div', {class: 'pace', role: 'status', hidden: true, dataset: {testid}}, this.label, ' ', this.value);
    this.shown = null;
  }

  show(step, everyMs) {
    const key = `${step}/${everyMs}/${getLang()}`;
    if (this.shown === key) return;
    this.shown = key;
    this.el.hidden = false;
    this.el.dataset.level = paceLevel(step);
    this.el.dataset.step = String(step);
    this.label.textContent = t('pace.label');
    this.value.textContent = paceText(step);
    this.el.title = t('pace.help', {s: Math.round(everyMs / 1000)});
  }

  hide() {
    this.shown = null;
    this.el.hidden = true;
  }
}
