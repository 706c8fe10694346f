// #/computer: the Ship's Computer, the companion for a game of FUSE played with the box at a real
// table. What to lay out (from the engine's table of games), the countdown clock with its voice, and
// the score, counted at the table and kept in the same BDT Log as the digital games.
//
// The clock is wall-clock arithmetic on a stored start time, never a counter of ticks: it keeps
// running through a reload, a locked phone or a tab in the background, and it reads the same after.
import {h, mount, mmss} from './dom.js';
import {t} from './i18n.js';
import {api} from './api.js';
import {markPage, toast} from './ui.js';
import {isMuted, setMuted, onMuteChange, play, say} from './sound.js';
import {PaceGauge, paceLine, paceStep} from './pace.js';
import {refusalWords} from './words.js';

const STORE_KEY = 'fuse.computer';
const GAMES = ['fuse', 'countdown', 'integrated', 'epic'];
const PLAYERS = {fuse: [1, 5], countdown: [1, 4], integrated: [1, 4], epic: [6, 9]};
const LEVELS = ['training', 'standard', 'expert', 'elite', 'top'];
const MODULES = ['roles', 'bombs', 'fuses', 'sparks', 'split-dice'];
const SETUPS = ['standard', 'single-deck', 'stacks'];
const COLOURS = ['R', 'B', 'G', 'Y', 'K'];
/** E.3: one point of time bonus per full ten seconds left, on a win. */
const BONUS_MS = 10_000;

/** Insane is FUSE's name of the top level, Heroic the Countdown games'. */
const difficultyOf = (game, level) => (level === 'top' ? (game === 'fuse' ? 'insane' : 'heroic') : level);

function fresh() {
  return {
    stage: 'setup', // setup, clock, score, saved
    options: {game: 'fuse', players: 4, level: 'standard', modules: [], setup: 'standard',
      six_point_cards: false, fuse_cards: null},
    minutes: 10,
    clock: {lengthMs: 600_000, startedAt: null, pausedAt: null, pausedMs: 0, stoppedLeftMs: null, result: null},
    tick: false,
    taken: 0, // bombs taken from the middle, counted at the table for the pace gauge
    score: null, // {won, bombs: {value: n}, fuse_cards, sparks, names, timeLeftMs}
    savedId: null,
  };
}

function load() {
  try {
    const s = JSON.parse(localStorage.getItem(STORE_KEY) || 'null');
    if (s && typeof s === 'object' && s.clock && s.options) return {...fresh(), ...s};
  } catch {
    /* a fresh computer */
  }
  return fresh();
}

/** The time left on the clock at `now` (ms since the epoch), never below 0 nor above its length. */
export function clockLeft(clock, now) {
  if (clock.stoppedLeftMs !== null && clock.stoppedLeftMs !== undefined) return clock.stoppedLeftMs;
  if (clock.startedAt === null) return clock.lengthMs;
  const paused = clock.pausedMs + (clock.pausedAt !== null ? now - clock.pausedAt : 0);
  const left = clock.lengthMs - (now - clock.startedAt - paused);
  return Math.max(0, Math.min(clock.lengthMs, left));
}

/** The rulebook's breakdown of a score counted at the table (E.3), as the server works it out too. */
export function breakdown(score) {
  const bombs = Object.entries(score.bombs || {}).reduce((sum, [v, n]) => sum + Number(v) * n, 0);
  const time = score.won && score.timeLeftMs !== null ? Math.floor(score.timeLeftMs / BONUS_MS) : 0;
  const win = score.won ? 10 : 0;
  const fuses = 2 * (score.fuse_cards || 0);
  const sparks = 2 * (score.sparks || 0);
  return {win, time, bombs, fuses, sparks, total: win + time + bombs + fuses + sparks};
}

export class TableComputerPage {
  constructor(root) {
    this.root = root;
    this.s = load();
    this.setup = null; // the engine's figures for the chosen game
    this.setupError = null;
    this.wake = 'off'; // off, on, unsupported, failed
    this.lock = null;
    this.lastLeft = null;
    this.nextTick = null; // the time left at which the next tick sounds
    this.announcement = '';
    this.saving = false;
    this.saveError = null;
    this.gauge = new PaceGauge('computer-pace');
    this.timer = setInterval(() => this.tick(), 100);
    this.onVisible = () => {
      if (document.visibilityState === 'visible' && this.running()) this.keepAwake(true);
    };
    document.addEventListener('visibilitychange', this.onVisible);
    this.offMute = onMuteChange(() => this.render());
    this.fetchSetup();
    if (this.running()) this.keepAwake(true);
  }

  destroy() {
    clearInterval(this.timer);
    document.removeEventListener('visibilitychange', this.onVisible);
    this.offMute();
    this.keepAwake(false);
  }

