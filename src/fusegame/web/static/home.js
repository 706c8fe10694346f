// Home: create a room with every option the server offers, or join one with its code.
import {h, mount} from './dom.js';
import {t, tOr} from './i18n.js';
import {api} from './api.js';
import {toast, markPage} from './ui.js';
import {refusalWords} from './words.js';
import {savedName, saveName} from './lobby.js';
import {setToken} from './net.js';

const OPTIONS_KEY = 'fuse.options';
/** Set for a room made by "Play now": once seated there, the page fills the seats with bots and is ready. */
export const quickKey = (code) => `fuse.quick.${code}`;

/** The options chosen last time (never the seed: a chosen deal is for one game). */
function lastOptions() {
  try {
    const saved = JSON.parse(localStorage.getItem(OPTIONS_KEY) || 'null');
    return saved && typeof saved === 'object' ? saved : {};
  } catch {
    return {};
  }
}

function rememberOptions(f) {
  try {
    const {seed, ...rest} = f;
    localStorage.setItem(OPTIONS_KEY, JSON.stringify(rest));
  } catch {
    /* not remembered */
  }
}

/** Options come as ["fuse", ...] or [{id, title}, ...]: always [{id, label}]. */
function list(items, prefix) {
  if (!items) return [];
  if (!Array.isArray(items)) items = Object.keys(items);
  return items.map((x) => {
    const id = typeof x === 'object' ? (x.id ?? x.value ?? x.name) : x;
    const fallback = typeof x === 'object' ? (x.title ?? x.label ?? x.name ?? id) : id;
    return {id: String(id), label: tOr(`${prefix}.${id}`, fallback)};
  });
}

/** The players range for a game: [min, max] from [1, 5], {min, max} or a list. */
function range(players, game) {
  const r = players && (players[game] ?? players);
  if (Array.isArray(r) && r.length === 2 && r.every(Number.isInteger)) return [r[0], r[1]];
  if (Array.isArray(r) && r.length) return [Math.min(...r), Math.max(...r)];
  if (r && typeof r === 'object' && 'min' in r) return [r.min, r.max];
  return [1, 5];
}

export class HomePage {
  constructor(root) {
    this.root = root;
    this.options = null;
    this.error = null;
    this.form = null; // the values chosen so far survive a language switch
    api.options().then((o) => {
      this.options = o;
      const d = o.defaults || {};
      // fuse_cards starts empty, the game's own default: it differs between FUSE and Countdown
      this.form = {game: d.game ?? 'fuse', players: d.players ?? 4, difficulty: d.difficulty ?? 'standard',
        modules: [...(d.modules || [])], setup: d.setup ?? 'standard', six_point_cards: Boolean(d.six_point_cards),
        fuse_cards: null, strict_fuse: Boolean(d.strict_fuse), timed: d.timed ?? true,
        hints: Boolean(d.hints), bot_delay_ms: d.bot_delay_ms ?? 1500, seed: null};
      // last time's choices, where they are still choices this server offers
      for (const [k, v] of Object.entries(lastOptions())) {
        if (k in this.form && v !== undefined && typeof v === typeof this.form[k]) this.form[k] = v;
        else if (k === 'fuse_cards' && (v === null || Number.isInteger(v))) this.form[k] = v;
      }
      this.render();
    }).catch((e) => {
      this.error = e.message;
      this.render();
    });
  }

