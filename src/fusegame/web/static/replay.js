// #/log/ID?step=N: a finished game step by step, drawn read-only with the play renderer.
//
// One screen: the table (every hand) sized to fit, the controls and the step's words beside it
// (under it on a phone), the pace picture under the controls, and a place kept for the game's
// review (review.js: its key moments, each a click from the step that shows it, where the time
// went and each player's figures). The address names the step shown, so that a moment of a game
// can be shared.
import {h, mount, mmss} from './dom.js';
import {t} from './i18n.js';
import {api} from './api.js';
import {Table, itemSize, packItems} from './table.js';
import {markPage, toast} from './ui.js';
import {normScore, scoreTable} from './play.js';
import {formatDate, timeLeft} from './log.js';
import {icon} from './icons.js';
import {actionWords, eventText, gameTitle} from './words.js';
import {markPaceChart, paceChart, paceSummary} from './pace.js';
import {followReview, markReviewStep, reviewNodes, workingWords} from './review.js';

/** The speeds of play: steps a second, at a fixed rate (not the recorded pace: a bot's game and a
 * long think would replay at very different speeds). */
export const SPEEDS = [1, 2, 4];
/** One step a second at 1×. */
export const STEP_MS = 1000;

/** The address of step `step` of the replay of game `id`. */
export function replayHash(id, step) {
  return `#/log/${encodeURIComponent(id)}?step=${step}`;
}

/** A step asked for in the address: a whole number, or 0 for anything else (clamped by `go`). */
export function askedStep(value) {
  const n = Number.parseInt(String(value ?? ''), 10);
  return Number.isFinite(n) ? n : 0;
}

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

const PHONE = '(max-width: 700px)';