  save() {
    try {
      localStorage.setItem(STORE_KEY, JSON.stringify(this.s));
    } catch {
      /* the clock still runs; a reload forgets it */
    }
  }

  // ------------------------------------------------------------ the game's figures
  query() {
    const o = this.s.options;
    const q = new URLSearchParams({game: o.game, players: String(o.players),
      difficulty: difficultyOf(o.game, o.level)});
    if (o.game === 'fuse') {
      q.set('setup', o.setup);
      q.set('six_point_cards', String(o.six_point_cards));
      for (const m of o.modules) q.append('modules', m);
    }
    if (o.fuse_cards !== null) q.set('fuse_cards', String(o.fuse_cards));
    return q;
  }

  /** The options as the log's API takes them. */
  body() {
    const o = this.s.options;
    const body = {game: o.game, players: o.players, difficulty: difficultyOf(o.game, o.level)};
    if (o.game === 'fuse') Object.assign(body, {modules: o.modules, setup: o.setup, six_point_cards: o.six_point_cards});
    if (this.setup) body.fuse_cards = this.setup.fuse_cards;
    return body;
  }

  async fetchSetup() {
    const q = this.query().toString();
    this.pending = q;
    try {
      const s = await api.tableSetup(q);
      if (this.pending !== q) return;
      this.setup = s;
      this.setupError = null;
    } catch (e) {
      if (this.pending !== q) return;
      this.setup = null;
      // the page's own words, never the server's message
      this.setupError = e.reason === 'rate_limited' || e.status === 503 ? refusalWords(e) : t('comp.setupFailed');
    }
    this.render();
  }

  // ------------------------------------------------------------ the clock
  running() {
    const c = this.s.clock;
    return c.startedAt !== null && c.pausedAt === null && c.stoppedLeftMs === null;
  }

  left() {
    return clockLeft(this.s.clock, Date.now());
  }

  start() {
    const c = this.s.clock;
    c.lengthMs = this.s.minutes * 60_000;
    c.startedAt = Date.now();
    c.pausedAt = null;
    c.pausedMs = 0;
    c.stoppedLeftMs = null;
    c.result = null;
    this.s.taken = 0;
    this.s.stage = 'clock';
    this.lastLeft = c.lengthMs;
    this.save();
    this.announce(t('comp.sayStart', {time: this.spokenTime(c.lengthMs)}));
    play('roll');
    this.keepAwake(true);
    this.render();
    this.focusControl('clock-pause');
  }

  pause() {
    const c = this.s.clock;
    if (!this.running()) return;
    c.pausedAt = Date.now();
    this.save();
    this.announce(t('comp.sayPause'));
    this.keepAwake(false);
    this.render();
    this.focusControl('clock-resume');
  }

  resume() {
    const c = this.s.clock;
    if (c.pausedAt === null) return;
    c.pausedMs += Date.now() - c.pausedAt;
    c.pausedAt = null;
    this.lastLeft = this.left();
    this.save();
    this.announce(t('comp.sayResume'));
    this.keepAwake(true);
    this.render();
    this.focusControl('clock-pause');
  }

  /** The clock stops: `defused` (a win, with its time bonus), `timeup` or `lost` (given up). */
  stop(result) {
    const c = this.s.clock;
    const left = result === 'timeup' ? 0 : this.left();
    c.stoppedLeftMs = left;
    c.result = result;
    const won = result === 'defused';
    this.s.score = {won, bombs: {}, fuse_cards: 0, sparks: 0, names: [], timeLeftMs: c.startedAt === null ? null : left};
    this.keepAwake(false);
    if (won) {
      play('won');
      this.announce(t('comp.sayDefused', {bonus: Math.floor(left / BONUS_MS)}));
    } else {
      play('lost');
      this.announce(t(result === 'timeup' ? 'comp.sayTimeUp' : 'comp.sayLost'));
    }
    this.save();
    this.render();
    this.focusControl('to-score');
  }

  reset() {
    const keep = {options: this.s.options, minutes: this.s.minutes, tick: this.s.tick};
    this.s = {...fresh(), ...keep};
    this.lastLeft = null;
    this.saveError = null;
    this.keepAwake(false);
    this.save();
    this.announcement = '';
    this.render();
  }

  spokenTime(ms) {
    const s = Math.round(ms / 1000);
    const m = Math.floor(s / 60);
    const r = s % 60;
    if (!r) return t(m === 1 ? 'comp.oneMinute' : 'comp.minutes', {n: m});
    return m ? t('comp.minSec', {m, s: r}) : t('comp.seconds', {n: r});
  }

  /** Said aloud (unless muted) and shown under the clock, for those who cannot hear it. */
  announce(text) {
    this.announcement = text;
    const el = this.root.querySelector('[data-testid="announce"]');
    if (el) el.textContent = text;
    say(text);
  }

