// The table: the roll, the row or stacks, every player's cards with their dice, the action bar.
// One renderer for play, replay (read-only) and the tutorial; the caller says how actions are sent.
import {h, mount, esc, rememberFocus, restoreFocus} from './dom.js';
import {t, tOr, getLang} from './i18n.js';
import {COLOURS, dieButton, dieImage, dieName, drawDieInSlot, dieSvg, HEX} from './dice.js';
import {cardWords, preloadCards} from './api.js';
import {icon} from './icons.js';
import {legendButton} from './legend.js';
import {hintWords, namedWords, removalNotice, symbolWords} from './words.js';

const SIGNAL_MS = 8000;

/** Does a moves entry ({verb, die, card, ...}) stand for the action `act` (the server's action data)? */
export function sameAction(entry, act) {
  if (!entry || !act || entry.verb !== act.verb) return false;
  return Object.keys(act).every((k) => k === 'seat' || k === 'at' || JSON.stringify(entry[k]) === JSON.stringify(act[k]));
}

/** A card drawn here when its SVG cannot be fetched: plain slots in a row, still playable. */
function fallbackCard(card) {
  const n = Math.max(1, card.slots || (card.dice ? card.dice.length : 1));
  const w = Math.max(200, 16 + n * 46);
  const slots = Array.from({length: n}, (_, i) =>
    `<g class="slot" data-slot="${i}" data-x="${12 + i * 46}" data-y="64" data-size="40">` +
    `<rect class="slot-box" x="${12 + i * 46}" y="64" width="40" height="40" rx="5" fill="#fff" stroke="#333"/></g>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" class="card" data-card="${esc(card.id)}" viewBox="0 0 ${w} 120">` +
    `<rect x="1" y="1" width="${w - 2}" height="118" rx="10" fill="#efe7d2" stroke="#222"/>` +
    `<text x="10" y="22" font-size="15" font-family="sans-serif" font-weight="700">${esc(card.id)} · ${esc(card.points ?? '')}</text>` +
    `${slots}</svg>`;
}

export class Table {
  /**
   * interactive: may the user act; send(actionText): how an action goes out;
   * onSelect(dieId|null): told when the selected die changes (signals use it).
   */
  constructor({interactive = true, send = () => {}, onSelect = () => {}, choiceMs = null} = {}) {
    this.interactive = interactive;
    // how long the server waits for a penalty choice before making it (null: no such clock here)
    this.choiceMs = choiceMs;
    this.choiceSince = null; // {key, at}: when the current penalty choice was first shown
    // the table of decision kinds (GET /api/options, rules/decision_kinds.py): kind -> {timed, words, ...}
    this.decisionKinds = {};
    this.countdown = choiceMs ? setInterval(() => this.tickCountdown(), 500) : null;
    this.send = send;
    this.onSelect = onSelect;
    this.view = null;
    this.moves = {place: [], actions: []};
    this.hints = null;
    this.names = [];
    this.selected = null;
    this.cursor = -1;
    this.rethrow = new Set();
    this.signals = []; // {seat, name, signal, die, until}
    this.renderToken = 0;
    this.keep = new Map();
    this.nextKeep = new Map();
    this.svgs = new Map();
    this.el = h('section', {class: 'table', 'aria-label': t('table.aria')});
    this.el.addEventListener('click', (e) => this.onClick(e));
    this.el.addEventListener('keydown', (e) => this.onElementKey(e));
    this.el.addEventListener('pointerdown', (e) => this.onPointerDown(e));
    // a card's words on focus and on a long press (hover has the card's title)
    this.el.addEventListener('focusin', (e) => this.showTip(e.target.closest && e.target.closest('.card-wrap')));
    this.el.addEventListener('focusout', () => hideTip());
    this.el.addEventListener('contextmenu', (e) => {
      const wrap = e.target.closest && e.target.closest('.card-wrap');
      if (!wrap) return;
      e.preventDefault();
      this.showTip(wrap, 5000);
    });
    this.suppressClick = false;
  }

  /** The words of a card in a box under it; `ms`: hide it again after that long (a long press). */
  showTip(wrap, ms = 0) {
    if (!wrap || !wrap.dataset.words) return;
    const tip = cardTip();
    tip.textContent = wrap.dataset.words;
    tip.hidden = false;
    const r = wrap.getBoundingClientRect();
    const w = Math.min(320, innerWidth - 16);
    tip.style.width = `${w}px`;
    tip.style.left = `${Math.max(8, Math.min(innerWidth - w - 8, r.left))}px`;
    const below = r.bottom + 6;
    tip.style.top = `${below + tip.offsetHeight < innerHeight ? below : Math.max(8, r.top - tip.offsetHeight - 6)}px`;
    clearTimeout(tipTimer);
    if (ms) tipTimer = setTimeout(hideTip, ms);
  }

  /** The seat this table is drawn for: the caller's word first (play), else the view's own. */
  /** What the table of decision kinds says of `kind` (before it is known: its words are its name). */
  kindOf(kind) {
    return (this.decisionKinds || {})[kind] || {words: kind, timed: false};
  }

  get mySeat() {
    if (this.seat !== undefined) return this.seat;
    return this.view ? this.view.seat : null;
  }

  /** Draw a new view (async: card pictures are fetched once and cached). */
  async update({view, moves, hints, names, seat, choices} = {}) {
    if (seat !== undefined) this.seat = seat;
    if (choices !== undefined) this.choices = choices || {};
    if (view !== undefined) this.view = view;
    if (moves !== undefined) this.moves = moves || {place: [], actions: []};
    if (hints !== undefined) this.hints = hints;
    if (names !== undefined) this.names = names || [];
    const token = ++this.renderToken;
    const v = this.view;
    if (!v) return;
    this.el.setAttribute('aria-label', t('table.aria'));
    const ids = [];
    for (const hand of v.hands || []) for (const c of hand.cards) ids.push(c.id);
    for (const c of v.row || []) ids.push(c.id);
    for (const s of v.stacks || []) if (s.top) ids.push(s.top.id);
    const svgs = await preloadCards(ids, true, getLang());
    if (token !== this.renderToken) return; // a newer frame is being drawn
    if (this.selected !== null && !(v.unplaced || []).includes(this.selected)) {
      this.selected = null;
      this.cursor = -1;
      this.onSelect(null);
    }
    for (const d of [...this.rethrow]) if (!(v.unplaced || []).includes(d)) this.rethrow.delete(d);
    const focus = rememberFocus();
    const before = this.positions();
    this.svgs = svgs;
    this.nextKeep = new Map();
    // one's own cards right under the roll: that is where the dice go
    const me = this.mySeat;
    const hands = v.hands || [];
    const mine = hands.filter((hd) => hd.seat === me);
    const others = hands.filter((hd) => hd.seat !== me);
    this.trackChoice();
    // the roll beside a console of fixed size (actions and notices): what it holds never moves the
    // cards; then one's own cards, the row and the team, side by side where they fit and under
    // each other where they do not (play.js sizes and packs them)
    mount(this.el, this.renderInfo(),
      h('div', {class: 'strip'}, this.renderRoll(),
        h('div', {class: 'console'}, this.interactive ? this.renderActions() : null, this.renderNotices())),
      h('div', {class: ['band', this.layout && this.layout.split ? 'split' : '']},
        h('div', {class: 'band-left', style: this.layout && this.layout.split ? `width:${this.layout.leftWidth}px` : null},
          mine.length ? h('div', {class: 'hands own'}, mine.map((hd) => this.handEl(hd))) : null,
          others.length ? h('div', {class: 'hands others', dataset: {testid: 'team'}}, others.map((hd) => this.handEl(hd))) : null),
        this.renderMiddle()));
    this.pack();
    this.keep = this.nextKeep;
    this.applyHighlights();
    this.applyHints();
    this.applySignals();
    restoreFocus(focus, this.el);
    if (this.drawnOnce) this.animate(before, v);
    this.drawnOnce = true;
  }

  /**
   * Cards packed in columns no taller than a limit, so that a tall card stands beside a column of
   * short ones instead of setting the height of its whole panel. `layout` (play.js decides it):
   * {die, mate}: the slot sizes in px of one's own and the row's cards, and of the teammates';
   * {limit, mateLimit, rowLimit}: the columns' height in px of one's own cards, the teammates' and
   * the row's (0: the container's tallest card; the row's defaults to one's own). {split,
   * leftWidth}: one's own cards over the team's in a column that wide, the row beside them ({across}:
   * how many teammates' hands that width was chosen to hold in a row). The
   * heights come from each card's picture, so packing needs no layout pass.
   */
  pack(layout = this.layout) {
    this.layout = layout;
    if (!layout) return;
    const band = this.el.querySelector('.band');
    if (band) {
      band.classList.toggle('split', Boolean(layout.split));
      band.firstChild.style.width = layout.split ? `${layout.leftWidth}px` : '';
    }
    for (const cards of this.el.querySelectorAll('.cards[data-pack]')) {
      const kind = cards.dataset.pack;
      const mate = kind === 'mate';
      const die = mate ? layout.mate : layout.die;
      const items = packItems(cards);
      const sizes = items.map((el) => itemSize(el, die, mate));
      const asked = mate ? layout.mateLimit : kind === 'row' ? layout.rowLimit || layout.limit : layout.limit;
      const cols = packColumns(sizes, asked || 0, mate ? PACK_GAP_MATE : PACK_GAP).cols
        .map((col) => ({items: col.items.map((i) => items[i])}));
      const same = cards.children.length === cols.length && cols.every(({items: col}, i) => {
        const c = cards.children[i];
        return c.classList.contains('pack-col') && c.children.length === col.length && col.every((el, j) => c.children[j] === el);
      });
      if (!same) cards.replaceChildren(...cols.map(({items: col}) => h('div', {class: 'pack-col'}, col)));
    }
  }

  /** Where the free dice and the cards in hands are now, before a new frame is drawn. */
  positions() {
    const dice = new Map();
    const cards = new Map();
    if (!this.el.isConnected) return {dice, cards};
    for (const b of this.el.querySelectorAll('.roll button.die.free')) dice.set(Number(b.dataset.die), b);
    for (const w of this.el.querySelectorAll('.hand .card-wrap')) cards.set(w.dataset.card, w);
    const rect = (el) => ({el, box: el.getBoundingClientRect()});
    return {dice: new Map([...dice].map(([k, el]) => [k, rect(el)])), cards: new Map([...cards].map(([k, el]) => [k, rect(el)]))};
  }

  /**
   * The motion between two frames, drawn over a table that already shows the new one (so it never
   * holds the game up): a claimed die flies from the roll to its slot, a defused card rises with
   * its points. Nothing moves for a player who asked for reduced motion.
   */
  animate(before, v) {
    if (!before || window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    for (const [id, {el, box}] of before.dice) {
      const slot = this.el.querySelector(`g.slot[data-holds="${id}"]`);
      if (!slot || box.width === 0) continue;
      const to = slot.getBoundingClientRect();
      const ghost = h('div', {class: 'fly-ghost', html: el.querySelector('svg') ? el.querySelector('svg').outerHTML : ''});
      Object.assign(ghost.style, {left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px`});
      document.body.append(ghost);
      const dx = to.left - box.left + (to.width - box.width) / 2;
      const dy = to.top - box.top + (to.height - box.height) / 2;
      const scale = to.width / box.width;
      ghost.animate([{transform: 'translate(0, 0) scale(1)', opacity: 1},
        {transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.9}],
      {duration: 320, easing: 'cubic-bezier(.2, .7, .3, 1)'}).finished.finally(() => ghost.remove());
    }
    const scored = new Set(v.score_pile || []);
    for (const [id, {el, box}] of before.cards) {
      if (!scored.has(id) || this.el.querySelector(`.hand .card-wrap[data-card="${CSS.escape(id)}"]`) || box.width === 0) continue;
      const ghost = h('div', {class: 'leave-ghost', html: el.innerHTML},
        h('span', {class: 'leave-points'}, `+${el.dataset.points || ''}`));
      Object.assign(ghost.style, {left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`});
      document.body.append(ghost);
      ghost.animate([{transform: 'translateY(0) scale(1)', opacity: 1}, {transform: 'translateY(-24px) scale(1.06)', opacity: 1, offset: 0.35},
        {transform: 'translateY(-70px) scale(.8)', opacity: 0}], {duration: 1100, easing: 'ease-out'}).finished.finally(() => ghost.remove());
    }
  }

  name(seat) {
    const n = this.names[seat];
    return n || t('player.n', {n: seat + 1});
  }

  /** A role in the page's language: {name, text} from the view's role entry. */
  roleWords(role) {
    if (!role || !role.name) return null;
    return {name: tOr(`role.${role.ability}`, role.name), text: tOr(`roleText.${role.ability}`, role.text || '')};
  }

  // ------------------------------------------------------- penalty choice clock
  /** Note when this seat's penalty choice (give up, reroll, return) was first shown. */
  trackChoice() {
    if (!this.choiceMs || !this.view) return;
    const v = this.view;
    const mine = (v.to_act || {})[String(this.mySeat)];
    // a timed choice (I-11): the table says so, or the server's clock for this seat is running
    const timed = mine && (this.kindOf(mine.kind).timed || Number.isFinite((this.choices || {})[String(this.mySeat)]));
    if (!timed || v.outcome) {
      this.choiceSince = null;
      return;
    }
    const key = [v.turn, mine.kind, v.phase, JSON.stringify(v.removal_cause || null), (v.unused || []).length,
      (mine.options || []).join(',')].join('|');
    // the server says how long is left (so a reload does not restart the count); else count from now
    const left = (this.choices || {})[String(this.mySeat)];
    if (Number.isFinite(left)) this.choiceSince = {key, at: performance.now() - (this.choiceMs - left)};
    else if (!this.choiceSince || this.choiceSince.key !== key) this.choiceSince = {key, at: performance.now()};
  }

  choiceLeft() {
    if (!this.choiceSince) return null;
    return Math.max(0, this.choiceMs - (performance.now() - this.choiceSince.at));
  }

  tickCountdown() {
    const el = this.el.querySelector('[data-testid="auto-choice"]');
    const left = this.choiceLeft();
    if (!el || left === null) return;
    el.textContent = left > 0 ? t('notice.autoChoice', {s: Math.ceil(left / 1000)}) : t('notice.autoChoiceNow');
  }

  destroy() {
    hideTip();
    if (this.countdown) clearInterval(this.countdown);
  }

  // ------------------------------------------------------------------ parts
  renderInfo() {
    const v = this.view;
    const leader = v.leader;
    const score = v.score || {};
    // what tells how the game stands first, never scrolled out of view (CSS: .chips.key)
    const key = [
      h('span', {class: 'chip score', dataset: {testid: 'score'}}, t('info.score'), ' ', h('b', {}, score.total ?? 0)),
      h('span', {class: 'chip', dataset: {testid: 'fuses-left'}}, t('info.fuses'), ' ',
        h('b', {}, `${v.fuse_cards_not_gone_off}/${v.fuse_cards_in_game}`)),
      h('span', {class: 'chip'}, t('info.defused'), ' ', h('b', {}, (v.score_pile || []).length)),
    ];
    const chips = [
      h('span', {class: 'chip'}, t('info.turn'), ' ', h('b', {}, v.turn)),
      h('span', {class: 'chip'}, t('info.leader'), ' ', h('b', {}, this.name(leader))),
      h('span', {class: 'chip phase', dataset: {testid: 'phase'}}, t('info.phase'), ' ', h('b', {}, t(`phase.${v.phase}`))),
      v.stacks && v.stacks.length
        ? h('span', {class: 'chip'}, t('info.fuseDeck'), ' ', h('b', {}, v.fuse_deck_size ?? 0))
        : h('span', {class: 'chip', dataset: {testid: 'deck-size'}}, t('info.deck'), ' ', h('b', {}, v.deck_size)),
      h('span', {class: 'chip bag', dataset: {testid: 'bag'}}, t('info.bag'), ' ', h('b', {}, v.bag_size), ' ',
        Object.entries(v.bag || {}).map(([c, n]) => h('span', {class: 'bag-count', title: `${c}: ${n}`},
          h('span', {class: 'swatch', style: swatch(c)}, c), n))),
    ];
    if (v.sparks_in_game) {
      chips.push(h('span', {class: 'chip'}, t('info.sparks'), ' ',
        h('b', {}, t('info.sparkCounts', {deck: v.spark_deck_size, discard: (v.spark_discard || []).length,
          defused: v.sparks_defused}))));
    }
    if (v.active_ability) {
      const role = this.roleWords((v.roles || [])[leader]);
      chips.push(h('span', {class: 'chip role', title: role ? role.text : ''}, t('info.ability'), ' ',
        h('b', {}, role ? role.name : tOr(`role.${v.active_ability}`, v.active_ability))));
    }
    if (v.named) {
      const named = COLOURS.includes(v.named) ? h('span', {class: 'swatch', style: swatch(v.named), title: t(`colour.${v.named}`)}, v.named)
        : v.named;
      chips.push(h('span', {class: 'chip'}, t('info.named'), ' ', h('b', {}, named)));
    }
    const fuses = (v.fuses_activated || []).map((f) => fuseChip(f));
    return h('div', {class: 'info', role: 'group', 'aria-label': t('info.aria')},
      h('div', {class: 'chips key'}, key),
      // a strip that scrolls sideways on a phone: reachable from the keyboard too
      h('div', {class: 'chips more', tabindex: '0', role: 'group', 'aria-label': t('info.aria')}, chips),
      fuses.length ? h('div', {class: 'fuses-gone', dataset: {testid: 'fuses-activated'}},
        h('span', {class: 'muted'}, t('info.fusesGone')), fuses) : null);
  }

  renderRoll() {
    const v = this.view;
    const free = new Set(v.unplaced || []);
    let n = 0;
    const dice = (v.rolled || []).map((d) => {
      if (free.has(d.id)) {
        const b = this.reuse(`die|${d.id}|${d.colours}${d.face}${d.as || ''}|${getLang()}`, () => {
          // a die that is new on the table tumbles in (CSS: .die.enter)
          const el = dieButton(d, {class: this.drawnOnce ? 'free enter' : 'free',
            dataset: {testid: `die-${d.id}`, focus: `die-${d.id}`, die: d.id}, 'aria-pressed': 'false', draggable: 'false'});
          if (!this.interactive) el.disabled = true;
          return el;
        });
        b.classList.toggle('role-eligible', (v.role_eligible || []).includes(d.id));
        b.dataset.index = String(n); // 0-based among the free dice: key n + 1 selects it
        b.dataset.placed = 'false';
        n += 1;
        if (this.interactive && n <= 9) b.dataset.key = String(n);
        else delete b.dataset.key;
        return b;
      }
      const img = dieImage(d, 'placed');
      img.dataset.testid = `die-${d.id}`;
      img.dataset.placed = 'true';
      return img;
    });
    const rerolling = (v.rerolling || []);
    return h('div', {class: 'roll', role: 'region', 'aria-label': t('roll.aria'), dataset: {testid: 'roll'}},
      h('h2', {class: 'section-title'}, t('roll.title')),
      // the dice not taken stand on the roll's line: the roll keeps its height
      h('div', {class: 'dice-line'},
        h('div', {class: 'dice-row'}, dice.length ? dice : h('span', {class: 'muted'}, t('roll.none'))),
        (v.unused || []).length ? h('div', {class: 'unused'}, h('span', {class: 'muted small'},
          v.phase === 'penalty' ? t('roll.unusedPenalty') : t('roll.unused')),
        (v.unused || []).map((d) => dieImage(d, 'small'))) : null),
      rerolling.length ? h('div', {class: 'muted small'}, t('roll.rerolling', {dice: rerolling.map((d) => this.dieWords(d)).join(', ')})) : null);
  }

  actionsOf(kind) {
    return (this.moves.actions || []).filter((a) => a.kind === kind);
  }

  renderActions() {
    const acts = this.moves.actions || [];
    const bar = [];
    const btn = (a, label, extra = {}) => h('button', {type: 'button', class: ['act', `act-${a.kind}`, extra.class],
      dataset: {testid: a.kind === 'done' ? 'done-button' : `action-${a.kind}`, action: a.action, focus: `act-${a.action}`},
      title: extra.title || null, 'aria-label': extra.aria || null,
      onclick: () => this.send(a.action)}, label);
    for (const a of this.actionsOf('done')) bar.push(btn(a, t('act.done'), {class: 'primary'}));
    for (const a of this.actionsOf('roll')) bar.push(btn(a, t('act.roll'), {class: 'primary'}));
    for (const a of this.actionsOf('reveal')) bar.push(btn(a, t('act.reveal')));
    const group = (kind, labelKey, make) => {
      const list = this.actionsOf(kind);
      if (!list.length) return;
      bar.push(h('div', {class: 'act-group'}, h('span', {class: 'act-label'}, t(labelKey)), list.map(make)));
    };
    // the cards to take are shown large in the middle (renderMiddle), each a button
    // the card by its name (its code says nothing to a player), filled in once its words are known
    group('defuse', 'act.defuse', (a) => {
      const b = btn(a, a.card, {aria: `${t('act.defuse')} ${a.card}`, title: t('act.defuseHelp')});
      cardWords(a.card, getLang()).then((w) => {
        b.textContent = w.name;
        b.setAttribute('aria-label', `${t('act.defuse')} ${w.name} (${a.card})`);
      }).catch(() => { /* its code stays */ });
      return b;
    });
    // (what an early defusal means is in the buttons' titles: the console keeps its one or two lines)
    const dieAct = (a) => {
      const die = this.findDie(a.die);
      // named by its content, as the dice of the roll are: the action in words, then the die's picture
      const b = btn(a, '', {class: 'die-act'});
      b.innerHTML = `<span class="sr-only">${esc(t(`act.${a.kind}`))} </span>` +
        (die ? dieSvg(die, true) : esc(this.dieWords(a.die)));
      return b;
    };
    group('give', 'act.give', dieAct);
    group('reroll', 'act.reroll', dieAct);
    group('return', 'act.return', dieAct);
    group('name', 'act.name', (a) => {
      const val = a.value;
      const colour = COLOURS.includes(val);
      const b = btn(a, colour ? '' : val, {aria: `${t('act.name')} ${namedWords(val)}`});
      if (colour) {
        b.classList.add('colour-btn');
        b.append(h('span', {class: 'swatch', style: swatch(val)}, val));
      }
      return b;
    });
    const role = this.renderRolePanel(acts);
    if (role) bar.push(role);
    if (!bar.length) return h('div', {class: 'actions empty', dataset: {testid: 'actions'}});
    return h('div', {class: 'actions', dataset: {testid: 'actions'}}, bar);
  }

  renderRolePanel(acts) {
    // the role decision's verbs (rules/decision_kinds.py): each ability that changes one die gets
    // buttons for the selected die; a rethrow picks several dice and has its own row
    const verbs = this.kindOf('role').verbs || ['recolour', 'renumber', 'flip', 'rethrow'];
    const kinds = verbs.filter((k) => k !== 'rethrow');
    const roleActs = acts.filter((a) => kinds.includes(a.kind) && a.die !== undefined);
    const rethrows = acts.filter((a) => a.kind === 'rethrow');
    if (!roleActs.length && !rethrows.length) return null;
    const v = this.view;
    const role = this.roleWords((v.roles || [])[v.leader]);
    const parts = [h('span', {class: 'act-label', title: role ? role.text : ''}, role ? `${role.name}:` : t('act.role'))];
    const sel = this.selected;
    const forDie = roleActs.filter((a) => a.die === sel);
    if (roleActs.length && (sel === null || !forDie.length)) {
      parts.push(h('span', {class: 'muted small'}, t('act.roleSelect'),
        (v.role_eligible || []).length ? ` (${t('act.roleEligible')})` : ''));
    }
    for (const kind of kinds) {
      const list = forDie.filter((a) => a.kind === kind);
      if (!list.length) continue;
      parts.push(h('span', {class: 'act-sub'}, t(`act.${kind}`)));
      for (const a of list) {
        const val = kind === 'recolour' ? a.colour : kind === 'renumber' ? a.face : null;
        const b = h('button', {type: 'button', class: ['act', `act-${kind}`],
          dataset: {testid: `action-${kind}`, action: a.action, focus: `act-${a.action}`},
          'aria-label': `${t(`act.${kind}`)} ${val === null ? '' : namedWords(val)}`,
          onclick: () => this.send(a.action)});
        if (kind === 'recolour') b.append(h('span', {class: 'swatch', style: swatch(val)}, val));
        else if (kind === 'flip') {
          // the face it lands on: the role card pairs 1-6, 2-4 and 3-5
          const die = this.findDie(a.die);
          const to = die ? {1: 6, 6: 1, 2: 4, 4: 2, 3: 5, 5: 3}[die.face] : null;
          b.append(to ? t('act.flipTo', {face: to}) : t('act.flip'));
        } else b.append(val === null ? t(`act.${kind}`) : String(val));
        parts.push(b);
      }
    }
    if (rethrows.length) {
      const chosen = [...this.rethrow].sort((a, b) => a - b);
      // the server lists every set of dice that may be rerolled: the chosen set is one of them or none
      const pick = rethrows.find((a) => JSON.stringify([...a.dice].sort((x, y) => x - y)) === JSON.stringify(chosen));
      parts.push(h('span', {class: 'act-sub'}, t('act.rethrowPick')));
      for (const d of this.view.unplaced || []) {
        const die = this.findDie(d);
        const on = this.rethrow.has(d);
        const b = h('button', {type: 'button', class: ['act', 'die-act', 'toggle', on ? 'on' : ''],
          'aria-pressed': on ? 'true' : 'false', 'aria-label': `${t('act.rethrow')} ${this.dieWords(d)}`,
          dataset: {focus: `rethrow-${d}`, testid: `rethrow-pick-${d}`},
          onclick: () => {
            if (this.rethrow.has(d)) this.rethrow.delete(d);
            else this.rethrow.add(d);
            this.refreshActions();
          }});
        b.innerHTML = die ? dieSvg(die) : esc(this.dieWords(d));
        parts.push(b);
      }
      parts.push(h('button', {type: 'button', class: 'act act-rethrow primary',
        dataset: {testid: 'action-rethrow', action: pick ? pick.action : '', focus: 'act-rethrow'},
        disabled: !pick,
        onclick: () => {
          this.rethrow.clear();
          if (pick) this.send(pick.action);
        }}, chosen.length ? t('act.rethrowGo', {n: chosen.length}) : t('act.rethrowNone')));
    }
    // the role card's text is the label's title and on the hand's role tag: the console keeps its size
    return h('div', {class: 'act-group role-panel'}, parts);
  }

  refreshActions() {
    const old = this.el.querySelector('.actions');
    if (!old || !this.interactive) return;
    const focus = rememberFocus();
    old.replaceWith(this.renderActions());
    restoreFocus(focus, this.el);
  }

  renderNotices() {
    const v = this.view;
    const out = [];
    const me = this.mySeat;
    if (v.removal_cause) {
      out.push(h('div', {class: 'notice warn', dataset: {testid: 'removal-reason'}}, removalNotice(v.removal_cause)));
    }
    if (v.penalty_die) {
      out.push(h('div', {class: 'notice'}, t('notice.penaltyDie'), ' ', dieImage(v.penalty_die, 'small')));
    }
    if ((v.must_roll_six || []).length) {
      out.push(h('div', {class: 'notice warn'}, t('notice.rollSix', {who: v.must_roll_six.map((s) => this.name(s)).join(', ')})));
    }
    if (v.bonus_die) out.push(h('div', {class: 'notice'}, t('notice.bonusDie')));
    if (this.interactive && me !== null && me !== undefined && !v.outcome) {
      const mine = (v.to_act || {})[String(me)];
      if (mine) {
        // the kind's words, or the leader's role's own words for it (a Cutter names a colour)
        const words = this.kindOf(mine.kind).words;
        const text = tOr(`yourTurn.${words}_${v.active_ability}`, t(`yourTurn.${words}`));
        const left = this.choiceLeft();
        out.push(h('div', {class: 'notice you', dataset: {testid: 'your-turn'}}, text,
          left !== null ? h('span', {class: 'auto-choice muted small', dataset: {testid: 'auto-choice'}},
            left > 0 ? t('notice.autoChoice', {s: Math.ceil(left / 1000)}) : t('notice.autoChoiceNow')) : null));
      }
      else if (Object.keys(v.to_act || {}).length) out.push(h('div', {class: 'notice muted'}, t('notice.waiting')));
    } else if (this.interactive && (me === null || me === undefined) && !v.outcome) {
      out.push(h('div', {class: 'notice muted', dataset: {testid: 'spectator-notice'}}, t('notice.spectator')));
    }
    return h('div', {class: 'notices', 'aria-live': 'polite'}, out,
      h('div', {class: 'hint', dataset: {testid: 'hint-text'}, hidden: true}));
  }

  renderMiddle() {
    const v = this.view;
    if (v.stacks && v.stacks.length) {
      return h('div', {class: 'middle', dataset: {testid: 'row'}},
        h('div', {class: 'middle-head'}, h('h2', {class: 'section-title'}, t('middle.stacks')),
          this.reuse(`legend|${getLang()}`, legendButton)),
        h('div', {class: 'cards row-cards', dataset: {pack: 'row'}}, v.stacks.map((s) => h('div', {class: 'stack'},
          h('div', {class: 'stack-label'}, t('middle.level', {level: s.level, n: s.size})),
          s.top ? this.cardEl(s.top, 'row') : h('div', {class: 'card-empty'}, t('middle.empty'))))));
    }
    const row = v.row || [];
    const choosing = this.interactive && this.actionsOf('take').length > 0;
    return h('div', {class: ['middle', choosing ? 'choosing' : ''], dataset: {testid: 'row'}},
      h('div', {class: 'middle-head'},
        choosing ? h('h2', {class: 'choice-title', dataset: {testid: 'card-choice'}}, t('choice.title'))
          : h('h2', {class: 'section-title'}, t('middle.row'), ' ', h('span', {class: 'muted small'}, t('middle.deckLeft', {n: v.deck_size}))),
        this.reuse(`legend|${getLang()}`, legendButton)),
      h('div', {class: 'cards row-cards', tabindex: '0', role: 'group', 'aria-label': t('middle.row'),
        dataset: choosing ? {} : {pack: 'row'}},
        row.length ? row.map((c) => (choosing ? this.choiceEl(c) : this.cardEl(c, 'row')))
          : h('span', {class: 'muted'}, t('middle.rowEmpty'))));
  }

  /** A card to choose from: drawn large, with its points, its name and what it asks for in words. */
  choiceEl(card) {
    const words = h('figcaption', {class: 'choice-words'},
      h('b', {class: 'choice-name'}, card.id), ' ',
      h('span', {class: 'choice-points'}, card.kind === 'spark' ? t('choice.spark')
        : (card.points === 1 ? t('choice.point') : t('choice.points', {n: card.points}))),
      h('span', {class: 'choice-text'}));
    cardWords(card.id, getLang()).then((w) => {
      words.querySelector('.choice-name').textContent = w.name;
      words.querySelector('.choice-text').textContent = w.text;
    }).catch(() => { /* the picture says it all the same */ });
    return h('figure', {class: 'choice', dataset: {testid: `choice-${card.id}`}}, this.cardEl(card, 'row'), words);
  }

  handEl(hand) {
    const v = this.view;
    const mine = hand.seat === this.mySeat;
    const tags = [];
    if (hand.seat === v.leader) tags.push(h('span', {class: 'tag leader'}, t('hand.leader')));
    const role = this.roleWords((v.roles || [])[hand.seat]);
    if (role) {
      const up = v.roles[hand.seat].face_up;
      tags.push(h('span', {class: ['tag', 'role', up ? '' : 'down'], title: up ? role.text : t('role.lost')},
        role.name + (up ? '' : ` (${t('hand.faceDown')})`)));
    }
    tags.push(h('span', {class: 'tag'}, t('hand.taken', {n: hand.taken, q: hand.quota})));
    if (mine) {
      tags.push(h('span', {class: 'tag count', dataset: {testid: 'hand-count'}},
        hand.cards.length === 1 ? t('hand.countOne') : t('hand.count', {n: hand.cards.length})));
    }
    if (hand.done) tags.push(h('span', {class: 'tag done'}, t('hand.done')));
    // taking a card is the game going on, not a danger: a neutral tag
    if (hand.must_take) tags.push(h('span', {class: 'tag acting'}, t('hand.mustTake', {card: hand.must_take})));
    if (hand.must_roll_six) tags.push(h('span', {class: 'tag warn'}, t('hand.mustRollSix')));
    const decision = (v.to_act || {})[String(hand.seat)];
    if (decision) tags.push(h('span', {class: 'tag acting'}, t(`decide.${this.kindOf(decision.kind).words}`)));
    const duds = hand.duds || [];
    return h('div', {class: ['hand', mine ? 'mine' : ''], dataset: {seat: hand.seat, testid: `hand-${hand.seat}`}},
      h('div', {class: 'hand-head'},
        h('span', {class: 'hand-name'}, this.name(hand.seat), mine ? ` (${t('hand.you')})` : ''),
        h('span', {class: 'signal-slot'}), tags),
      h('div', {class: 'cards', tabindex: mine ? '0' : null, role: 'group', 'aria-label': t('hand.cardsOf', {name: this.name(hand.seat)}),
        dataset: {pack: mine ? 'own' : 'mate'}},
        hand.cards.length ? hand.cards.map((c) => this.cardEl(c, 'hand', hand.seat))
        : h('span', {class: 'muted'}, t('hand.noCards'))),
      duds.length ? h('div', {class: 'muted small'}, t('hand.duds', {cards: duds.join(' ')})) : null);
  }

  /**
   * Elements that did not change are kept from one frame to the next: a click that is under way
   * when a frame arrives still lands, and the cards do not flicker.
   */
  reuse(key, make) {
    const old = this.keep.get(key);
    const el = old || make();
    this.nextKeep.set(key, el);
    return el;
  }

  cardEl(card, where, seat = null) {
    const dice = (card.dice || []).map((d) => (d ? `${d.id}:${d.colours}${d.face}${d.as || ''}` : '-')).join(',');
    const key = `card|${where}|${seat}|${card.id}|${card.complete ? 1 : 0}|${dice}|${getLang()}|${this.svgs.has(card.id)}`;
    return this.reuse(key, () => this.makeCard(card, where, seat));
  }

  makeCard(card, where, seat) {
    const markup = (this.svgs && this.svgs.get(card.id)) || fallbackCard(card);
    const wrap = h('div', {class: ['card-wrap', `in-${where}`, card.complete ? 'complete' : '', card.kind === 'spark' ? 'spark' : ''],
      dataset: {card: card.id, points: card.points}, html: markup});
    const svg = wrap.querySelector('svg');
    if (svg) {
      // drawn so that its slots are --die pixels wide: every card's dice the same size, whatever its shape
      const box = svg.viewBox && svg.viewBox.baseVal;
      const slot = svg.querySelector('g.slot');
      if (box && box.width) {
        wrap.style.setProperty('--w', String(box.width));
        wrap.dataset.h = String(box.height);
      }
      if (slot && Number(slot.dataset.size)) {
        wrap.style.setProperty('--s', slot.dataset.size);
        wrap.dataset.s = slot.dataset.size;
      }
      svg.removeAttribute('width');
      svg.removeAttribute('height');
      // a group, not an image: its slots are buttons while a die may go there
      svg.setAttribute('role', 'group');
      if (!svg.getAttribute('aria-label')) {
        svg.setAttribute('aria-label', t('card.aria', {id: card.id, points: card.points}));
      }
    }
    // a teammate's card is drawn small: its name goes above it in words of a readable size
    const caption = where === 'hand' && seat !== null && seat !== this.mySeat
      ? h('span', {class: 'mate-name', 'aria-hidden': 'true'}, card.id) : null;
    if (caption) wrap.prepend(caption);
    // what the card asks for, in words, on hover and for screen readers (never the notation)
    wrap.tabIndex = 0;
    cardWords(card.id, getLang()).then((w) => {
      if (caption) caption.textContent = w.name;
      wrap.title = `${w.name}: ${w.text}`;
      wrap.dataset.words = wrap.title;
      if (svg) svg.setAttribute('aria-label', `${t('card.aria', {id: card.id, points: card.points})}. ${w.name}: ${w.text}`);
    }).catch(() => { /* the picture says it all the same */ });
    if (card.dice && svg) {
      for (const g of svg.querySelectorAll('g.slot')) {
        const i = Number(g.dataset.slot);
        const die = card.dice[i];
        if (die) {
          drawDieInSlot(g, die);
          g.dataset.holds = die.id;
        }
        g.dataset.focus = `slot-${card.id}-${i}`;
      }
    }
    if (where === 'hand' && seat !== null) wrap.dataset.seat = seat;
    return wrap;
  }

  /** A die by its id in words ("Blue 5"), or "a die" when the table no longer shows it (never its id). */
  dieWords(id) {
    const d = this.findDie(id);
    return d ? dieName(d) : t('words.someDie');
  }

  findDie(id) {
    if (id === null || id === undefined || !this.view) return null;
    const v = this.view;
    for (const d of [...(v.rolled || []), ...(v.unused || [])]) if (d.id === id) return d;
    for (const hand of v.hands || []) for (const c of hand.cards) for (const d of c.dice || []) if (d && d.id === id) return d;
    if (v.penalty_die && v.penalty_die.id === id) return v.penalty_die;
    return null;
  }

  // ------------------------------------------------------------ highlights
  /** Legal slots for the selected die, cards that may be taken, dice that may be given up. */
  applyHighlights() {
    const root = this.el;
    for (const el of root.querySelectorAll('.legal, .cursor, .giveable, .takeable')) {
      el.classList.remove('legal', 'cursor', 'giveable', 'takeable');
      if (el.matches('g.slot, .card-wrap')) {
        el.removeAttribute('tabindex');
        el.removeAttribute('role');
        unmakeButton(el);
      }
      if (el.matches('.card-wrap')) el.tabIndex = 0; // still focusable: focus tells its words
    }
    const placeable = new Set((this.moves.place || []).filter((p) => p.slots.length).map((p) => p.die));
    for (const b of root.querySelectorAll('.roll button.die')) {
      b.dataset.legal = this.interactive && placeable.has(Number(b.dataset.die)) ? 'true' : 'false';
      const on = b.dataset.die !== undefined && Number(b.dataset.die) === this.selected;
      b.classList.toggle('selected', on);
      b.setAttribute('aria-pressed', on ? 'true' : 'false');
    }
    if (!this.interactive) return;
    const me = this.mySeat;
    this.legal = [];
    if (this.selected !== null) {
      for (const p of this.moves.place || []) {
        if (p.die !== this.selected) continue;
        for (const [i, s] of p.slots.entries()) {
          const g = root.querySelector(`.hand[data-seat="${me}"] svg.card[data-card="${CSS.escape(p.card)}"] g.slot[data-slot="${s}"]`) ||
            root.querySelector(`svg.card[data-card="${CSS.escape(p.card)}"] g.slot[data-slot="${s}"]`);
          if (!g) continue;
          g.classList.add('legal');
          makeButton(g, t('slot.aria', {slot: s + 1, card: p.card}));
          g.dataset.action = p.actions[i];
          this.legal.push(g);
        }
      }
    }
    for (const a of this.actionsOf('give')) {
      const die = a.die;
      const g = root.querySelector(`.hand[data-seat="${me}"] g.slot[data-holds="${die}"]`);
      if (!g) continue;
      g.classList.add('giveable');
      makeButton(g, `${t('act.give')} ${dieName(this.findDie(die))}`);
      g.dataset.action = a.action;
    }
    for (const a of this.actionsOf('take')) {
      const card = a.card;
      const wrap = root.querySelector(`.middle .card-wrap[data-card="${CSS.escape(card)}"]`);
      if (!wrap) continue;
      wrap.classList.add('takeable');
      makeButton(wrap, t('act.take'));
      wrap.dataset.action = a.action;
      wrap.dataset.focus = `take-${card}`;
    }
    for (const a of this.actionsOf('defuse')) {
      const card = a.card;
      const wrap = root.querySelector(`.hand .card-wrap[data-card="${CSS.escape(card)}"]`);
      if (wrap) wrap.classList.add('defusable');
    }
    if (this.cursor >= this.legal.length) this.cursor = -1;
    if (this.cursor >= 0) this.legal[this.cursor].classList.add('cursor');
  }

  applyHints() {
    const box = this.el.querySelector('[data-testid="hint-text"]');
    for (const el of this.el.querySelectorAll('.hinted')) el.classList.remove('hinted');
    const me = this.mySeat;
    const hint = (this.hints || []).find((x) => x.seat === me);
    if (!box) return;
    if (!hint) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const words = hintWords(hint, {me, nameOf: (seat) => this.name(seat), findDie: (id) => this.findDie(id)});
    mount(box, icon('bulb'), ' ', h('b', {}, words.text),
      words.reason ? h('span', {class: 'hint-reason', dataset: {testid: 'hint-reason'}}, ' — ', words.reason) : null);
    const a = hint.act;
    if (!a) return;
    if (a.verb === 'place') {
      const b = this.el.querySelector(`.roll button.die[data-die="${a.die}"]`);
      if (b) b.classList.add('hinted');
      const g = this.el.querySelector(`svg.card[data-card="${CSS.escape(a.card)}"] g.slot[data-slot="${a.slot}"]`);
      if (g) g.classList.add('hinted');
      return;
    }
    if (a.verb === 'take') {
      const w = this.el.querySelector(`.middle .card-wrap[data-card="${CSS.escape(a.card)}"]`);
      if (w) w.classList.add('hinted');
      return;
    }
    if (a.die !== undefined && a.die !== null) {
      const g = this.el.querySelector(`.hand[data-seat="${me}"] g.slot[data-holds="${a.die}"]`);
      if (g) g.classList.add('hinted');
    }
    const entry = (this.moves.actions || []).find((m) => sameAction(m, a));
    const b = entry && this.el.querySelector(`button[data-action="${CSS.escape(entry.action)}"]`);
    if (b) b.classList.add('hinted');
  }

  // --------------------------------------------------------------- signals
  /** A team signal ({seat, name, signal, die}): a bubble by the sender's name and on the die. */
  showSignal(sig) {
    this.signals = this.signals.filter((s) => s.seat !== sig.seat && s.until > Date.now());
    this.signals.push({...sig, until: Date.now() + SIGNAL_MS});
    this.applySignals();
    setTimeout(() => this.applySignals(), SIGNAL_MS + 50);
  }

  applySignals() {
    const now = Date.now();
    this.signals = this.signals.filter((s) => s.until > now);
    for (const el of this.el.querySelectorAll('.bubble')) el.remove();
    for (const s of this.signals) {
      const label = t(`signal.${s.signal}`);
      const slot = this.el.querySelector(`.hand[data-seat="${s.seat}"] .signal-slot`);
      if (slot) slot.append(h('span', {class: `bubble sig-${s.signal}`, role: 'status'}, label));
      if (s.die !== null && s.die !== undefined) {
        const b = this.el.querySelector(`.roll [data-die="${s.die}"]`);
        // under the die, where it covers neither its colour nor its number: the sender's short name
        // (never a bare letter, which would read as a colour) and one short word; the whole signal
        // is on the player's hand and in the log
        if (b) b.append(h('span', {class: `bubble on-die sig-${s.signal}`, title: `${s.name || this.name(s.seat)}: ${label}`},
          `${shortName(s.name || this.name(s.seat))} ${t(`signal.short.${s.signal}`)}`));
      }
    }
  }

  // ----------------------------------------------------------- interaction
  select(id) {
    this.selected = id;
    this.cursor = -1;
    this.applyHighlights();
    this.applyHints();
    this.refreshActions();
    this.onSelect(id);
  }

  toggle(id) {
    this.select(this.selected === id ? null : id);
  }

  clear() {
    this.rethrow.clear();
    this.select(null);
  }

  activate(el) {
    if (!el || !el.dataset.action) return false;
    this.send(el.dataset.action);
    if (el.matches('g.slot.legal')) {
      this.selected = null;
      this.onSelect(null);
    }
    return true;
  }

  onClick(e) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    if (!this.interactive) return;
    const die = e.target.closest('.roll button.die.free');
    if (die) {
      this.toggle(Number(die.dataset.die));
      return;
    }
    const target = e.target.closest('g.slot.legal, g.slot.giveable, .card-wrap.takeable');
    if (target) this.activate(target);
  }

  onElementKey(e) {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const target = e.target.closest && e.target.closest('g.slot.legal, g.slot.giveable, .card-wrap.takeable');
    if (target) {
      e.preventDefault();
      e.stopPropagation(); // the page's own Enter (keyboard cursor) must not send it a second time
      this.activate(target);
    }
  }

  /** Page-wide keys (digits, arrows, Enter, D, T, Escape); returns true when used. */
  handleKey(e) {
    if (!this.interactive || !this.view) return false;
    // numbered as they are drawn: the roll's order
    const unplaced = new Set(this.view.unplaced || []);
    const free = (this.view.rolled || []).map((d) => d.id).filter((id) => unplaced.has(id));
    if (/^[1-9]$/.test(e.key)) {
      const id = free[Number(e.key) - 1];
      if (id === undefined) return false;
      this.select(id);
      if (this.legal && this.legal.length) {
        // the first place it may go is ready: Enter puts it there, arrows move on
        this.cursor = 0;
        this.applyHighlights();
        this.legal[0].focus({preventScroll: false});
      } else {
        const b = this.el.querySelector(`.roll button.die[data-die="${id}"]`);
        if (b) b.focus({preventScroll: true});
      }
      return true;
    }
    if (['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp'].includes(e.key) && this.legal && this.legal.length) {
      const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : -1;
      this.cursor = this.cursor < 0 ? (step > 0 ? 0 : this.legal.length - 1)
        : (this.cursor + step + this.legal.length) % this.legal.length;
      this.applyHighlights();
      this.legal[this.cursor].focus({preventScroll: false});
      return true;
    }
    if (e.key === 'Enter' && this.cursor >= 0 && this.legal && this.legal[this.cursor]) {
      return this.activate(this.legal[this.cursor]);
    }
    if (e.key === 'd' || e.key === 'D') {
      const a = this.actionsOf('done')[0];
      if (a) this.send(a.action);
      return Boolean(a);
    }
    if (e.key === 'a' || e.key === 'A') {
      // the choice asked of this seat (give up, reroll, return, name, a role's ability): its first
      // button takes the keyboard, Tab and Enter do the rest
      const b = this.el.querySelector('.actions button.act:not(.act-done):not(.act-roll):not(:disabled)');
      if (b) b.focus();
      return Boolean(b);
    }
    if (e.key === 't' || e.key === 'T') {
      const w = this.el.querySelector('.card-wrap.takeable');
      if (w) return this.activate(w);
      return false;
    }
    if (e.key === 'Escape') {
      this.clear();
      return true;
    }
    return false;
  }

  // Dragging a die: pointer events work for mouse and touch alike (HTML drag-and-drop does not
  // reach SVG slots on touch screens).
  onPointerDown(e) {
    if (!this.interactive || e.button !== 0) return;
    const die = e.target.closest('.roll button.die.free');
    if (!die) return;
    const id = Number(die.dataset.die);
    const start = {x: e.clientX, y: e.clientY};
    let ghost = null;
    const move = (ev) => {
      if (!ghost) {
        if (Math.hypot(ev.clientX - start.x, ev.clientY - start.y) < 8) return;
        if (this.selected !== id) this.select(id);
        ghost = h('div', {class: 'drag-ghost', html: die.innerHTML});
        document.body.append(ghost);
      }
      ghost.style.transform = `translate(${ev.clientX - 28}px, ${ev.clientY - 28}px)`;
      const over = document.elementFromPoint(ev.clientX, ev.clientY);
      for (const g of this.el.querySelectorAll('g.slot.drop')) g.classList.remove('drop');
      const g = over && over.closest && over.closest('g.slot.legal');
      if (g) g.classList.add('drop');
    };
    const up = (ev) => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
      if (!ghost) return;
      ghost.remove();
      this.suppressClick = true;
      setTimeout(() => { this.suppressClick = false; }, 0);
      const over = document.elementFromPoint(ev.clientX, ev.clientY);
      const g = over && over.closest && over.closest('g.slot.legal');
      if (g) this.activate(g);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
  }
}

let tipTimer = null;

function cardTip() {
  let tip = document.querySelector('[data-testid="card-tip"]');
  if (!tip) {
    tip = h('div', {class: 'card-tip', role: 'tooltip', hidden: true, dataset: {testid: 'card-tip'}});
    document.body.append(tip);
  }
  return tip;
}

function hideTip() {
  const tip = document.querySelector('[data-testid="card-tip"]');
  if (tip) tip.hidden = true;
}

/**
 * A slot or a card made a button for a while, named by its content: what pressing it does, then
 * what it shows. A slot's <title> already says what it asks for ("slot 2: yellow or red"): the
 * action goes in front of it. A card gets the action in words only a screen reader sees, before its
 * own label. Never an aria-label over the picture: a name that leaves out what is drawn would be
 * one a voice-control user cannot say.
 */
function makeButton(el, label) {
  el.setAttribute('tabindex', '0');
  el.setAttribute('role', 'button');
  const title = el.querySelector(':scope > title');
  if (title) {
    if (title.dataset.was === undefined) title.dataset.was = title.textContent;
    const asks = title.dataset.was.replace(/^[^:]*:\s*/, '');
    title.textContent = asks ? `${label}: ${asks}` : label;
    return;
  }
  const said = document.createElement('span');
  said.className = 'sr-only';
  said.dataset.said = '';
  said.textContent = `${label} `;
  el.prepend(said);
}

function unmakeButton(el) {
  for (const said of el.querySelectorAll(':scope > [data-said]')) said.remove();
  const title = el.querySelector(':scope > title');
  if (title && title.dataset.was !== undefined) {
    title.textContent = title.dataset.was;
    delete title.dataset.was;
  }
}

function swatch(c) {
  const parts = String(c).split('/');
  const bg = parts.length > 1 ? `linear-gradient(90deg, ${HEX[parts[0]]} 50%, ${HEX[parts[1]]} 50%)` : HEX[parts[0]] || '#777';
  const ink = parts.length === 1 && parts[0] === 'Y' ? '#111' : '#fff';
  return `background:${bg};color:${ink}`;
}

/** A name short enough to sit under a die: its first word, cut at six letters ("Bot 2" stays whole). */
function shortName(name) {
  const words = String(name).trim().split(/\s+/);
  if (words.length > 1 && /^\d+$/.test(words[1])) return `${words[0].slice(0, 4)}${words[1]}`;
  const first = words[0] || '?';
  return first.length > 6 ? `${first.slice(0, 5)}.` : first;
}

/** A fuse card that went off: its symbol (colour or number) or its effect, as a chip. */
export function fuseChip(f) {
  if (f.effect && f.effect !== 'symbol') {
    return h('span', {class: 'fuse-chip text', title: `${f.id}: ${t(`effect.${f.effect}`)}`}, t(`effect.${f.effect}`));
  }
  const shows = f.shows || [];
  return h('span', {class: 'fuse-chip', title: `${f.id}: ${symbolWords(shows)}`},
    shows.map((s) => (COLOURS.includes(s) ? h('span', {class: 'swatch', style: swatch(s)}, s) : h('span', {class: 'num'}, s))));
}

export {swatch};

//: the gaps between packed cards (CSS: .pack-col), and the height of a teammate's card name and of
//: a Countdown stack's label, each with its gap (CSS: .mate-name, .stack-label)
export const PACK_GAP = 8;
export const PACK_GAP_MATE = 6;
const MATE_NAME_H = 15;
const STACK_LABEL_H = 20;

/** The cards (or Countdown stacks) of a packed strip, in their own order, whatever columns hold them. */
export function packItems(cards) {
  return [...cards.children].flatMap((c) => (c.classList.contains('pack-col') ? [...c.children] : [c]));
}

/**
 * Columns for items of sizes [[w, h], ...], none taller than `limit` (at least the tallest item):
 * the tallest first, then each item where it widens the strip least, under an item as wide or
 * wider, else in a column of its own. The order depends on the sizes alone, never on a frame.
 * Returns {cols: [{items: [index...], w, h}], width, height}: what the strip measures.
 */
export function packColumns(sizes, limit, gap) {
  const top = Math.max(limit, ...sizes.map(([, ih]) => ih));
  const order = sizes.map((_, i) => i).sort((a, b) => sizes[b][1] - sizes[a][1] || a - b);
  const cols = [];
  for (const i of order) {
    const [iw, ih] = sizes[i];
    let best = null;
    let cost = iw;
    for (const col of cols) {
      if (col.h + gap + ih > top + 0.5) continue;
      const more = Math.max(0, iw - col.w);
      if (more < cost - 0.5) {
        best = col;
        cost = more;
      }
    }
    if (best) {
      best.items.push(i);
      best.w = Math.max(best.w, iw);
      best.h += gap + ih;
    } else cols.push({items: [i], w: iw, h: ih});
  }
  const width = cols.reduce((a, c) => a + c.w, 0) + gap * Math.max(0, cols.length - 1);
  return {cols, width, height: Math.max(0, ...cols.map((c) => c.h))};
}

/** [width, height] in px of a packed item (a card, or a Countdown stack with its label) at slot size `die`. */
export function itemSize(el, die, mate) {
  const wrap = el.classList.contains('card-wrap') ? el : el.querySelector('.card-wrap');
  if (!wrap || !Number(wrap.dataset.h) || !Number(wrap.dataset.s)) return [el.offsetWidth || 0, el.offsetHeight || 0];
  const scale = die / Number(wrap.dataset.s);
  const width = scale * Number(wrap.style.getPropertyValue('--w') || 240);
  return [width, scale * Number(wrap.dataset.h) + (mate ? MATE_NAME_H : 0) + (wrap === el ? 0 : STACK_LABEL_H)];
}
