// #/tutorial: lessons on a real table; the server judges each try.
import {h, mount} from './dom.js';
import {t, getLang} from './i18n.js';
import {api} from './api.js';
import {Table} from './table.js';
import {markPage, toast} from './ui.js';
import {play} from './sound.js';
import {eventText} from './words.js';

export class TutorialPage {
  constructor(root) {
    this.root = root;
    this.lessons = null;
    this.index = 0;
    this.lang = null;
    this.error = null;
    this.table = new Table({interactive: true, send: (a) => this.attempt(a)});
    this.load();
  }

  async load() {
    this.lang = getLang();
    try {
      const res = await api.tutorial(this.lang);
      const first = this.lessons === null;
      this.lessons = res.lessons || [];
      this.error = null;
      // a language switch only changes the words: the lesson and the progress in it stay
      if (first || !this.current) {
        this.index = 0;
        this.reset();
      }
    } catch (e) {
      this.error = e.message;
    }
    this.render();
  }

  get lesson() {
    return this.lessons ? this.lessons[this.index] : null;
  }

  reset() {
    const l = this.lesson;
    this.ok = false;
    this.message = null;
    this.events = [];
    this.busy = false;
    if (l) this.current = {view: l.view, moves: l.moves || {place: [], actions: []}};
    this.table.interactive = true;
  }

  async attempt(action) {
    const l = this.lesson;
    if (!l || this.busy) return;
    this.busy = true;
    try {
      const res = await api.tryLesson(l.id, action, getLang());
      this.message = res.message || '';
      this.events = res.events || [];
      // every try is judged from the lesson's position: after a miss the table stays there; after
      // the right move it shows the result, read-only
      if (res.ok) {
        this.ok = true;
        if (res.view) this.current = {view: res.view, moves: {place: [], actions: []}};
        this.table.interactive = false; // solved: the table only shows the result, it asks for nothing
      }
      play(res.ok ? 'defuse' : 'error');
    } catch (e) {
      toast(e.message);
    }
    this.busy = false;
    this.renderLesson();
    // the verdict is written above the table, where the move was not: bring it into view
    const said = this.lessonEl && this.lessonEl.querySelector('[data-testid="tutorial-message"]');
    if (said) {
      const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      said.scrollIntoView({block: 'nearest', behavior: smooth ? 'smooth' : 'auto'});
    }
  }

  go(i) {
    if (!this.lessons) return;
    this.index = Math.max(0, Math.min(this.lessons.length - 1, i));
    this.reset();
    this.render();
  }

  render() {
    markPage('tutorial');
    if (this.lang !== getLang() && this.lessons !== null) {
      this.load(); // the lessons' text comes from the server in the chosen language
      return;
    }
    if (this.error) {
      mount(this.root, h('section', {class: 'panel narrow'}, h('h1', {}, t('tutorial.title')), h('p', {class: 'error'}, this.error)));
      return;
    }
    if (!this.lessons) {
      mount(this.root, h('p', {class: 'muted'}, t('loading')));
      return;
    }
    this.lessonEl = h('div', {class: 'lesson'});
    mount(this.root, h('div', {class: 'tutorial'},
      h('nav', {class: 'panel lessons', 'aria-label': t('tutorial.lessons')},
        h('h2', {}, t('tutorial.title')),
        // the number beside the title's first line, however the title wraps
        h('ol', {}, this.lessons.map((l, i) => h('li', {},
          h('button', {type: 'button', class: ['link-btn', 'lesson-link', i === this.index ? 'current' : ''],
            'aria-current': i === this.index ? 'step' : null, dataset: {testid: `lesson-${i}`},
            onclick: () => this.go(i)}, h('span', {class: 'lesson-num', 'aria-hidden': 'true'}, `${i + 1}.`),
          h('span', {class: 'lesson-name'}, l.title)))))),
      this.lessonEl));
    this.renderLesson();
  }

  renderLesson() {
    const l = this.lesson;
    if (!this.lessonEl) return;
    if (!l) {
      mount(this.lessonEl, h('p', {class: 'muted'}, t('tutorial.none')));
      return;
    }
    const last = this.index >= this.lessons.length - 1;
    mount(this.lessonEl,
      h('section', {class: 'panel lesson-text'},
        h('p', {class: 'muted small'}, t('tutorial.lessonN', {n: this.index + 1, total: this.lessons.length})),
        h('h1', {dataset: {testid: 'lesson-title'}}, l.title),
        h('div', {class: 'lesson-body'}, String(l.text || '').split(/\n{2,}/).map((p) => h('p', {}, p))),
        l.goal ? h('p', {class: 'goal'}, h('b', {}, t('tutorial.goal')), ' ', l.goal) : null,
        this.message !== null ? h('div', {class: ['notice', this.ok ? 'ok' : 'warn'], role: 'status',
          dataset: {testid: 'tutorial-message', ok: this.ok ? 'true' : 'false'}}, this.message,
          // the table asks for nothing once the lesson is solved: this says where to go instead
          this.ok ? h('b', {class: 'lesson-solved', dataset: {testid: 'lesson-solved'}},
            t(last ? 'tutorial.allSolved' : 'tutorial.solved')) : null) : null,
        this.events.length ? h('ul', {class: 'step-events'},
          this.events.map((ev) => h('li', {}, eventText(ev, (seat) => t('player.n', {n: seat + 1}))))) : null,
        h('div', {class: 'lesson-nav'},
          h('button', {type: 'button', class: 'btn', disabled: this.index === 0, dataset: {testid: 'prev-lesson'},
            onclick: () => this.go(this.index - 1)}, t('tutorial.prev')),
          h('button', {type: 'button', class: 'btn ghost', dataset: {testid: 'reset-lesson'},
            onclick: () => { this.reset(); this.renderLesson(); }}, t('tutorial.reset')),
          last && this.ok ? h('a', {class: 'btn primary', href: '#/', dataset: {testid: 'tutorial-finish'}}, t('tutorial.finish'))
            : h('button', {type: 'button', class: 'btn primary', disabled: !this.ok || last, dataset: {testid: 'tutorial-next'},
              onclick: () => this.go(this.index + 1)}, t('tutorial.next')))),
      this.table.el);
    // the game's bar (clock, bag, deck...) only in the lessons that are about it
    this.table.el.classList.toggle('no-info', !l.info);
    // the lessons are played from the first seat, by the learner (not "Player 1")
    this.table.update({view: this.current.view, moves: this.current.moves, hints: null,
      names: [t('tutorial.learner')], seat: this.current.view.seat ?? 0});
  }

  handleKey(e) {
    if (e.key === 'Enter' && e.target && e.target.closest && e.target.closest('button, a')) return false;
    return this.table.handleKey(e);
  }

  destroy() {}
}