  /** Called ten times a second: the clock's face, its warnings and its tick. */
  tick() {
    const c = this.s.clock;
    const left = this.left();
    const face = this.root.querySelector('[data-testid="computer-clock"]');
    if (face) {
      const text = mmss(left);
      if (face.textContent !== text) face.textContent = text;
      face.classList.toggle('urgent', left <= 30_000 && c.startedAt !== null);
      face.setAttribute('aria-label', t('comp.clockAria', {time: this.spokenTime(Math.ceil(left / 1000) * 1000)}));
    }
    this.showPace(left);
    if (!this.running()) return;
    const prev = this.lastLeft ?? left;
    this.lastLeft = left;
    if (left <= 0) {
      this.stop('timeup');
      return;
    }
    // a mark is crossed between the last tick and this one: the minutes, half a minute, the last ten
    const crossed = (mark) => prev > mark && left <= mark;
    for (let m = Math.floor(c.lengthMs / 60_000) - 1; m >= 1; m--) {
      if (crossed(m * 60_000)) this.announce(this.withPace(t(m === 1 ? 'comp.sayOneMinute' : 'comp.sayMinutes', {n: m}), left));
    }
    if (crossed(30_000)) {
      this.announce(t('comp.say30'));
      play('alarm');
    }
    for (let n = 10; n >= 1; n--) if (crossed(n * 1000)) this.announce(String(n));
    if (this.s.tick) {
      // once a second, faster and faster through the last minute (four a second at the end)
      const every = left > 60_000 ? 1000 : 250 + 750 * (left / 60_000);
      if (this.nextTick === null || this.nextTick - left > 2000 || left - this.nextTick > 2000) this.nextTick = left;
      if (left <= this.nextTick) {
        play('tick');
        this.nextTick = left - every;
      }
    }
  }

  /** The pace line for this game's middle and clock, or null where the gauge does not apply. */
  line() {
    const s = this.setup;
    if (!s || !s.middle || this.s.options.level === 'top') return null;
    return paceLine(s.middle, this.s.clock.lengthMs);
  }

  showPace(left) {
    const line = this.line();
    const c = this.s.clock;
    if (!line || c.startedAt === null || c.stoppedLeftMs !== null || this.s.taken >= line.needed) {
      this.gauge.hide();
      return;
    }
    this.gauge.show(paceStep(line.needed, line.every_ms, this.s.taken, c.lengthMs - left), line.every_ms,
      this.setup.pace_far);
  }

  /** A minute mark's words, and the pace where the table counts the bombs it takes. */
  withPace(text, left) {
    const line = this.line();
    if (!line || !this.s.taken || this.s.taken >= line.needed) return text;
    const step = paceStep(line.needed, line.every_ms, this.s.taken, this.s.clock.lengthMs - left);
    const key = step > 0 ? 'comp.sayAhead' : step === 0 ? 'comp.sayOnLine' : 'comp.sayBehind';
    return `${text} ${t(key, {n: Math.abs(step)})}`;
  }

  /** The count of bombs taken, one up or down (a tap too many is taken back with the minus). */
  countTaken(d) {
    const line = this.line();
    if (!line) return; // no count without a line: the counter is not shown then
    this.s.taken = Math.max(0, Math.min(line.needed, (this.s.taken || 0) + d));
    this.save();
    const el = this.root.querySelector('[data-testid="taken-value"]');
    if (el) el.textContent = String(this.s.taken);
    this.showPace(this.left());
  }

  /** The Screen Wake Lock API keeps a phone on the table from going dark while the clock runs. */
  async keepAwake(on) {
    if (!('wakeLock' in navigator)) {
      this.wake = 'unsupported';
      this.showWake();
      return;
    }
    if (!on) {
      const lock = this.lock;
      this.lock = null;
      if (lock) lock.release().catch(() => {});
      this.wake = 'off';
      this.showWake();
      return;
    }
    if (this.lock) return;
    try {
      this.lock = await navigator.wakeLock.request('screen');
      this.wake = 'on';
      this.lock.addEventListener('release', () => {
        this.lock = null;
        if (this.wake === 'on') this.wake = 'off';
        this.showWake();
      });
    } catch {
      this.wake = 'failed';
    }
    this.showWake();
  }

  showWake() {
    const el = this.root.querySelector('[data-testid="wake-status"]');
    if (el) {
      el.textContent = this.wakeText();
      el.dataset.state = this.wake;
    }
  }

  wakeText() {
    return t({on: 'comp.wakeOn', off: 'comp.wakeOff', unsupported: 'comp.wakeNone', failed: 'comp.wakeFailed'}[this.wake]);
  }