export class ReplayPage {
  /** `query`: the address's parameters ({step}). */
  constructor(root, id, query = {}) {
    this.root = root;
    this.id = id;
    this.entry = null;
    this.steps = [];
    this.pace = null; // the bombs taken against the pace line, where the game had a gauge
    this.step = query.step !== undefined ? askedStep(query.step) : 0;
    this.views = new Map();
    this.before = null;
    this.error = null;
    this.playing = null; // the timer of the next step while playing
    this.speed = 1;
    this.loaded = false; // the game's steps are here
    this.fitSig = null;
    this.review = null; // the game's review: {status: 'working' | 'ready' | 'failed' | 'unavailable', ...}
    this.table = new Table({interactive: false});
    this.onResize = () => {
      clearTimeout(this.resizeTimer);
      this.resizeTimer = setTimeout(() => {
        this.fit();
        this.markMore();
      }, 120);
    };
    window.addEventListener('resize', this.onResize);
    api.logEntry(id).then(async (entry) => {
      if (this.gone) return; // the player has moved on to another page
      this.entry = entry;
      if (entry.table) { // played with the box: its score, and no moves to replay
        this.render();
        return;
      }
      this.loadReview();
      const replay = await api.replay(id);
      if (this.gone) return;
      this.steps = replay.steps || [];
      this.pace = replay.pace || null;
      this.loaded = true;
      this.render();
      this.go(this.step);
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

  /** The address asked for another step of this game (typed, or a link followed). */
  goTo(query = {}) {
    if (this.loaded) this.go(askedStep(query.step));
    else this.step = askedStep(query.step); // shown once the game is loaded
  }

  /** Show step `step` (clamped to the game's steps); resolves once the table shows it. */
  async go(step) {
    if (this.gone) return;
    step = Math.max(0, Math.min(this.last, Number.isFinite(step) ? step : 0));
    this.step = step;
    this.before = null;
    this.renderStep();
    this.writeAddress();
    try {
      // a step without events is told from its action, whose dice the table before it names
      const needBefore = step > 0 && !((this.steps[step] || {}).events || []).length;
      const [view, before] = await Promise.all([this.view(step), needBefore ? this.view(step - 1) : null]);
      if (this.step !== step || this.gone) return; // the slider, or the player, has moved on
      this.before = before;
      this.renderStep();
      await this.table.update({view, moves: {place: [], actions: []}, hints: null, names: this.entry.names || []});
      if (this.step !== step || this.gone) return;
      this.fit();
      this.root.dataset.step = String(step);
      // prefetch the next step so that stepping forward feels immediate
      if (step < this.last) this.view(step + 1).catch(() => { /* fetched again when needed */ });
    } catch (e) {
      toast(e.message);
    }
  }

  /** The step shown, in the address (replaced, never pushed: moving through a game is not history). */
  writeAddress() {
    const want = replayHash(this.id, this.step);
    if (location.hash !== want) history.replaceState(history.state, '', want);
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
    const meta = [formatDate(e.finished_at), (e.names || []).join(', '), t(`difficulty.${e.difficulty}`),
      `${t('log.timeLeft')} ${timeLeft(e.time_left_ms)}`].join(' · ');
    this.boardEl = h('div', {class: 'replay-board'}, this.table.el);
    this.stepInfo = h('div', {class: 'step-info', 'aria-live': 'polite', dataset: {testid: 'replay-step'}});
    this.wordsEl = h('section', {class: 'replay-words panel', 'aria-label': t('replay.words')}, this.stepInfo);
    this.paceBox = null;
    mount(this.root, h('div', {class: 'replay'},
      h('div', {class: 'replay-head'},
        h('a', {href: '#/log', class: 'replay-back', title: t('replay.back'), 'aria-label': t('replay.back')}, '←'),
        h('h1', {}, gameTitle(e.options || {game: e.game}, e.title || t(`game.${e.game}`))),
        h('span', {class: ['pill', e.won ? 'ok' : 'bad']}, e.won ? t('log.won') : t('log.lost')),
        h('span', {class: 'replay-meta muted small', title: meta}, meta),
        // the score in one line; its breakdown and the game's facts one click away
        h('details', {class: 'replay-score', dataset: {testid: 'replay-score'}},
          h('summary', {}, h('span', {class: 'score-long'}, t('replay.finalScore')),
            h('span', {class: 'score-short'}, t('score.total')), ' ', h('b', {}, normScore(e.score).total)),
          h('div', {class: 'score-pop panel'}, h('p', {class: 'muted small'}, meta), scoreTable(e.score)))),
      h('div', {class: 'replay-stage'},
        this.boardEl,
        h('div', {class: 'replay-side'},
          this.renderControls(),
          this.wordsEl,
          this.renderPace(),
          // the game's review: hidden until there is something to say
          this.reviewEl = h('section', {class: 'review-panel panel', hidden: true, 'aria-label': t('review.title'),
            dataset: {testid: 'review-panel'}})))));
    this.showReview();
    this.renderStep();
    this.fitSig = null;
    if (this.table.view) this.table.update({}).then(() => this.fit());
  }

  /** The buttons, the speed and the slider. */
  renderControls() {
    this.slider = h('input', {type: 'range', min: 0, max: this.last, value: this.step, id: 'replay-slider',
      'aria-label': t('replay.step'), dataset: {testid: 'replay-slider'},
      oninput: (ev) => this.go(Number(ev.target.value))});
    const btn = (testid, name, label, fn) => h('button', {type: 'button', class: 'btn small', dataset: {testid},
      'aria-label': label, title: label, onclick: fn}, icon(name));
    this.playBtn = h('button', {type: 'button', class: 'btn small play-btn', dataset: {testid: 'replay-play'},
      'aria-label': t('replay.play'), 'aria-pressed': this.playing ? 'true' : 'false',
      title: t('replay.playHelp'), onclick: () => this.togglePlay()}, icon(this.playing ? 'pause' : 'play'));
    this.speedBtns = SPEEDS.map((n) => h('button', {type: 'button', class: 'btn small speed',
      'aria-pressed': n === this.speed ? 'true' : 'false', title: t('replay.speedHelp', {n}),
      dataset: {testid: `replay-speed-${n}`}, onclick: () => this.setSpeed(n)}, t('replay.speed', {n})));
    return h('section', {class: 'replay-controls panel', 'aria-label': t('replay.controls')},
      h('div', {class: 'replay-buttons'},
        btn('replay-first', 'first', t('replay.first'), () => this.go(0)),
        btn('replay-prev', 'prev', t('replay.prev'), () => this.go(this.step - 1)),
        this.playBtn,
        btn('replay-next', 'next', t('replay.next'), () => this.go(this.step + 1)),
        btn('replay-last', 'last', t('replay.last'), () => this.go(this.last)),
        h('div', {class: 'speeds', role: 'group', 'aria-label': t('replay.speedTitle'), title: t('replay.playHelp')},
          this.speedBtns)),
      this.slider,
      h('p', {class: 'replay-keys muted small'}, t('replay.keys')));
  }

  /** The bombs taken against the pace line, where the game had a gauge: a tap goes to that moment. */
  renderPace() {
    if (!this.pace) return null;
    // drawn once; each step moves its mark (a tap on it goes to the first step at or after the
    // moment it points at)
    this.paceBox = paceChart(this.pace, this.endMs(), 0, (ms) => {
      const i = this.steps.findIndex((st) => (st.time_ms || 0) >= ms);
      this.go(i < 0 ? this.last : i);
    });
    return h('section', {class: 'replay-pace panel', 'aria-labelledby': 'pace-title'},
      h('h2', {id: 'pace-title', class: 'section-title'}, t('pace.title')),
      this.paceBox,
      h('p', {class: 'muted small', dataset: {testid: 'pace-summary'}}, paceSummary(this.pace, this.endMs())));
  }

  /** The game's last moment: the time of its last step. */
  endMs() {
    return (this.steps[this.last] || {}).time_ms || 0;
  }

  renderStep() {
    if (!this.stepInfo) return;
    this.slider.value = String(this.step);
    this.slider.setAttribute('aria-valuetext', t('replay.stepOf', {n: this.step, total: this.last}));
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
    const time = s.time_ms !== undefined && s.time_ms !== null;
    mount(this.stepInfo,
      h('div', {class: 'step-head'}, h('b', {}, t('replay.stepOf', {n: this.step, total: this.last})),
        time ? h('span', {class: 'muted'}, t('replay.played', {time: mmss(s.time_ms)})) : null),
      h('p', {class: 'step-what'}, h('span', {class: 'step-action', dataset: {testid: 'step-action'}}, what)),
      events.length ? h('ul', {class: 'step-events'}, events.map((ev) => h('li', {}, eventText(ev, nameOf)))) : null);
    const box = this.wordsEl;
    if (box) box.classList.toggle('more', box.scrollHeight > box.clientHeight + 1);
    markReviewStep(this.reviewEl, this.step);
  }

  // ------------------------------------------------------------------ play
  setSpeed(n) {
    this.speed = n;
    for (const [i, b] of (this.speedBtns || []).entries()) b.setAttribute('aria-pressed', SPEEDS[i] === n ? 'true' : 'false');
    if (this.playing) this.schedule();
  }

  /** The next step in 1 s / speed, counted from the last one shown (a slow answer is not made up for). */
  schedule() {
    clearTimeout(this.playing);
    this.playing = setTimeout(async () => {
      if (this.gone || !this.playing) return;
      if (this.step >= this.last) {
        this.togglePlay();
        return;
      }
      await this.go(this.step + 1);
      if (this.playing) this.schedule();
    }, STEP_MS / this.speed);
  }

  togglePlay() {
    if (this.playing) {
      clearTimeout(this.playing);
      this.playing = null;
    } else {
      if (this.step >= this.last) this.go(0);
      this.playing = -1; // set before the first step, so that the button says "pause" at once
      this.schedule();
    }
    if (this.playBtn) {
      this.playBtn.replaceChildren(icon(this.playing ? 'pause' : 'play'));
      this.playBtn.setAttribute('aria-pressed', this.playing ? 'true' : 'false');
    }
    if (this.root) this.root.dataset.playing = this.playing ? 'true' : 'false';
  }

  handleKey(e) {
    if (!this.loaded) return false;
    if (e.target && e.target.id === 'replay-slider') return false; // the slider moves itself
    if (e.key === 'ArrowLeft') this.go(this.step - 1);
    else if (e.key === 'ArrowRight') this.go(this.step + 1);
    else if (e.key === 'Home') this.go(0);
    else if (e.key === 'End') this.go(this.last);
    else if (e.key === ' ' && !(e.target && e.target.closest && e.target.closest('button, a, summary'))) this.togglePlay();
    else return false;
    return true;
  }

  // ------------------------------------------------------------------- fit
  /**
   * The largest cards with which the whole table (the roll, the row or stacks, every hand) fits
   * its place on the screen. Every hand is drawn at the row's size: nobody's hand is "one's own"
   * in a replay. A size that still fits is kept while the cards change, unless a size a good deal
   * larger now fits too, so the cards do not jump at every step.
   */
  fit() {
    const box = this.boardEl;
    if (!box || !box.isConnected || !this.table.view) return;
    const top = document.getElementById('top');
    if (top) document.documentElement.style.setProperty('--header-h', `${top.offsetHeight}px`);
    const phone = window.matchMedia(PHONE).matches;
    if (phone) {
      // the board, its words and the controls make one screen: the board gets what the others leave
      const below = this.wordsEl.offsetHeight + this.root.querySelector('.replay-controls').offsetHeight;
      const gap = parseFloat(getComputedStyle(box.parentElement).rowGap) || 0;
      const boxTop = box.getBoundingClientRect().top + window.scrollY;
      box.style.height = `${Math.max(240, Math.floor(innerHeight - boxTop - below - 2 * gap - 6))}px`;
    } else box.style.height = '';
    const cards = [...this.table.el.querySelectorAll('.card-wrap')].map((w) => w.dataset.card).sort().join();
    const sig = [innerWidth, innerHeight, box.clientWidth, box.clientHeight, cards].join('|');
    if (sig === this.fitSig) return;
    this.fitSig = sig;
    const scroll = box.scrollTop;
    box.scrollTop = 0;
    const biggest = Math.max(30, Math.round(innerHeight / (phone ? 22 : 17)));
    const now = this.layout ? this.layout.die : 0;
    let found = null;
    if (now && this.tryDie(now) && !this.tryDie(Math.min(biggest, now * 1.15))) found = this.tryDie(now);
    else {
      let lo = 8;
      let hi = biggest;
      found = this.tryDie(hi);
      if (found) lo = hi;
      while (hi - lo > 0.5) {
        const mid = Math.round((lo + hi) * 2) / 4; // half pixels
        const ok = this.tryDie(mid);
        if (ok) {
          lo = mid;
          found = ok;
        } else hi = mid;
      }
      if (!found) found = {die: lo, mate: lo, limit: 0, mateLimit: 0};
    }
    this.draw(found);
    box.scrollTop = scroll;
  }

  /**
   * The first way to pack the cards at slot size `die` with which everything fits in the board's
   * box, or null: each hand's and the row's cards in columns as tall as their tallest card, or
   * as the table's tallest card (short cards stand under each other beside a tall one), or taller.
   */
  tryDie(die) {
    let tallest = 0;
    for (const cards of this.table.el.querySelectorAll('.cards[data-pack]')) {
      const mate = cards.dataset.pack === 'mate';
      for (const el of packItems(cards)) tallest = Math.max(tallest, itemSize(el, die, mate)[1]);
    }
    for (const limit of [0, tallest, tallest * 1.5]) {
      const layout = {die, mate: die, limit, mateLimit: limit};
      if (this.draw(layout)) return layout;
    }
    return null;
  }

  /** Draw the cards at `layout`; does everything fit in the board's box? */
  draw(layout) {
    const box = this.boardEl;
    this.layout = layout;
    box.style.setProperty('--die', `${layout.die}px`);
    box.style.setProperty('--die-mate', `${layout.mate}px`);
    this.table.pack(layout);
    const r = box.getBoundingClientRect();
    return [...this.table.el.querySelectorAll('.card-wrap, .hand, .middle, .roll, .info')].every((el) => {
      const b = el.getBoundingClientRect();
      return b.width === 0 || (b.left >= r.left - 1 && b.right <= r.right + 1 && b.top >= r.top - 1 && b.bottom <= r.bottom + 1);
    });
  }

  // ---------------------------------------------------------------- review
  /** Ask for the game's review (the server makes it in a worker: "working" meanwhile). */
  loadReview() {
    followReview(this.id, () => this.gone, (r) => {
      this.review = r;
      this.showReview();
    });
  }

  /** The review as it stands, in its place (drawn again with the page, in the page's language). */
  showReview() {
    const r = this.review;
    if (!r || !this.reviewEl) return;
    const line = (testid, text) => h('p', {class: 'muted small review-line', role: 'status', dataset: {testid}}, text);
    if (r.status === 'working') {
      this.setReview(h('h2', {id: 'review-title', class: 'section-title'}, t('review.title')),
        line('review-working', [h('span', {class: 'spinner', 'aria-hidden': 'true'}), workingWords(r)]));
    } else if (r.status === 'ready') {
      this.setReview(...reviewNodes(r.review, {names: (this.entry && this.entry.names) || [],
        hrefOf: (step) => replayHash(this.id, step), go: (step) => this.showMoment(step)}));
      markReviewStep(this.reviewEl, this.step);
    } else if (r.status === 'unavailable') {
      this.setReview(line('review-unavailable', t('review.unavailable')));
    } else {
      this.setReview(line('review-failed', t('review.failed', {error: r.error || ''})));
    }
  }

  /** A moment or a roll of the review clicked: the table shows it (on a phone, scrolled back to it). */
  showMoment(step) {
    if (this.playing) this.togglePlay();
    if (window.matchMedia(PHONE).matches) window.scrollTo(0, 0);
    return this.go(step);
  }

  /** Show `nodes` in the review's place (an empty list hides it again). */
  setReview(...nodes) {
    if (!this.reviewEl) return;
    mount(this.reviewEl, ...nodes);
    this.reviewEl.hidden = !this.reviewEl.childNodes.length;
    this.markMore();
  }

  /** A review that goes on past its box fades out at its foot until it is scrolled to its end. */
  markMore() {
    const box = this.reviewEl;
    if (!box) return;
    if (!box.dataset.watched) {
      box.dataset.watched = 'true';
      box.addEventListener('scroll', () => this.markMore(), {passive: true});
      box.addEventListener('toggle', () => this.markMore(), true); // roll by roll opened or closed
    }
    box.classList.toggle('more', box.scrollTop + box.clientHeight < box.scrollHeight - 2);
  }

  destroy() {
    clearTimeout(this.playing);
    this.playing = null;
    clearTimeout(this.resizeTimer);
    window.removeEventListener('resize', this.onResize);
  }
}
