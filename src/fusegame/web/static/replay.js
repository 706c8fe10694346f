// #/log/ID: a finished game step by step, drawn read-only with the play renderer.
import {h, mount, mmss} from './dom.js';
import {t} from './i18n.js';
import {api} from './api.js';
import {Table} from './table.js';
import {markPage, toast} from './ui.js';
import {scoreTable} from './play.js';
import {formatDate, timeLeft} from './log.js';
import {icon} from './icons.js';
import {actionWords, eventText, gameTitle} from './words.js';
import {markPaceChart, paceChart, paceSummary} from './pace.js';

/** Die `id` as `view` shows it (in the roll, left unused, on a card or as the penalty die). */
function findDieIn(view, id) {
  if (!view || id === null || id === undefined) return null;
  for (const d of [...(view.rolled || []), ...(view.unused || [])]) if (d.id === id) return d;
  for (const hand of view.hands || []) for (const c of hand.cards) for (const d of c.dice || []) if (d && d.id === id) return d;
  if (view.penalty_die && view.penalty_die.id === id) return view.penalty_die;
  return null;
}

/** The defused bomb cards a table counted, by value ("2 × 1 point, 1 × 3 points"). */
function bombsCounted(bombs) {
  const counted = Object.entries(bombs || {}).filter(([, n]) => n > 0);
  if (!counted.length) return null;
  return h('p', {dataset: {testid: 'bombs-counted'}}, h('b', {}, t('comp.bombsTitle')), ': ',
    counted.map(([v, n]) => `${n} × ${t(Number(v) === 1 ? 'replay.onePoint' : 'replay.points', {v})}`).join(', '));
}