  focusControl(testid) {
    const el = this.root.querySelector(`[data-testid="${testid}"]`);
    if (el) el.focus({preventScroll: true});
  }

  // ------------------------------------------------------------ pages
  render() {
    markPage('computer', this.s.stage);
    const stage = this.s.stage;
    const steps = ['setup', 'clock', 'score'];
    const nav = h('ol', {class: 'comp-steps', 'aria-label': t('comp.steps')}, steps.map((k, i) => h('li', {
      class: stage === k || (stage === 'saved' && k === 'score') ? 'current' : '',
      'aria-current': stage === k ? 'step' : null}, `${i + 1}. ${t(`comp.step.${k}`)}`)));
    const body = stage === 'setup' ? this.renderSetup()
      : stage === 'clock' ? this.renderClock()
        : this.renderScore();
    mount(this.root, h('div', {class: ['computer-page', `stage-${stage}`]},
      h('header', {class: 'comp-head'},
        h('h1', {}, t('comp.title')),
        nav),
      body));
    this.tick();
    // a phone on its side has room for the clock stage and little else: it scrolls into view whole
    const clock = this.root.querySelector('.clock-stage');
    if (clock && typeof clock.scrollIntoView === 'function') clock.scrollIntoView({block: 'nearest'});
  }

  /** Keep the player count inside the chosen game's range (an epic game starts at six). */
  clampPlayers() {
    const o = this.s.options;
    const [lo, hi] = PLAYERS[o.game];
    o.players = Math.min(hi, Math.max(lo, o.players));
    return [lo, hi];
  }

  renderSetup() {
    const o = this.s.options;
    const [lo, hi] = this.clampPlayers();
    const change = (fn) => {
      fn();
      // before the server is asked: a game and a count it would refuse are never sent
      this.clampPlayers();
      this.save();
      this.fetchSetup();
      this.render();
    };
    const field = (id, label, control, help) => h('div', {class: 'field'},
      h('label', {for: id}, label), control, help ? h('div', {class: 'help-text', id: `${id}-help`}, help) : null);
    const select = (id, items, value, onchange) => h('select', {id, dataset: {testid: `comp-${id}`},
      onchange: (e) => change(() => onchange(e.target.value))},
    items.map(([v, label]) => h('option', {value: v, selected: v === String(value)}, label)));
    const players = [];
    for (let n = lo; n <= hi; n++) players.push([String(n), String(n)]);
    const range = this.setup ? this.setup.fuse_range : null;
    const form = h('form', {class: 'comp-form', onsubmit: (e) => e.preventDefault()},
      h('div', {class: 'fields'},
        field('c-game', t('opt.game'), select('c-game', GAMES.map((g) => [g, t(`game.${g}`)]), o.game, (v) => {
          o.game = v;
          o.fuse_cards = null;
        })),
        field('c-players', t('opt.players'), select('c-players', players, o.players, (v) => { o.players = Number(v); })),
        field('c-level', t('opt.difficulty'), select('c-level',
          LEVELS.map((l) => [l, t(`difficulty.${difficultyOf(o.game, l)}`)]), o.level, (v) => {
            o.level = v;
            o.fuse_cards = null;
          })),
        o.game === 'fuse' ? field('c-setup', t('opt.setup'), select('c-setup',
          SETUPS.map((s) => [s, t(`setup.${s}`)]), o.setup, (v) => { o.setup = v; })) : null,
        range && range.max > 0 ? field('c-fuses', t('opt.fuseCards'), h('input', {id: 'c-fuses', type: 'number',
          min: range.min, max: range.max, value: this.setup.fuse_cards, dataset: {testid: 'comp-c-fuses'},
          'aria-describedby': 'c-fuses-help',
          onchange: (e) => {
            const n = Number(e.target.value);
            if (Number.isInteger(n) && n >= range.min && n <= range.max) change(() => { o.fuse_cards = n; });
            else e.target.value = this.setup.fuse_cards;
          }}), t('opt.fuseRange', range)) : null,
        field('c-minutes', t('comp.minutesLabel'), h('input', {id: 'c-minutes', type: 'number', min: 1, max: 60,
          value: this.s.minutes, dataset: {testid: 'comp-minutes'}, 'aria-describedby': 'c-minutes-help',
          onchange: (e) => {
            const n = Number(e.target.value);
            if (Number.isInteger(n) && n >= 1 && n <= 60) {
              this.s.minutes = n;
              this.s.clock.lengthMs = n * 60_000;
              this.save();
              // said in place: a re-render would take the focus from the next field
              const time = mmss(n * 60_000);
              const start = this.root.querySelector('[data-testid="clock-start"]');
              if (start) start.textContent = t('comp.startClock', {time});
              const step = this.root.querySelector('[data-testid="setup-clock"] span');
              if (step) step.textContent = t('comp.clockStep', {time});
            } else {
              e.target.value = this.s.minutes;
            }
          }}), t('comp.minutesHelp'))),
      o.game === 'fuse' ? h('fieldset', {class: 'modules'},
        h('legend', {}, t('opt.modules')),
        MODULES.map((m) => h('label', {class: 'check-inline'},
          h('input', {type: 'checkbox', checked: o.modules.includes(m), dataset: {testid: `comp-module-${m}`},
            onchange: (e) => change(() => {
              o.modules = e.target.checked ? [...new Set([...o.modules, m])] : o.modules.filter((x) => x !== m);
              o.fuse_cards = null;
            })}), ' ', t(`module.${m}`)))) : null,
      o.game === 'fuse' ? h('p', {}, h('label', {class: 'check-inline'},
        h('input', {type: 'checkbox', checked: o.six_point_cards, dataset: {testid: 'comp-six'},
          onchange: (e) => change(() => { o.six_point_cards = e.target.checked; })}), ' ', t('opt.six'))) : null);
    return h('div', {class: 'comp-grid'},
      h('section', {class: 'panel'}, h('h2', {}, t('comp.chooseTitle')), form),
      h('section', {class: 'panel lay-out', 'aria-live': 'polite'},
        h('h2', {}, t('comp.layOutTitle')),
        this.setupError ? h('p', {class: 'error', role: 'alert'}, this.setupError)
          : this.setup ? this.layOut(this.setup) : h('p', {class: 'muted'}, t('loading')),
        h('div', {class: 'form-actions'},
          h('button', {type: 'button', class: 'btn primary big', dataset: {testid: 'clock-start'},
            disabled: !this.setup, onclick: () => this.start()},
          t('comp.startClock', {time: mmss(this.s.minutes * 60_000)})),
          h('button', {type: 'button', class: 'btn', dataset: {testid: 'score-only'}, disabled: !this.setup,
            onclick: () => this.toScore()}, t('comp.scoreOnly')))));
  }