  render() {
    markPage('home');
    mount(this.root, h('div', {class: 'home'},
      h('section', {class: 'hero'},
        h('h1', {}, t('home.title')),
        h('p', {class: 'lead'}, t('home.lead'))),
      this.renderQuick(),
      h('div', {class: 'home-grid'},
        h('section', {class: 'panel create'},
          h('details', {class: 'more-options', open: this.moreOpen || null, dataset: {testid: 'more-options'},
            ontoggle: (e) => { this.moreOpen = e.target.open; }},
          h('summary', {}, h('h2', {}, t('home.moreOptions'))),
          h('p', {class: 'muted small'}, t('home.moreOptionsHelp')),
          this.renderForm())),
        h('div', {class: 'side'},
          this.renderJoin(),
          h('section', {class: 'panel links'},
            h('h2', {}, t('home.more')),
            h('ul', {class: 'link-list'},
              h('li', {}, h('a', {href: '#/tutorial', dataset: {testid: 'link-tutorial'}}, t('home.tutorial')),
                h('span', {class: 'muted small'}, ' — ', t('home.tutorialWhy'))),
              h('li', {}, h('a', {href: '#/computer', dataset: {testid: 'link-computer'}}, t('home.computer')),
                h('span', {class: 'muted small'}, ' — ', t('home.computerWhy'))),
              h('li', {}, h('a', {href: '#/log', dataset: {testid: 'link-log'}}, t('home.log')),
                h('span', {class: 'muted small'}, ' — ', t('home.logWhy'))),
              h('li', {}, h('a', {href: '/cards', target: '_blank', rel: 'noopener', dataset: {testid: 'link-cards'}},
                t('home.cards')), h('span', {class: 'muted small'}, ' — ', t('home.cardsWhy')))))))));
  }

  /** The two one-click starts: alone with bots at once, or a room to share with friends. */
  renderQuick() {
    const f = this.form;
    const ready = Boolean(f);
    const summary = f ? [t(`game.${f.game}`), t(`difficulty.${f.difficulty}`), t('lobby.playersN', {n: f.players})].join(' · ') : '';
    // the name the table and the log will call you, asked once and remembered (the lobby's too)
    this.nameInput = h('input', {type: 'text', id: 'quick-name', maxlength: '24', autocomplete: 'nickname',
      value: savedName(), placeholder: t('home.defaultName'), dataset: {testid: 'quick-name'},
      onchange: (e) => { if (e.target.value.trim()) saveName(e.target.value.trim()); }});
    return h('section', {class: 'quick', 'aria-label': t('home.quick')},
      h('div', {class: 'quick-name'}, h('label', {for: 'quick-name'}, t('home.yourName')), this.nameInput),
      h('button', {type: 'button', class: 'btn primary big quick-btn', disabled: !ready, dataset: {testid: 'play-now'},
        onclick: (e) => this.quick(e.currentTarget, true)},
      h('span', {class: 'quick-title'}, t('home.playNow')), h('span', {class: 'quick-sub'}, t('home.playNowSub'))),
      h('button', {type: 'button', class: 'btn big quick-btn', disabled: !ready, dataset: {testid: 'play-friends'},
        onclick: (e) => this.quick(e.currentTarget, false)},
      h('span', {class: 'quick-title'}, t('home.playFriends')), h('span', {class: 'quick-sub'}, t('home.playFriendsSub'))),
      f ? h('p', {class: 'muted small quick-note', dataset: {testid: 'quick-summary'}}, summary) : null);
  }

  /** Create a room with the remembered options; `alone`: sit down, give the other seats to bots, start. */
  async quick(button, alone) {
    button.disabled = true;
    try {
      const res = await api.createRoom(this.body());
      rememberOptions(this.form);
      if (alone) {
        const typed = this.nameInput ? this.nameInput.value.trim() : '';
        if (typed) saveName(typed);
        const seat = await api.join(res.code, typed || savedName() || t('home.defaultName'), null);
        setToken(res.code, seat.token);
        try {
          sessionStorage.setItem(quickKey(res.code), '1');
        } catch {
          /* the lobby's buttons do it by hand */
        }
      }
      location.hash = `#/room/${res.code}`;
    } catch (err) {
      toast(`${t('home.createFailed')} ${err.reason ? refusalWords(err) : err.message}`);
      button.disabled = false;
    }
  }

