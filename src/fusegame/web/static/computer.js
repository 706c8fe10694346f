// The ship's computer: the countdown clock, interpolated between state frames, and its voice.
import {h, mmss} from './dom.js';
import {t} from './i18n.js';
import {say, play} from './sound.js';
import {PaceGauge, paceStep} from './pace.js';

export class ShipComputer {
  constructor() {
    this.left = null; // ms left at `at` (null: untimed)
    this.elapsed = 0; // ms played at `at` (untimed games show it)
    this.at = performance.now();
    this.running = false;
    this.prev = null; // the last value shown, to notice marks being crossed
    this.spoken = new Set();
    this.el = h('div', {class: 'clock', role: 'timer', dataset: {testid: 'clock'}});
    this.label = h('div', {class: 'clock-label'});
    this.gauge = new PaceGauge();
    this.pace = null; // the view's pace facts (null: no gauge in this game)
    this.limit = null;
    this.box = h('div', {class: 'computer'}, this.label, this.el, this.gauge.el);
    this.timer = setInterval(() => this.tick(), 200);
    this.tick();
  }

  /** A state frame's `clock` ({left_ms, running}) and view. */
  update(clock, view) {
    this.at = performance.now();
    this.left = clock && clock.left_ms !== null && clock.left_ms !== undefined ? clock.left_ms
      : (view && view.time_left_ms !== null && view.time_left_ms !== undefined ? view.time_left_ms : null);
    this.elapsed = view ? view.time_ms || 0 : 0;
    // an untimed game's clock still counts up: the game time is the server's, stamped on each move
    const untimed = this.left === null;
    this.running = (untimed || Boolean(clock && clock.running)) && !(view && view.outcome) &&
      !(view && view.clock_stopped_ms !== null && view.clock_stopped_ms !== undefined);
    this.stopped = Boolean(view && view.clock_stopped_ms !== null && view.clock_stopped_ms !== undefined);
    // the gauge while the middle still holds bombs and the game goes on
    const pace = view && !view.outcome ? view.pace : null;
    this.pace = pace && pace.taken < pace.needed ? pace : null;
    this.limit = view ? view.time_limit_ms : null;
    this.tick();
  }

  /** Milliseconds left now (null in untimed practice). */
  now() {
    if (this.left === null) return null;
    const gone = this.running ? performance.now() - this.at : 0;
    return Math.max(0, this.left - gone);
  }

  tick() {
    const left = this.now();
    if (left === null) {
      const played = this.elapsed + (this.running ? performance.now() - this.at : 0);
      this.label.textContent = t('clock.practice');
      this.el.textContent = mmss(played);
      this.el.setAttribute('aria-label', `${t('clock.practice')} ${mmss(played)}`);
      this.box.className = 'computer practice';
      return;
    }
    this.label.textContent = this.stopped ? t('clock.stopped') : t('clock.left');
    const text = mmss(left);
    if (this.el.textContent !== text) {
      this.el.textContent = text;
      this.el.setAttribute('aria-label', t('clock.aria', {time: text}));
    }
    this.box.className = ['computer', left <= 60000 ? 'warn' : '', left <= 30000 && left > 0 ? 'urgent' : '',
      left <= 10000 ? 'critical' : '',
      this.running ? '' : 'paused'].filter(Boolean).join(' ');
    if (this.pace && this.limit) {
      const p = this.pace;
      this.gauge.show(paceStep(p.needed, p.every_ms, p.taken, this.limit - left), p.every_ms, p.far);
    } else {
      this.gauge.hide();
    }
    if (this.running && this.prev !== null) this.announce(this.prev, left);
    this.prev = this.running ? left : null;
  }

  /** Announce each mark crossed between two readings, once. */
  announce(before, after) {
    const marks = [];
    for (let m = Math.floor(before / 60000); m >= 1; m--) {
      const ms = m * 60000;
      if (before > ms && after <= ms) marks.push([`m${m}`, m === 1 ? t('voice.minute') : t('voice.minutes', {n: m})]);
    }
    if (before > 30000 && after <= 30000) marks.push(['s30', t('voice.seconds30')]);
    for (let s = 10; s >= 1; s--) {
      if (before > s * 1000 && after <= s * 1000) marks.push([`c${s}`, String(s)]);
    }
    // after a long pause (a hidden tab) only the latest mark is worth saying
    const last = marks[marks.length - 1];
    if (!last || this.spoken.has(last[0])) return;
    for (const [key] of marks) this.spoken.add(key);
    let words = last[1];
    if (last[0].startsWith('m') && this.pace && this.limit) {
      // a minute mark says the pace too: the gauge for those who are not looking at it
      const p = this.pace;
      const step = paceStep(p.needed, p.every_ms, p.taken, this.limit - after);
      words += `. ${t(step > 0 ? 'comp.sayAhead' : step === 0 ? 'comp.sayOnLine' : 'comp.sayBehind', {n: Math.abs(step)})}`;
    }
    say(words);
    if (last[0].startsWith('c')) play('tick');
  }

  destroy() {
    clearInterval(this.timer);
  }
}