  /** What to put on the table, step by step, in the page's words. */
  layOut(s) {
    const items = [];
    const add = (testid, text, figure = null) => items.push(h('li', {dataset: {testid}},
      figure !== null ? h('b', {class: 'figure'}, String(figure)) : null, h('span', {}, text)));
    // both boxes: which of each box's cards, decks and dice go in
    if (s.game === 'integrated' || s.game === 'epic') add('setup-boxes', t(`comp.boxes.${s.game}`));
    if (s.roles) add('setup-roles', t('comp.roles', {n: s.roles}), s.roles);
    const handRule = s.hand_rule.kind === 'solo' ? t('comp.handSolo', {n: s.hand_rule.distinct})
      : t('comp.handPair', {limit: s.hand_rule.limit});
    if (s.hands_in_deck) {
      add('setup-deck', t('comp.deckFirst', {n: s.deck}), s.deck);
      add('setup-hand', `${t('comp.handFromDeck', {n: s.hand_size})} ${handRule}`, s.hand_size);
    } else {
      add('setup-hand', `${t('comp.handFromBombs', {n: s.hand_size})} ${handRule}`, s.hand_size);
      if (s.levels) {
        add('setup-deck', t('comp.deckLevels', {n: s.deck, levels: Object.entries(s.levels)
          .map(([v, n]) => t('comp.level', {v, n})).join(', ')}), s.deck);
      } else {
        add('setup-deck', t('comp.deckAfter', {n: s.deck}), s.deck);
      }
    }
    if (s.row) add('setup-row', t('comp.row', {n: s.row, down: s.face_down}), s.row);
    else add('setup-row', t('comp.stacks'), Object.keys(s.levels || {}).length);
    add('setup-face-down', t('comp.faceDown', {n: s.face_down}), s.face_down);
    if (s.fuse_cards) add('setup-fuses', t(s.row ? 'comp.fuses' : 'comp.fusesStacks', {n: s.fuse_cards}), s.fuse_cards);
    else add('setup-fuses', t('comp.noFuses', {from: t(`difficulty.${s.fuse_from}`)}), 0);
    if (s.sparks) add('setup-sparks', t('comp.sparks', {n: s.sparks}), s.sparks);
    add('setup-dice', t('comp.dice', {n: s.dice_total, list: this.diceWords(s.dice)}), s.dice_total);
    if (s.game === 'fuse' && !s.six_point_cards && !(s.bomb_values || []).includes(5)) add('setup-six', t('comp.sixOut'));
    add('setup-clock', t('comp.clockStep', {time: mmss(this.s.minutes * 60_000)}));
    return h('ol', {class: 'lay-out-list', dataset: {testid: 'lay-out'}}, items);
  }