export class ReplayPage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.entry = null;
    this.steps = [];
    this.pace = null; // the bombs taken against the pace line, where the game had a gauge
    this.step = 0;
    this.views = new Map();
    this.before = null;
    this.error = null;
    this.playing = null;
    this.table = new Table({interactive: false});
    api.logEntry(id).then(async (entry) => {
      if (this.gone) return; // the player has moved on to another page
      this.entry = entry;
      if (entry.table) { // played with the box: its score, and no moves to replay
        this.render();
        return;
      }
      const replay = await api.replay(id);
      if (this.gone) return;
      this.steps = replay.steps || [];
      this.pace = replay.pace || null;
      this.render();
      this.go(0);
    }).catch((e) => {
      this.error = e.message;
      this.render();
    });
  }

  get last() {
    return Math.max(0, this.steps.length - 1);
  }

  view(step) {
    if (!this.views.has(step)) {
      const p = api.replayStep(this.id, step).then((r) => r.view);
      p.catch(() => this.views.delete(step));
      this.views.set(step, p);
    }
    return this.views.get(step);
  }

  async go(step) {
    if (this.gone) return;
    step = Math.max(0, Math.min(this.last, step));
    this.step = step;
    this.before = null;
    this.renderStep();
    try {
      // a step without events is told from its action, whose dice the table before it names
      const needBefore = step > 0 && !((this.steps[step] || {}).events || []).length;
      const [view, before] = await Promise.all([this.view(step), needBefore ? this.view(step - 1) : null]);
      if (this.step !== step || this.gone) return; // the slider, or the player, has moved on
      this.before = before;
      this.renderStep();
      await this.table.update({view, moves: {place: [], actions: []}, hints: null, names: this.entry.names || []});
      this.root.dataset.step = String(step);
      // prefetch the next step so that stepping forward feels immediate
      if (step < this.last) this.view(step + 1).catch(() => { /* fetched again when needed */ });
    } catch (e) {
      toast(e.message);
    }
  }

  render() {
    markPage('replay');
    if (this.error) {
      mount(this.root, h('section', {class: 'panel narrow'}, h('h1', {}, t('replay.title')), h('p', {class: 'error'}, this.error),
        h('a', {class: 'btn', href: '#/log'}, t('replay.back'))));
      return;
    }
    if (!this.entry) {
      mount(this.root, h('p', {class: 'muted'}, t('loading')));
      return;
    }
    const e = this.entry;
    if (e.table) {
      mount(this.root, h('section', {class: 'panel narrow table-game', dataset: {testid: 'table-game'}},
        h('h1', {}, gameTitle(e.options || {game: e.game}, e.title || t(`game.${e.game}`)), ' ',
          h('span', {class: ['pill', e.won ? 'ok' : 'bad']}, e.won ? t('log.won') : t('log.lost'))),
        h('p', {}, h('span', {class: 'tag at-table'}, t('log.tableGame')), ' ', t('replay.tableNote')),
        h('p', {class: 'muted'}, formatDate(e.finished_at), ' · ', (e.names || []).join(', '), ' · ',
          t(`difficulty.${e.difficulty}`), ' · ', t('log.timeLeft'), ' ', timeLeft(e.time_left_ms)),
        bombsCounted(e.options && e.options.bombs),
        scoreTable(e.score),
        h('p', {}, h('a', {href: '#/log'}, '← ', t('replay.back')))));
      return;
    }
    this.slider = h('input', {type: 'range', min: 0, max: this.last, value: this.step, id: 'replay-slider',
      'aria-label': t('replay.step'), dataset: {testid: 'replay-slider'},
      oninput: (ev) => this.go(Number(ev.target.value))});
    this.stepInfo = h('div', {class: 'step-info', 'aria-live': 'polite', dataset: {testid: 'replay-step'}});
    const btn = (testid, label, aria, fn) => h('button', {type: 'button', class: 'btn small', dataset: {testid},
      'aria-label': aria, title: aria, onclick: fn}, label);
    this.playBtn = btn('replay-play', icon(this.playing ? 'pause' : 'play'), t('replay.play'), () => this.togglePlay());
    mount(this.root, h('div', {class: 'replay'},
      h('div', {class: 'replay-head panel'},
        h('div', {},
          h('h1', {}, gameTitle(e.options || {game: e.game}, e.title || t(`game.${e.game}`)), ' ', h('span', {class: ['pill', e.won ? 'ok' : 'bad']}, e.won ? t('log.won') : t('log.lost'))),
          h('p', {class: 'muted'}, formatDate(e.finished_at), ' · ', (e.names || []).join(', '), ' · ', t(`difficulty.${e.difficulty}`),
            ' · ', t('log.timeLeft'), ' ', timeLeft(e.time_left_ms)),
          h('a', {href: '#/log', class: 'small'}, '← ', t('replay.back'))),
        scoreTable(e.score)),
      h('div', {class: 'replay-controls panel'},
        btn('replay-first', icon('first'), t('replay.first'), () => this.go(0)),
        btn('replay-prev', icon('prev'), t('replay.prev'), () => this.go(this.step - 1)),
        this.playBtn,
        this.slider,
        btn('replay-next', icon('next'), t('replay.next'), () => this.go(this.step + 1)),
        btn('replay-last', icon('last'), t('replay.last'), () => this.go(this.last)),
        this.stepInfo),
      this.pace ? h('section', {class: 'replay-pace panel', 'aria-labelledby': 'pace-title'},
        h('h2', {id: 'pace-title', class: 'section-title'}, t('pace.title')),
        // drawn once; each step moves its mark (a tap on it goes to the first step at or after
        // the moment it points at)
        this.paceBox = paceChart(this.pace, this.endMs(), 0, (ms) => {
          const i = this.steps.findIndex((st) => (st.time_ms || 0) >= ms);
          this.go(i < 0 ? this.last : i);
        }),
        h('p', {class: 'muted small', dataset: {testid: 'pace-summary'}}, paceSummary(this.pace, this.endMs()))) : null,
      this.table.el));
    this.renderStep();
    if (this.table.view) this.table.update({});
  }

  /** The game's last moment: the time of its last step. */
  endMs() {
    return (this.steps[this.last] || {}).time_ms || 0;
  }

  renderStep() {
    if (!this.stepInfo) return;
    this.slider.value = String(this.step);
    const s = this.steps[this.step] || {};
    if (this.pace && this.paceBox) markPaceChart(this.paceBox, this.pace, s.time_ms ?? 0);
    const names = (this.entry && this.entry.names) || [];
    const nameOf = (seat) => names[seat] || t('player.n', {n: seat + 1});
    // the first event is what the step's action did, the rest followed from it; a step without
    // events is told from its action, whose dice the table before it shows
    const events = [...(s.events || [])];
    let what = t('replay.deal');
    if (this.step > 0 && events.length) {
      what = eventText(events.shift(), nameOf);
    } else if (this.step > 0 && s.act && s.act.verb === 'tick' && this.step < this.last) {
      what = t('replay.timePasses'); // a simulated game's turn: its time passes, the clock goes on
    } else if (this.step > 0 && s.act) {
      const words = actionWords(s.act, (id) => findDieIn(this.before, id));
      what = s.act.verb !== 'tick' && s.act.seat >= 0 ? `${nameOf(s.act.seat)}: ${words}` : words;
    }
    mount(this.stepInfo,
      h('div', {}, h('b', {}, t('replay.stepOf', {n: this.step, total: this.last})), ' · ',
        h('span', {class: 'step-action', dataset: {testid: 'step-action'}}, what),
        s.time_ms !== undefined && s.time_ms !== null ? h('span', {class: 'muted'}, ` @ ${mmss(s.time_ms)}`) : null),
      events.length ? h('ul', {class: 'step-events'}, events.map((ev) => h('li', {}, eventText(ev, nameOf)))) : null);
  }

  togglePlay() {
    if (this.playing) {
      clearInterval(this.playing);
      this.playing = null;
    } else {
      if (this.step >= this.last) this.go(0);
      this.playing = setInterval(() => {
        if (this.step >= this.last) this.togglePlay();
        else this.go(this.step + 1);
      }, 900);
    }
    if (this.playBtn) this.playBtn.replaceChildren(icon(this.playing ? 'pause' : 'play'));
  }

  handleKey(e) {
    if (!this.entry) return false;
    if (e.target && e.target.id === 'replay-slider') return false; // the slider moves itself
    if (e.key === 'ArrowLeft') this.go(this.step - 1);
    else if (e.key === 'ArrowRight') this.go(this.step + 1);
    else if (e.key === 'Home') this.go(0);
    else if (e.key === 'End') this.go(this.last);
    else return false;
    return true;
  }

  destroy() {
    if (this.playing) clearInterval(this.playing);
  }
}