  renderJoin() {
    const input = h('input', {id: 'join-code', type: 'text', autocomplete: 'off', spellcheck: 'false', maxlength: 20,
      placeholder: 'ABCD EFGH JKMN', class: 'code-input', dataset: {testid: 'join-code'}});
    const go = (e) => {
      e.preventDefault();
      const code = input.value.trim().toUpperCase().replace(/[^A-Z0-9]/g, '');
      if (!code) {
        toast(t('home.codeMissing'));
        input.focus();
        return;
      }
      location.hash = `#/room/${code}`;
    };
    return h('section', {class: 'panel join'},
      h('h2', {}, t('home.joinTitle')),
      h('form', {class: 'inline-form', onsubmit: go},
        h('label', {for: 'join-code', class: 'sr-only'}, t('home.code')), input,
        h('button', {type: 'submit', class: 'btn', dataset: {testid: 'join-code-button'}}, t('home.joinGo'))));
  }

  renderForm() {
    if (this.error) return h('p', {class: 'error'}, t('home.optionsFailed'), ' ', this.error);
    if (!this.options) return h('p', {class: 'muted'}, t('loading'));
    const o = this.options;
    const f = this.form;
    const games = list(o.games, 'game');
    const [pmin, pmax] = range(o.players, f.game);
    f.players = Math.min(pmax, Math.max(pmin, f.players));
    let diffs = o.difficulties;
    if (diffs && !Array.isArray(diffs) && diffs[f.game]) diffs = diffs[f.game];
    // Insane and Heroic are one level: FUSE calls it Insane, the Countdown games Heroic
    const top = f.game === 'fuse' ? 'heroic' : 'insane';
    const difficulties = list(diffs, 'difficulty').filter((d) => d.id !== top);
    if (f.difficulty === top) f.difficulty = top === 'heroic' ? 'insane' : 'heroic';
    const setups = list(o.setups, 'setup');
    // the fuse card counts this game allows at this difficulty; a choice outside them goes back to
    // the game's default
    const fuses = ((o.fuse_cards || {})[f.game] || {})[f.difficulty] || {min: 0, max: 20};
    if (f.fuse_cards !== null && (f.fuse_cards < fuses.min || f.fuse_cards > fuses.max)) f.fuse_cards = null;
    const modules = list(o.modules, 'module');
    const field = (id, label, control, help) => h('div', {class: 'field'},
      h('label', {for: id}, label), control, help ? h('div', {class: 'help-text'}, help) : null);
    const select = (id, items, value, onchange) => h('select', {id, name: id, dataset: {testid: `opt-${id}`},
      onchange: (e) => onchange(e.target.value)},
    items.map((it) => h('option', {value: it.id, selected: it.id === String(value)}, it.label)));
    const check = (id, label, key, help) => h('div', {class: 'field check'},
      h('input', {id, type: 'checkbox', checked: f[key], dataset: {testid: `opt-${id}`},
        onchange: (e) => { f[key] = e.target.checked; }}),
      h('label', {for: id}, label), help ? h('div', {class: 'help-text'}, help) : null);

    const delay = h('output', {id: 'delay-out', for: 'bot_delay'}, t('home.seconds', {s: (f.bot_delay_ms / 1000).toFixed(1)}));
    const submit = h('button', {type: 'submit', class: 'btn primary big', dataset: {testid: 'create-game'}}, t('home.createGo'));
    const form = h('form', {class: 'options', onsubmit: (e) => this.create(e, submit)},
      h('div', {class: 'fields'},
        field('game', t('opt.game'), select('game', games, f.game, (v) => { f.game = v; this.render(); })),
        field('players', t('opt.players'), h('input', {id: 'players', type: 'number', min: pmin, max: pmax, step: 1,
          value: f.players, required: true, dataset: {testid: 'opt-players'},
          oninput: (e) => {
            const n = Number(e.target.value);
            if (Number.isInteger(n) && n >= pmin && n <= pmax) f.players = n;
          }}), t('opt.playersRange', {min: pmin, max: pmax})),
        field('difficulty', t('opt.difficulty'), select('difficulty', difficulties, f.difficulty,
          (v) => { f.difficulty = v; this.render(); })),
        field('setup', t('opt.setup'), select('setup', setups, f.setup, (v) => { f.setup = v; }), t('opt.setupHelp'))),
      f.game === 'fuse' && modules.length ? h('fieldset', {class: 'modules'},
        h('legend', {}, t('opt.modules')),
        modules.map((m) => h('label', {class: 'check-inline'},
          h('input', {type: 'checkbox', value: m.id, checked: f.modules.includes(m.id), dataset: {testid: `module-${m.id}`},
            onchange: (e) => {
              f.modules = e.target.checked ? [...new Set([...f.modules, m.id])] : f.modules.filter((x) => x !== m.id);
            }}), ' ', m.label))) : null,
      h('fieldset', {class: 'timing'},
        h('legend', {}, t('opt.clock')),
        h('label', {class: 'check-inline'}, h('input', {type: 'radio', name: 'timed', value: 'timed', checked: f.timed,
          dataset: {testid: 'opt-timed'}, onchange: () => { f.timed = true; }}), ' ', t('opt.timed')),
        h('label', {class: 'check-inline'}, h('input', {type: 'radio', name: 'timed', value: 'practice', checked: !f.timed,
          dataset: {testid: 'opt-untimed'}, onchange: () => { f.timed = false; }}), ' ', t('opt.untimed'))),
      h('div', {class: 'fields'},
        check('hints', t('opt.hints'), 'hints', t('opt.hintsHelp')),
        check('six_point_cards', t('opt.six'), 'six_point_cards'),
        check('strict_fuse', t('opt.strict'), 'strict_fuse', t('opt.strictHelp')),
        field('fuse_cards', t('opt.fuseCards'), h('input', {id: 'fuse_cards', type: 'number', min: fuses.min,
          max: fuses.max, placeholder: t('opt.default'), value: f.fuse_cards ?? '', disabled: fuses.max === 0,
          dataset: {testid: 'opt-fuse_cards'},
          oninput: (e) => { f.fuse_cards = e.target.value === '' ? null : Number(e.target.value); }}),
        fuses.max === 0 ? t('opt.fuseNone') : `${t('opt.fuseCardsHelp')} ${t('opt.fuseRange', fuses)}`),
        field('bot_delay', t('opt.botDelay'), h('div', {class: 'range'},
          h('input', {id: 'bot_delay', type: 'range', min: 0, max: 10000, step: 250, value: f.bot_delay_ms,
            dataset: {testid: 'opt-bot-delay'},
            oninput: (e) => {
              f.bot_delay_ms = Number(e.target.value);
              delay.textContent = t('home.seconds', {s: (f.bot_delay_ms / 1000).toFixed(1)});
            }}), delay)),
        field('seed', t('opt.seed'), h('input', {id: 'seed', type: 'number', min: 0, placeholder: t('opt.random'),
          value: f.seed ?? '', dataset: {testid: 'opt-seed'},
          oninput: (e) => { f.seed = e.target.value === '' ? null : Number(e.target.value); }}))),
      h('div', {class: 'form-actions'}, submit));
    return form;
  }

  /** The room's options as the server takes them. */
  body() {
    const f = this.form;
    const body = {game: f.game, players: f.players, difficulty: f.difficulty, setup: f.setup,
      six_point_cards: f.six_point_cards, fuse_cards: f.fuse_cards, strict_fuse: f.strict_fuse, timed: f.timed,
      hints: f.hints, bot_delay_ms: f.bot_delay_ms};
    if (f.game === 'fuse') body.modules = f.modules;
    if (f.seed !== null && Number.isFinite(f.seed)) body.seed = f.seed;
    return body;
  }

  async create(e, button) {
    e.preventDefault();
    button.disabled = true;
    try {
      const res = await api.createRoom(this.body());
      rememberOptions(this.form);
      location.hash = `#/room/${res.code}`;
    } catch (err) {
      toast(`${t('home.createFailed')} ${err.reason ? refusalWords(err) : err.message}`);
      button.disabled = false;
    }
  }
}