  diceWords(dice) {
    const colour = (c) => c.split('/').map((x) => t(`colour.${x}`).toLowerCase()).join('/');
    // one count per colour, however many boxes the dice come from
    const byColour = new Map();
    for (const d of dice.filter((x) => !x.colours.includes('/'))) byColour.set(d.colours, (byColour.get(d.colours) || 0) + d.count);
    const solid = [...byColour].map(([colours, count]) => ({colours, count}));
    const split = dice.filter((d) => d.colours.includes('/'));
    const same = solid.length === COLOURS.length && solid.every((d) => d.count === solid[0].count);
    const parts = [same ? t('comp.diceEach', {n: solid[0].count})
      : solid.map((d) => `${d.count} ${colour(d.colours)}`).join(', ')];
    if (split.length) {
      parts.push(t('comp.diceSplit', {n: split.reduce((a, d) => a + d.count, 0),
        list: split.map((d) => colour(d.colours)).join(', ')}));
    }
    return parts.join('; ');
  }

  renderClock() {
    const c = this.s.clock;
    const stopped = c.stoppedLeftMs !== null;
    const paused = c.pausedAt !== null;
    const big = (testid, label, onclick, cls = '') => h('button', {type: 'button', class: ['btn', 'big', cls],
      dataset: {testid}, onclick}, label);
    let controls;
    if (stopped) {
      const bonus = c.result === 'defused' ? Math.floor(c.stoppedLeftMs / BONUS_MS) : 0;
      controls = [
        h('p', {class: ['verdict', c.result === 'defused' ? 'won' : 'lost'], dataset: {testid: 'verdict'}},
          t(c.result === 'defused' ? 'comp.defusedBig' : c.result === 'timeup' ? 'comp.timeUpBig' : 'comp.lostBig')),
        c.result === 'defused' ? h('p', {class: 'bonus', dataset: {testid: 'time-bonus'}},
          t('comp.bonusLine', {time: mmss(c.stoppedLeftMs), bonus})) : null,
        h('div', {class: 'clock-buttons'},
          big('to-score', t('comp.countScore'), () => this.toScore(), 'primary'),
          big('clock-reset', t('comp.newGame'), () => this.confirmReset()))];
    } else {
      controls = [h('div', {class: 'clock-buttons'},
        paused ? big('clock-resume', t('comp.resume'), () => this.resume(), 'primary')
          : big('clock-pause', t('comp.pause'), () => this.pause()),
        big('clock-defused', t('comp.defused'), () => this.stop('defused'), 'ok'),
        big('clock-lost', t('comp.giveUp'), () => this.stop('lost'), 'ghost'))];
    }
    const toggles = h('div', {class: 'comp-toggles'},
      h('label', {class: 'check-inline'}, h('input', {type: 'checkbox', checked: isMuted(), dataset: {testid: 'computer-mute'},
        onchange: (e) => setMuted(e.target.checked)}), ' ', t('comp.mute')),
      h('label', {class: 'check-inline'}, h('input', {type: 'checkbox', checked: this.s.tick, dataset: {testid: 'computer-tick'},
        onchange: (e) => {
          this.s.tick = e.target.checked;
          this.save();
        }}), ' ', t('comp.tick')));
    return h('section', {class: ['clock-stage', paused ? 'paused' : '', stopped ? 'stopped' : '']},
      h('h2', {class: 'sr-only'}, t('comp.step.clock')),
      h('div', {class: 'big-clock', role: 'timer', dataset: {testid: 'computer-clock'}}, mmss(this.left())),
      paused ? h('p', {class: 'paused-note', dataset: {testid: 'paused'}}, t('comp.paused')) : null,
      stopped || !this.line() ? null : this.takenCounter(),
      h('p', {class: 'announce', role: 'status', dataset: {testid: 'announce'}}, this.announcement),
      controls,
      toggles,
      h('p', {class: 'muted small wake', dataset: {testid: 'wake-status', state: this.wake}}, this.wakeText()));
  }

  /** The score pile counted at the table, and the pace gauge beside it. */
  takenCounter() {
    const label = t('comp.taken');
    return h('div', {class: 'taken', dataset: {testid: 'taken'}},
      h('div', {class: 'stepper'},
        h('span', {class: 'taken-label', id: 'taken-label'}, label),
        h('div', {class: 'stepper-controls'},
          h('button', {type: 'button', class: 'btn step', 'aria-label': t('comp.less', {what: label}),
            dataset: {testid: 'taken-minus'}, onclick: () => this.countTaken(-1)}, '−'),
          h('output', {class: 'taken-value', 'aria-labelledby': 'taken-label', 'aria-live': 'polite',
            dataset: {testid: 'taken-value'}}, String(this.s.taken || 0)),
          h('button', {type: 'button', class: 'btn step big-step', 'aria-label': t('comp.more', {what: label}),
            dataset: {testid: 'taken-plus'}, onclick: () => this.countTaken(1)}, '+'))),
      this.gauge.el,
      h('p', {class: 'muted small'}, t('comp.takenHelp')));
  }

  confirmReset() {
    // a game with its score not yet saved is not thrown away by one stray tap
    if (this.s.stage !== 'saved' && this.s.clock.startedAt !== null && !window.confirm(t('comp.resetConfirm'))) return;
    this.reset();
    this.focusControl('clock-start');
  }

  toScore() {
    if (!this.s.score) {
      this.s.score = {won: false, bombs: {}, fuse_cards: 0, sparks: 0, names: [], timeLeftMs: null};
    }
    this.s.stage = 'score';
    this.save();
    this.render();
    const first = this.root.querySelector('[data-testid="score-form"] input');
    if (first) first.focus({preventScroll: true});
  }

  renderScore() {
    const s = this.setup;
    if (!s) return h('p', {class: 'muted'}, this.setupError || t('loading'));
    const sc = this.s.score;
    if (this.s.stage === 'saved') {
      return h('section', {class: 'panel saved', dataset: {testid: 'saved'}},
        h('h2', {}, t('comp.savedTitle')),
        this.breakdownTable(breakdown(sc)),
        h('p', {}, h('a', {href: `#/log/${this.s.savedId}`, dataset: {testid: 'saved-link'}}, t('comp.seeInLog'))),
        h('div', {class: 'form-actions'}, h('button', {type: 'button', class: 'btn primary', dataset: {testid: 'clock-reset'},
          onclick: () => this.reset()}, t('comp.newGame'))));
    }
    const out = h('div', {class: 'breakdown-live', 'aria-live': 'polite'}, this.breakdownTable(breakdown(sc)));
    // the total stays in sight while the form is filled on a phone (the breakdown is below it)
    const totalText = () => `${t('score.total')}: ${breakdown(sc).total}`;
    const bar = h('p', {class: 'total-bar', 'aria-hidden': 'true', dataset: {testid: 'total-bar'}}, totalText());
    const update = () => {
      this.save();
      mount(out, this.breakdownTable(breakdown(sc)));
      bar.textContent = totalText();
    };
    const stepper = (testid, label, get, set, max) => {
      const id = `st-${testid}`;
      const input = h('input', {id, type: 'number', min: 0, max, value: get(), inputmode: 'numeric',
        dataset: {testid: `${testid}-value`},
        onchange: (e) => {
          const n = Math.floor(Number(e.target.value));
          set(Number.isFinite(n) ? Math.max(0, Math.min(max, n)) : 0);
          e.target.value = get();
          update();
        }});
      const by = (d) => () => {
        set(Math.max(0, Math.min(max, get() + d)));
        input.value = get();
        update();
      };
      return h('div', {class: 'stepper', dataset: {testid}},
        h('label', {for: id}, label),
        h('div', {class: 'stepper-controls'},
          h('button', {type: 'button', class: 'btn step', 'aria-label': t('comp.less', {what: label}),
            dataset: {testid: `${testid}-minus`}, onclick: by(-1)}, '−'),
          input,
          h('button', {type: 'button', class: 'btn step', 'aria-label': t('comp.more', {what: label}),
            dataset: {testid: `${testid}-plus`}, onclick: by(1)}, '+')));
    };
    const bombs = (s.bomb_values || []).map((v) => stepper(`bombs-${v}`, t(v === 1 ? 'comp.bombsOne' : 'comp.bombsN', {v}),
      () => sc.bombs[v] || 0, (n) => { sc.bombs[v] = n; }, (s.max_bombs_by_value || {})[v] ?? 99));
    const names = [];
    for (let i = 0; i < s.players; i++) {
      const id = `name-${i}`;
      names.push(h('div', {class: 'field'}, h('label', {for: id}, t('comp.playerName', {n: i + 1})),
        h('input', {id, type: 'text', maxlength: 40, autocomplete: 'off', value: sc.names[i] || '',
          dataset: {testid: `score-name-${i}`},
          oninput: (e) => {
            sc.names[i] = e.target.value;
            this.save();
          }})));
    }
    const timeLine = sc.timeLeftMs === null ? t('comp.noClock') : t('comp.timeLeftLine', {time: mmss(sc.timeLeftMs)});
    return h('div', {class: 'comp-grid'},
      h('section', {class: 'panel'},
        h('h2', {}, t('comp.scoreTitle')),
        h('form', {class: 'score-form', dataset: {testid: 'score-form'}, onsubmit: (e) => {
          e.preventDefault();
          this.submit();
        }},
        h('fieldset', {class: 'result'},
          h('legend', {}, t('log.result')),
          h('label', {class: 'check-inline'}, h('input', {type: 'radio', name: 'won', checked: sc.won,
            dataset: {testid: 'score-won'}, onchange: () => { sc.won = true; update(); }}), ' ', t('log.won')),
          h('label', {class: 'check-inline'}, h('input', {type: 'radio', name: 'won', checked: !sc.won,
            dataset: {testid: 'score-lost'}, onchange: () => { sc.won = false; update(); }}), ' ', t('log.lost')),
          h('p', {class: 'muted small'}, timeLine)),
        h('fieldset', {}, h('legend', {}, t('comp.bombsTitle')), bombs),
        h('fieldset', {}, h('legend', {}, t('comp.othersTitle')),
          s.fuse_cards ? stepper('fuses', t('comp.fusesActivated'), () => sc.fuse_cards, (n) => { sc.fuse_cards = n; },
            s.fuse_cards) : h('p', {class: 'muted small'}, t('comp.noFusesScore')),
          s.sparks ? stepper('sparks', t('comp.sparksDefused'), () => sc.sparks, (n) => { sc.sparks = n; }, s.sparks) : null),
        h('fieldset', {}, h('legend', {}, t('comp.namesTitle')), h('div', {class: 'fields'}, names)),
        this.saveError ? h('p', {class: 'error', role: 'alert', dataset: {testid: 'save-error'}}, this.saveError) : null,
        bar,
        h('div', {class: 'form-actions'},
          h('button', {type: 'submit', class: 'btn primary big', disabled: this.saving, dataset: {testid: 'score-save'}},
            t('comp.save')),
          h('button', {type: 'button', class: 'btn', dataset: {testid: 'back-to-clock'}, onclick: () => {
            this.s.stage = this.s.clock.startedAt !== null ? 'clock' : 'setup';
            this.save();
            this.render();
          }}, t('comp.back'))))),
      h('section', {class: 'panel'}, h('h2', {}, t('comp.breakdownTitle')), out));
  }

  breakdownTable(b) {
    const row = (key, value, testid) => h('tr', {dataset: {testid}}, h('th', {scope: 'row'}, t(key)), h('td', {class: 'num'}, String(value)));
    return h('table', {class: 'data breakdown', dataset: {testid: 'breakdown'}},
      h('tbody', {},
        row('score.win', b.win, 'b-win'),
        row('score.time', b.time, 'b-time'),
        row('score.bombs', b.bombs, 'b-bombs'),
        row('score.fuses', b.fuses, 'b-fuses'),
        this.setup && this.setup.sparks ? row('score.sparks', b.sparks, 'b-sparks') : null,
        h('tr', {class: 'total', dataset: {testid: 'b-total'}}, h('th', {scope: 'row'}, t('score.total')),
          h('td', {class: 'num'}, h('b', {}, String(b.total))))));
  }

  async submit() {
    const sc = this.s.score;
    const bombs = {};
    for (const [v, n] of Object.entries(sc.bombs)) if (n) bombs[v] = n;
    const names = sc.names.slice(0, this.setup.players).map((n) => (n || '').trim());
    const body = {options: this.body(), won: sc.won, time_left_ms: sc.timeLeftMs, bombs,
      fuse_cards: sc.fuse_cards, sparks: sc.sparks, time_limit_s: Math.round(this.s.clock.lengthMs / 1000)};
    if (names.some(Boolean)) body.names = Array.from({length: this.setup.players}, (_, i) => names[i] || t('comp.playerName', {n: i + 1}));
    if (!sc.won && this.s.clock.result === 'timeup') body.reason = 'time-up';
    this.saving = true;
    this.saveError = null;
    this.render();
    try {
      const res = await api.saveTableGame(body);
      this.s.savedId = res.id;
      this.s.stage = 'saved';
      this.save();
      toast(t('comp.savedToast'), 'ok');
    } catch (e) {
      this.saveError = `${t('comp.saveFailed')} ${saveRefusal(e)}`;
    }
    this.saving = false;
    this.render();
    this.focusControl(this.s.stage === 'saved' ? 'saved-link' : 'score-save');
  }
}

/**
 * Why the BDT Log refused a score counted at the table, in the page's words: the server's line
 * names the field at fault first ("time_left_ms: ..."); a busy or away server says so as everywhere.
 */
function saveRefusal(e) {
  if (e.reason === 'rate_limited' || e.status === 503 || e.status === 429) return refusalWords(e);
  const field = String(e.message || '').split(/[:.]/)[0].trim();
  const key = {time_left_ms: 'time', time_bonus: 'time', names: 'names', bombs: 'bombs', fuse_cards: 'fuses',
    sparks: 'sparks', reason: 'result'}[field];
  return t(`comp.saveBad.${key || 'other'}`);
}
