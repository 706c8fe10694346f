// The match: the ship's computer, the table, players and seat take-over, team talk, events, end.
import {h, mount, mmss, rememberFocus, restoreFocus} from './dom.js';
import {t, tOr, getLang} from './i18n.js';
import {Table, itemSize, packColumns, packItems, PACK_GAP, PACK_GAP_MATE} from './table.js';
import {ShipComputer} from './computer.js';
import {play} from './sound.js';
import {cardSvg, api} from './api.js';
import {icon} from './icons.js';
import {dieName} from './dice.js';
import {eventText, gameTitle, symbolWords} from './words.js';
import {toast} from './ui.js';
import {paceChart, paceSummary} from './pace.js';
import {followReview, momentLine, momentWords, workingWords} from './review.js';

const MAX_EVENTS = 200;
const MAX_CHAT = 30;
//: the server's wait before it makes a penalty choice itself (GET /api/options says it exactly)
const CHOICE_MS = 10000;

// The ship's log and the team talk outlive a reload of the page: the server sends a returning
// player only the table as it is now, not what was said and done before.
const logKey = (code) => `fuse.events.${code}`;

function loadLog(code) {
  try {
    const raw = sessionStorage.getItem(logKey(code));
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

function saveLog(code, data) {
  try {
    sessionStorage.setItem(logKey(code), JSON.stringify(data));
  } catch {
    /* private mode or full: the log lasts as long as the page */
  }
}

/** Scores come as the view's {win_bonus, ...} or the log's {win, ...}: one shape for display. */
export function normScore(s) {
  s = s || {};
  const pick = (...keys) => {
    for (const k of keys) if (s[k] !== undefined && s[k] !== null) return s[k];
    return 0;
  };
  return {win: pick('win_bonus', 'win'), time: pick('time_bonus', 'time'), bombs: pick('bomb_points', 'bombs'),
    fuses: pick('fuse_points', 'fuses'), sparks: pick('spark_points', 'sparks'), total: pick('total')};
}

/** The rulebook's score lines and the total (data-testid score-total). */
export function scoreTable(score) {
  const s = normScore(score);
  const rows = [['score.win', s.win], ['score.time', s.time], ['score.bombs', s.bombs], ['score.fuses', s.fuses]];
  if (s.sparks) rows.push(['score.sparks', s.sparks]);
  return h('table', {class: 'score-table'}, h('tbody', {},
    rows.map(([k, v]) => h('tr', {}, h('th', {scope: 'row'}, t(k)), h('td', {}, v))),
    h('tr', {class: 'total'}, h('th', {scope: 'row'}, t('score.total')), h('td', {dataset: {testid: 'score-total'}}, s.total))));
}

export class PlayView {
  /** ctx: {send(msg), act(actionText), seat(), room(), code} */
  constructor(ctx) {
    this.ctx = ctx;
    this.computer = new ShipComputer();
    this.table = new Table({interactive: true, send: (a) => ctx.act(a), onSelect: () => this.updateAbout(),
      choiceMs: CHOICE_MS});
    api.options().then((o) => {
      if (o && Number.isFinite(o.choice_timeout_s)) this.table.choiceMs = o.choice_timeout_s * 1000;
      if (o && o.decision_kinds) this.table.decisionKinds = o.decision_kinds;
    }).catch(() => { /* the usual 10 s */ });
    const saved = loadLog(ctx.code);
    this.events = saved && Array.isArray(saved.events) ? saved.events : [];
    this.chat = saved && Array.isArray(saved.chat) ? saved.chat : [];
    this.savedSeq = saved ? saved.seq || 0 : 0;
    this.outcome = null;
    this.logId = null;
    this.frame = null;
    this.fuseTimer = null;
    this.onResize = () => {
      clearTimeout(this.resizeTimer);
      this.resizeTimer = setTimeout(() => this.fit(), 120);
    };
    window.addEventListener('resize', this.onResize);
    this.build();
  }

  build() {
    this.topEl = h('div', {class: 'play-top'});
    this.endEl = h('div', {class: 'end-slot'});
    this.playersEl = h('section', {class: 'panel players', 'aria-label': t('play.players')});
    this.talkEl = h('section', {class: 'panel talk', 'aria-label': t('play.talk')});
    // lists that scroll are reachable from the keyboard
    this.logList = h('ol', {class: 'event-log', 'aria-live': 'polite', 'aria-relevant': 'additions', tabindex: '0',
      'aria-label': t('play.events'), dataset: {testid: 'event-log'}});
    this.tableCol = h('div', {class: 'table-col'}, this.table.el);
    // on a phone the team, the talk and the log are a sheet over the table, one tap away
    this.sideEl = h('aside', {class: 'side-col', id: 'side-sheet', dataset: {testid: 'side-sheet'}},
      h('div', {class: 'sheet-head'}, h('button', {type: 'button', class: 'btn small', dataset: {testid: 'talk-close'},
        onclick: () => this.openSheet(false)}, t('talk.close'))),
      this.playersEl, this.talkEl,
      h('section', {class: 'panel events'}, h('h2', {}, t('play.events')), this.logList));
    this.unread = 0;
    this.tickerEl = h('span', {class: 'ticker', dataset: {testid: 'talk-ticker'}, 'aria-live': 'polite'});
    this.talkButton = h('button', {type: 'button', class: 'btn talk-open', 'aria-controls': 'side-sheet',
      'aria-expanded': 'false', dataset: {testid: 'talk-open'}, onclick: () => this.openSheet(true)});
    // on a phone the team's cards are under the row: one tap takes the table there and back
    this.teamButton = h('button', {type: 'button', class: 'btn team-jump', dataset: {testid: 'team-jump'},
      onclick: () => this.jumpToTeam()}, t('play.teamJump'));
    this.talkBar = h('div', {class: 'talk-bar'}, this.talkButton, this.tickerEl, this.teamButton);
    this.el = h('div', {class: 'play'},
      this.headingEl = h('h1', {class: 'sr-only', tabindex: '-1', dataset: {testid: 'play-heading'}}, t('play.heading')),
      this.topEl, this.endEl,
      h('div', {class: 'play-main'}, this.tableCol, this.sideEl),
      this.talkBar);
    this.renderTalkButton();
    this.renderTop();
    this.renderPlayers();
    this.renderTalk();
    this.renderEvents();
  }

  /** Rebuild everything in the current language. */
  relabel() {
    const old = this.el;
    this.build();
    old.replaceWith(this.el);
    if (this.frame) this.table.update({names: this.names()});
    if (this.outcome) this.renderEnd();
  }

  /** Where the keyboard starts when the table appears. */
  focusStart() {
    this.headingEl.focus({preventScroll: true});
  }

  names() {
    const room = this.ctx.room();
    return room ? room.seats.map((s) => s.name) : [];
  }

  // --------------------------------------------------------------- frames
  /** A state frame; resolves once the table shows it. */
  onState(frame) {
    if (!this.frame && frame.seq < this.savedSeq) {
      // a log kept from another game in a room of the same code (the server restarted)
      this.events = [];
      this.chat = [];
      this.renderEvents();
      this.renderChatList();
    }
    this.frame = frame;
    this.computer.update(frame.clock, frame.view);
    for (const ev of frame.events || []) this.onEvent(ev);
    const drawn = this.table.update({view: frame.view, moves: frame.moves, hints: frame.hints || null,
      names: this.names(), seat: this.ctx.seat(), choices: frame.choices || {}});
    this.renderTop();
    this.renderPlayers();
    if (frame.view.outcome && !this.outcome) this.finish(frame.view.outcome, null);
    this.save();
    return Promise.resolve(drawn).then(() => this.fit());
  }

  /**
   * Size and pack the cards for the screen, once for each deal of cards on the table (never for the
   * buttons that come and go: a die or a slot does not move under the pointer during a turn).
   *
   * A desktop shows the clock, the roll, one's own cards beside the row, and every teammate's
   * hand under them, without scrolling: the largest slots that fit, at least 28 px for one's own
   * cards and the row and 16 px for the teammates' (14 px in an epic game of six and more). Cards
   * are packed in columns (Table.pack), so a tall card stands beside short ones. A phone keeps
   * the clock, the roll, one's own cards and the row in view (slots of at least 24 px); each strip
   * of cards scrolls sideways, and the team is one tap away (the button by the talk).
   */
  fit() {
    const col = this.tableCol;
    if (!col.isConnected || !this.frame) return;
    const top = document.getElementById('top');
    if (top) document.documentElement.style.setProperty('--header-h', `${top.offsetHeight}px`);
    const table = this.table;
    const phone = window.matchMedia('(max-width: 700px)').matches;
    const wraps = [...table.el.querySelectorAll('.card-wrap')];
    const sig = [innerWidth, innerHeight, Boolean(this.outcome), Boolean(table.el.querySelector('.middle.choosing')),
      (this.frame.view.hands || []).length, wraps.map((c) => `${c.dataset.seat ?? 'row'}:${c.dataset.card}`).sort().join()].join('|');
    this.markScrolling();
    if (sig === this.fitSig) return;
    this.fitSig = sig;
    const playTop = this.topEl.getBoundingClientRect();
    this.el.style.setProperty('--sheet-max', `${Math.max(200, innerHeight - playTop.bottom - 6)}px`);
    const focused = document.activeElement;
    const layout = phone ? this.fitPhone() : this.fitDesktop();
    this.el.style.setProperty('--die', `${layout.die}px`);
    this.el.style.setProperty('--die-mate', `${layout.mate}px`);
    table.pack(layout);
    if (focused && focused !== document.activeElement && focused.isConnected) focused.focus({preventScroll: true});
    this.markScrolling();
  }

  /**
   * The layout of a desktop (see fit), worked out from a model of the table rather than by laying
   * the page out for every try: each card's size follows from its picture, and the panels' frames,
   * heads and gaps are measured once. The chosen layout is then drawn and measured; should the page
   * disagree with the model, the next choice is tried.
   */
  fitDesktop() {
    const table = this.table;
    const model = desktopModel(this.tableCol, table.el);
    const epic = (this.frame.view.hands || []).length >= 6;
    const floor = epic ? 14.5 : 16.5;
    const big = Math.max(30, Math.round(innerHeight / 19));
    const sizes = [];
    for (let d = big; d > 30; d -= 2) sizes.push(d);
    sizes.push(30, 28.5);
    const mateSizes = model.mates.length ? [28, 26, 24, 22, 20, 18, 16.5, 14.5, 13, 12, 11, 10] : [floor];
    // every way to lay the table out, best first: the largest slots of one's own, then of the team's
    const choices = [];
    for (const d of sizes) {
      // the teammates' cards grow with one's own: a big hand beside tiny teammates is no team table
      const mateMax = Math.min(28, Math.max(floor, Math.round(d * 0.7)));
      const mateMin = d === 28.5 ? 0 : Math.max(floor, Math.min(24, Math.round(d * 0.45)));
      for (const m of mateSizes) {
        if (model.mates.length && (m > mateMax || m < mateMin)) continue;
        let best = null;
        for (const layout of model.layouts(d, m)) {
          const r = model.measure(layout);
          if (r.wide) continue;
          if (!best || r.bottom < best.bottom - 0.5) best = {...r, layout};
        }
        if (best) choices.push({...best, small: m < floor, d, m});
      }
    }
    const fitting = choices.filter((c) => c.bottom <= model.room && (!c.small || c.d === 28.5));
    const ordered = [...fitting, ...choices.filter((c) => !fitting.includes(c)).sort((a, b) => a.bottom - b.bottom)];
    // drawn and measured: the first the page agrees with
    for (const c of ordered.slice(0, 6)) {
      this.el.style.setProperty('--die', `${c.layout.die}px`);
      this.el.style.setProperty('--die-mate', `${c.layout.mate}px`);
      table.pack(c.layout);
      if (model.drawnFits()) return c.layout;
    }
    return ordered.length ? ordered[0].layout : {die: 28.5, mate: floor, limit: 0, mateLimit: 0};
  }

  /** The layout of a phone: see fit. */
  fitPhone() {
    const col = this.tableCol;
    const table = this.table;
    const middle = table.el.querySelector('.middle');
    for (let d = 36; d >= 24.5; d -= 1.5) {
      const layout = {die: d, mate: Math.max(16.5, Math.round(d * 0.6)), limit: 0, mateLimit: 0};
      this.el.style.setProperty('--die', `${d}px`);
      table.pack(layout);
      const bottom = middle ? middle.getBoundingClientRect().bottom - col.getBoundingClientRect().top + col.scrollTop : 0;
      if (bottom <= col.clientHeight + 1) return layout;
    }
    return {die: 24.5, mate: 16.5, limit: 0, mateLimit: 0};
  }

  /** The teammates' hands into view, or back to one's own cards when they are there already. */
  jumpToTeam() {
    const others = this.table.el.querySelector('.hands.others');
    if (!others) return;
    const col = this.tableCol;
    const r = others.getBoundingClientRect();
    const c = col.getBoundingClientRect();
    const shown = r.top >= c.top - 1 && r.top < c.bottom - 40;
    if (shown && col.scrollTop > 0) col.scrollTo({top: 0});
    else col.scrollTo({top: col.scrollTop + r.top - c.top});
  }

  /** A strip of cards wider than the screen says so: it shows its edge and scrolls sideways. */
  markScrolling() {
    for (const cards of this.table.el.querySelectorAll('.cards[data-pack]')) {
      cards.classList.toggle('scrolls', cards.scrollWidth > cards.clientWidth + 1);
    }
  }

  onRoom() {
    this.renderTop();
    this.renderPlayers();
    if (this.frame) this.table.update({names: this.names()});
    if (this.outcome) {
      const room = this.ctx.room();
      if (room && room.log_id && !this.logId) {
        this.logId = room.log_id;
        this.renderEnd();
      }
    }
  }

  onOver(msg) {
    // the BDT Log's database is away for now: the server keeps the game and tries again
    this.logWaits = Boolean(msg.log_waits);
    this.finish(msg.outcome, msg.log_id);
  }

  finish(outcome, logId) {
    const first = !this.outcome;
    this.outcome = outcome || this.outcome;
    if (logId !== null && logId !== undefined) this.logId = logId;
    if (first) play(this.outcome && this.outcome.won ? 'won' : 'lost');
    const scroll = first;
    this.computer.update({left_ms: this.outcome ? this.outcome.time_left_ms : null, running: false}, this.frame ? this.frame.view : null);
    this.renderEnd();
    if (scroll) {
      this.endEl.scrollIntoView({behavior: 'smooth', block: 'start'});
      // the keyboard goes to the result: a screen reader reads it, Tab reaches its buttons
      const head = this.endEl.querySelector('h2');
      if (head) head.focus({preventScroll: true});
    }
  }

  save() {
    saveLog(this.ctx.code, {seq: this.frame ? this.frame.seq : 0, events: this.events, chat: this.chat});
  }

  nameOf(seat) {
    const room = this.ctx.room();
    const s = room && room.seats[seat];
    return (s && s.name) || t('player.n', {n: seat + 1});
  }

  onEvent(ev) {
    // why a spark is drawn, kept with the line: a fuse card makes every player draw one, then
    // the sparks of Step 4 are for the dice a player did not take
    if (ev.kind === 'fuse_activated' && ev.effect === 'spark') this.fuseSparks = (this.frame && this.frame.view.players) || 1;
    if (ev.kind === 'spark_drawn' || ev.kind === 'no_spark_left') {
      if (ev.why === undefined) ev.why = this.fuseSparks > 0 ? 'fuse' : 'short';
      if (this.fuseSparks > 0) this.fuseSparks -= 1;
    }
    this.events.push(ev);
    if (this.events.length > MAX_EVENTS) this.events.shift();
    this.logList.append(this.eventItem(ev));
    while (this.logList.children.length > MAX_EVENTS) this.logList.firstChild.remove();
    this.logList.scrollTop = this.logList.scrollHeight;
    switch (ev.kind) {
      case 'dice_rolled':
      case 'dice_rerolled':
      case 'penalty_rolled':
        play('roll');
        break;
      case 'die_placed':
        play('place');
        break;
      case 'bomb_defused':
      case 'spark_defused':
        play('defuse');
        break;
      case 'fuse_activated':
        play('alarm');
        this.showFuse(ev);
        break;
      case 'not_six':
      case 'six_rolled':
        if (ev.seat === this.ctx.seat()) {
          toast(ev.kind === 'six_rolled' ? t('six.got') : t('six.rolled', {face: ev.face}), 'info');
        }
        break;
      default:
        break;
    }
  }

  eventItem(ev) {
    let text;
    if (ev.kind === 'signal') {
      // drawn at render time, so that a language switch rewords it
      text = `${ev.name || this.nameOf(ev.seat)}: ${t(`signal.${ev.signal}`)}` + (ev.about ? ` (${dieName(ev.about)})` : '');
    } else {
      text = eventText(ev, (seat) => this.nameOf(seat));
    }
    return h('li', {class: `ev ev-${ev.kind}`}, text);
  }

  onChat(msg) {
    this.chat.push(msg);
    if (this.chat.length > MAX_CHAT) this.chat.shift();
    this.renderChatList();
    this.news(`${msg.name || t('player.n', {n: msg.seat + 1})}: ${msg.text}`);
    this.save();
  }

  /** A message for the team: on a phone it shows over the table for a moment and counts as unread. */
  news(text) {
    this.tickerEl.textContent = text;
    this.tickerEl.classList.remove('fresh');
    void this.tickerEl.offsetWidth; // restart the highlight
    this.tickerEl.classList.add('fresh');
    if (!this.sheetOpen) {
      this.unread += 1;
      this.renderTalkButton();
    }
  }

  renderTalkButton() {
    mount(this.talkButton, icon('chat'), ' ', t('play.talk'),
      this.unread ? h('span', {class: 'badge', dataset: {testid: 'talk-unread'}}, String(this.unread)) : null);
  }

  openSheet(open) {
    this.sheetOpen = open;
    this.el.classList.toggle('sheet-open', open);
    this.talkButton.setAttribute('aria-expanded', open ? 'true' : 'false');
    if (open) {
      this.unread = 0;
      this.renderTalkButton();
      const first = this.sideEl.querySelector('[data-testid="talk-close"]');
      if (first) first.focus();
    } else {
      this.talkButton.focus();
    }
  }

  onSignal(msg) {
    this.table.showSignal(msg);
    const die = msg.die !== null && msg.die !== undefined ? this.table.findDie(msg.die) : null;
    const ev = {kind: 'signal', seat: msg.seat, name: msg.name, signal: msg.signal,
      about: die ? {colours: die.colours, face: die.face, as: die.as || null} : null};
    this.onEvent(ev);
    if (msg.seat !== this.ctx.seat()) this.news(this.eventItem(ev).textContent);
    this.save();
  }

  /** A fuse card going off: shown big for two seconds with its effect. */
  async showFuse(ev) {
    let el = document.querySelector('.fuse-alert');
    if (!el) {
      el = h('div', {class: 'fuse-alert', role: 'alert', dataset: {testid: 'fuse-alert'}});
      document.body.append(el);
    }
    const effect = ev.effect && ev.effect !== 'symbol' ? t(`effect.${ev.effect}`)
      : t('effect.symbolLong', {shows: symbolWords(ev.shows)});
    const art = h('div', {class: 'fuse-art'});
    mount(el, h('div', {class: 'fuse-panel'}, h('div', {class: 'fuse-title'}, t('fuse.alert')), art,
      h('div', {class: 'fuse-effect'}, effect)));
    el.classList.add('show');
    clearTimeout(this.fuseTimer);
    this.fuseTimer = setTimeout(() => el.classList.remove('show'), 2200);
    if (ev.card) {
      try {
        art.innerHTML = await cardSvg(ev.card, false, getLang());
      } catch {
        art.textContent = ev.card;
      }
    }
  }

  // ---------------------------------------------------------------- parts
  renderTop() {
    const room = this.ctx.room();
    const v = this.frame ? this.frame.view : null;
    const seat = this.ctx.seat();
    // alone at the table there is nobody to signal or write to (a spectator still may)
    this.talkEl.hidden = Boolean(v && v.players === 1 && seat !== null);
    this.teamButton.hidden = Boolean(v && v.players === 1);
    const status = this.ctx.connection();
    // every frame redraws the bar: the seat's button keeps the keyboard where it was
    const focus = rememberFocus();
    mount(this.topEl,
      this.computer.box,
      h('div', {class: 'top-info'},
        h('div', {class: 'game-title'}, room ? gameTitle(room.options, room.title) : '', ' ',
          h('span', {class: 'muted small'}, t('play.room'), ' ', h('span', {dataset: {testid: 'room-code'}}, this.ctx.code))),
        v ? h('div', {class: 'muted small'}, t(`difficulty.${v.difficulty}`), ' · ', t('lobby.playersN', {n: v.players}),
          seat === null ? [' · ', h('span', {class: 'pill'}, t('play.spectating'))] : null) : null,
        seat !== null && room && room.seats[seat] ? h('div', {class: 'small'}, t('play.youPlay'), ' ',
          h('b', {class: 'my-name', dataset: {testid: 'my-name'}}, room.seats[seat].name || t('player.n', {n: seat + 1})),
          ' ', h('span', {class: 'muted'}, t('lobby.seatN', {n: seat + 1}))) : null,
        h('div', {class: ['conn', status], dataset: {testid: 'connection', state: status}},
          status === 'open' ? '' : t(`conn.${status}`))),
      // on a phone the score and the fuse cards left stay by the clock, whatever the table shows
      v ? h('div', {class: 'top-score', dataset: {testid: 'top-score'}},
        h('span', {}, t('info.score'), ' ', h('b', {}, (v.score || {}).total ?? 0)),
        h('span', {}, t('info.fusesShort'), ' ', h('b', {}, `${v.fuse_cards_not_gone_off}/${v.fuse_cards_in_game}`))) : null,
      this.seatControls());
    restoreFocus(focus, this.topEl);
  }

  seatControls() {
    const room = this.ctx.room();
    const seat = this.ctx.seat();
    if (seat === null || !room || this.outcome) return null;
    const me = room.seats[seat];
    if (!me) return null;
    if (me.kind === 'bot' || me.autoplay) {
      return h('button', {type: 'button', class: 'btn ok', dataset: {testid: 'autoplay-off', focus: 'seat-control'},
        onclick: () => this.ctx.send({type: 'bot', seat, on: false})}, t('play.takeBack'));
    }
    return h('button', {type: 'button', class: 'btn ghost', dataset: {testid: 'autoplay', focus: 'seat-control'},
      onclick: () => this.ctx.send({type: 'bot', seat, on: true})}, t('play.botForMe'));
  }

  renderPlayers() {
    const room = this.ctx.room();
    const seat = this.ctx.seat();
    const v = this.frame ? this.frame.view : null;
    const seats = room ? room.seats : [];
    mount(this.playersEl, h('h2', {}, t('play.players')),
      h('ul', {class: 'player-list'}, seats.map((s) => {
        const hand = v ? (v.hands || [])[s.seat] : null;
        const acting = v && (v.to_act || {})[String(s.seat)];
        const canTakeOver = seat !== null && s.seat !== seat && s.kind === 'human' && !s.connected && !s.autoplay &&
          !this.outcome;
        return h('li', {class: ['player', s.seat === seat ? 'me' : '', acting ? 'acting' : ''], dataset: {testid: `seat-${s.seat}`,
          kind: s.kind, connected: s.connected ? 'true' : 'false'}},
        h('span', {class: ['dot', s.kind === 'bot' || s.connected ? 'on' : 'off'], role: 'img',
          'aria-label': s.kind === 'bot' ? t('seat.bot') : (s.connected ? t('seat.connected') : t('seat.away'))}),
        h('span', {class: 'player-name'}, s.kind === 'bot' ? icon('bot') : null, s.name || t('player.n', {n: s.seat + 1}),
          s.seat === seat ? ` (${t('hand.you')})` : ''),
        s.kind === 'human' && s.autoplay ? h('span', {class: 'tag', dataset: {testid: `autoplay-tag-${s.seat}`}}, t('play.botPlaying')) : null,
        v && s.seat === v.leader ? h('span', {class: 'tag leader'}, t('hand.leader')) : null,
        hand && hand.done ? h('span', {class: 'tag done'}, t('hand.done')) : null,
        acting ? h('span', {class: 'tag acting'}, t(`decide.${acting.kind}`)) : null,
        canTakeOver ? h('button', {type: 'button', class: 'btn small', dataset: {testid: `takeover-${s.seat}`},
          onclick: () => this.ctx.send({type: 'bot', seat: s.seat, on: true})}, t('play.letBot')) : null);
      })),
      // only a phone shows it (in the sheet): a desktop's frames do not build it for nothing
      v && this.table.view && window.matchMedia('(max-width: 700px)').matches ? this.sheetInfo() : null);
  }

  /** The game at a glance for the phone's sheet, where the table has no room for it (CSS: .sheet-info). */
  sheetInfo() {
    const info = this.table.renderInfo();
    for (const el of [info, ...info.querySelectorAll('[data-testid], [tabindex]')]) {
      el.removeAttribute('data-testid');
      el.removeAttribute('tabindex');
    }
    info.classList.add('sheet-info');
    return info;
  }

  /** Which die the signal buttons point at (the selected one). */
  aboutText() {
    const selected = this.table.selected;
    const die = selected !== null ? this.table.findDie(selected) : null;
    return die ? t('talk.aboutDie', {die: dieName(die)}) : t('talk.noDie');
  }

  updateAbout() {
    // only the words change: the chat box keeps what is being typed
    const about = this.aboutText();
    const el = this.talkEl.querySelector('[data-testid="signal-about"]');
    if (el) el.textContent = about;
    for (const b of this.talkEl.querySelectorAll('button.sig')) b.title = about;
  }

  renderTalk() {
    const seat = this.ctx.seat();
    const about = this.aboutText();
    const sig = (kind) => h('button', {type: 'button', class: `btn small sig sig-${kind}`, dataset: {testid: `signal-${kind}`},
      disabled: seat === null, title: about,
      onclick: () => this.ctx.send({type: 'signal', signal: kind, die: this.table.selected})}, t(`signal.${kind}`));
    const input = h('input', {type: 'text', maxlength: 200, id: 'chat-input', autocomplete: 'off', placeholder: t('talk.placeholder'),
      disabled: seat === null, dataset: {testid: 'chat-input'}});
    this.chatList = h('ol', {class: 'chat-list', tabindex: '0', 'aria-label': t('play.talk'), dataset: {testid: 'chat-list'}});
    mount(this.talkEl, h('h2', {}, t('play.talk')),
      seat === null ? h('p', {class: 'muted small'}, t('talk.spectator')) : null,
      h('div', {class: 'signals'}, sig('need'), sig('take'), sig('wait'),
        h('span', {class: 'muted small', dataset: {testid: 'signal-about'}}, about)),
      this.chatList,
      h('form', {class: 'inline-form chat-form', onsubmit: (e) => {
        e.preventDefault();
        const text = input.value.trim().slice(0, 200);
        if (!text) return;
        this.ctx.send({type: 'chat', text});
        input.value = '';
      }}, h('label', {for: 'chat-input', class: 'sr-only'}, t('talk.placeholder')), input,
      h('button', {type: 'submit', class: 'btn small', disabled: seat === null, dataset: {testid: 'chat-send'}}, t('talk.send'))));
    this.renderChatList();
  }

  renderChatList() {
    if (!this.chatList) return;
    mount(this.chatList, this.chat.map((m) => h('li', {}, h('b', {}, m.name || t('player.n', {n: m.seat + 1})), ': ', m.text)));
    this.chatList.scrollTop = this.chatList.scrollHeight;
  }

  renderEvents() {
    mount(this.logList, this.events.map((ev) => this.eventItem(ev)));
    this.logList.scrollTop = this.logList.scrollHeight;
  }

  renderEnd() {
    const o = this.outcome;
    if (!o) {
      mount(this.endEl);
      return;
    }
    const logged = this.logId !== null && this.logId !== undefined;
    if (logged && this.endPace === undefined) {
      // the game's pace, as its record in the log tells it, pictured once it has come
      this.endPace = null;
      api.pace(this.logId).then((r) => {
        this.endPace = r.pace ? {pace: r.pace, end: r.end_ms} : false;
        if (!this.gone) this.renderEnd();
      }).catch(() => { this.endPace = false; });
    }
    const pace = this.endPace ? h('div', {class: 'end-pace'},
      h('h3', {class: 'section-title'}, t('pace.title')),
      paceChart(this.endPace.pace, this.endPace.end, null, null),
      h('p', {class: 'muted small', dataset: {testid: 'pace-summary'}}, paceSummary(this.endPace.pace, this.endPace.end))) : null;
    if (logged && this.endReview === undefined) this.askReview();
    const logLink = logged
      ? h('a', {class: 'btn', href: `#/log/${this.logId}`, dataset: {testid: 'log-link'}}, t('end.inLog'))
      : h('span', {class: 'muted small', dataset: {testid: 'log-pending'}}, t(this.logWaits ? 'end.logWaits' : 'end.logPending'));
    // the replay with its review, at the costliest moment once the review has named it
    const first = this.endReview && this.endReview.review && (this.endReview.review.moments || [])[0];
    const reviewLink = logged ? h('a', {class: 'btn', dataset: {testid: 'review-link'},
      href: first ? `#/log/${this.logId}?step=${first.step}` : `#/log/${this.logId}`}, t('review.open')) : null;
    const focus = rememberFocus(); // the result is drawn again as the log answers: the keyboard stays
    mount(this.endEl, h('section', {class: ['panel', 'end', o.won ? 'won' : 'lost'], dataset: {testid: 'end-screen',
      won: o.won ? 'true' : 'false'}},
    h('div', {class: 'end-head'},
      h('h2', {tabindex: '-1', dataset: {focus: 'end-head'}}, o.won ? t('end.won') : t('end.lost')),
      h('p', {class: 'reason', dataset: {testid: 'end-reason'}}, this.endWords(o)),
      h('p', {class: 'muted'}, o.time_left_ms === null || o.time_left_ms === undefined ? t('end.untimed')
        : t('end.timeLeft', {time: mmss(o.time_left_ms)}), o.official === false ? ` · ${t('end.unofficial')}` : '')),
    scoreTable(o.score),
    pace,
    this.endMoments(),
    h('div', {class: 'end-actions'}, reviewLink, logLink,
      h('a', {class: 'btn primary', href: '#/', dataset: {testid: 'new-game'}}, t('end.newGame')))));
    restoreFocus(focus, this.endEl);
  }

  /** Ask for the logged game's review once (the server makes it while the end screen shows). */
  askReview() {
    this.endReview = null;
    followReview(this.logId, () => this.gone, (r) => {
      this.endReview = r;
      this.renderEnd();
    });
  }

  /** The review's key moments, one line each (a link to the step of the replay that shows it). */
  endMoments() {
    const r = this.endReview;
    if (!r) return null;
    if (r.status === 'working') {
      return h('p', {class: 'end-review muted small review-line', role: 'status', dataset: {testid: 'end-review-working'}},
        h('span', {class: 'spinner', 'aria-hidden': 'true'}), workingWords(r));
    }
    if (r.status !== 'ready') return null; // the replay says why; the end screen stays as it was
    const names = this.names();
    const moments = (r.review.moments || []).slice(0, 3);
    return h('section', {class: 'end-review', dataset: {testid: 'end-review'}},
      h('h3', {class: 'section-title'}, t('review.keyMoments')),
      moments.length
        ? h('ul', {class: 'end-moments'}, moments.map((m) => h('li', {},
          h('a', {href: `#/log/${this.logId}?step=${m.step}`, title: momentWords(m, names),
            dataset: {testid: 'end-moment', step: String(m.step)}}, momentLine(m, names)))))
        : h('p', {class: 'muted small'}, t('review.noMoments')));
  }

  /**
   * Why the game ended, as it happened: a game won with unfinished cards still in hands (the
   * middle is empty, and those need not be defused) says so rather than "every bomb".
   */
  endWords(o) {
    const v = this.frame ? this.frame.view : null;
    if (o.reason === 'bombs-defused' && v) {
      const left = (v.hands || []).reduce((n, hd) => n + hd.cards.filter((c) => !c.complete && c.kind !== 'spark').length, 0);
      if (left) return left === 1 ? t('reason.middleClearOne') : t('reason.middleClear', {n: left});
    }
    return tOr(`reason.${o.reason}`, o.reason);
  }

  handleKey(e) {
    if (this.outcome) return false;
    return this.table.handleKey(e);
  }

  destroy() {
    this.gone = true;
    window.removeEventListener('resize', this.onResize);
    clearTimeout(this.resizeTimer);
    this.computer.destroy();
    this.table.destroy();
    clearTimeout(this.fuseTimer);
    const alert = document.querySelector('.fuse-alert');
    if (alert) alert.remove();
  }
}

/**
 * A model of the desktop table for PlayView.fitDesktop: the band under the roll holds one's own
 * cards, the row and the teammates' hands, each a panel around a packed strip of cards (Table.pack),
 * laid out by the band's flex wrap (side by side where they fit) or split (one's own cards over the
 * team's, the row beside them). Sizes of cards come from their pictures; the panels' frames and
 * heads are measured once, here.
 */
function desktopModel(col, tableEl) {
  const band = tableEl.querySelector('.band');
  const colTop = col.getBoundingClientRect().top - col.scrollTop;
  band.classList.remove('split');
  band.querySelector('.band-left').style.width = '';
  const px = (v) => parseFloat(v) || 0;
  // a head's own width (its words and tags on one line), not the width its panel gives it now
  const heads = [...band.querySelectorAll('.hand-head, .middle-head')];
  for (const head of heads) head.style.width = 'max-content';
  const headWidth = new Map(heads.map((head) => [head, head.getBoundingClientRect().width]));
  for (const head of heads) head.style.width = '';
  const panel = (el, kind) => {
    if (!el) return null;
    const cs = getComputedStyle(el);
    const cards = el.querySelector('.cards');
    const r = el.getBoundingClientRect();
    const c = cards.getBoundingClientRect();
    const head = el.querySelector('.hand-head, .middle-head');
    return {kind, el, items: packItems(cards),
      padW: px(cs.paddingLeft) + px(cs.paddingRight) + px(cs.borderLeftWidth) + px(cs.borderRightWidth),
      above: c.top - r.top, below: r.bottom - c.bottom,
      headW: head ? headWidth.get(head) : 0, choosing: !cards.dataset.pack};
  };
  const own = panel(band.querySelector('.hands.own .hand'), 'own');
  const middle = panel(band.querySelector('.middle'), 'row');
  const mates = [...band.querySelectorAll('.hands.others .hand')].map((el) => panel(el, 'mate'));
  const gap = px(getComputedStyle(band).columnGap);
  const matesGap = mates.length ? px(getComputedStyle(band.querySelector('.hands.others')).columnGap) : 0;
  const B = band.clientWidth;
  const bandTop = band.getBoundingClientRect().top - colTop;
  const room = col.clientHeight - 4;
  const tallest = (p, die, mate) => Math.max(0, ...p.items.map((el) => itemSize(el, die, mate)[1]));

  // a panel at a layout: its strip packed, then its width (head or cards) and height
  const sized = (p, layout) => {
    const mate = p.kind === 'mate';
    const die = mate ? layout.mate : layout.die;
    const limit = mate ? layout.mateLimit : p.kind === 'row' ? layout.rowLimit || layout.limit : layout.limit;
    const strip = p.choosing ? {width: p.el.querySelector('.cards').scrollWidth, height: p.el.querySelector('.cards').scrollHeight}
      : packColumns(p.items.map((el) => itemSize(el, die, mate)), limit || 0, mate ? PACK_GAP_MATE : PACK_GAP);
    return {w: p.padW + Math.max(p.headW, strip.width), strip: p.padW + strip.width, h: p.above + strip.height + p.below};
  };
  // items of a flex wrap, in lines no wider than `width`: the height of it all, and whether one is too wide
  const wrapped = (boxes, width, between) => {
    let h = 0;
    let wide = false;
    let line = null;
    for (const b of boxes) {
      if (b.strip > width + 1) wide = true;
      if (line && line.w + between + b.w <= width + 0.5) {
        line.w += between + b.w;
        line.h = Math.max(line.h, b.h);
      } else {
        if (line) h += line.h + between;
        line = {w: Math.min(b.w, width), h: b.h};
      }
    }
    return {h: line ? h + line.h : 0, wide};
  };

  return {
    room,
    mates,
    /** The layouts worth trying at slot sizes d and m. */
    layouts(d, m) {
      const out = [];
      const t = Math.max(own ? tallest(own, d, false) : 0, tallest(middle, d, false));
      const tm = Math.max(0, ...mates.map((p) => tallest(p, m, true)));
      for (const k of [1, 1.15, 1.3, 1.5, 1.75, 2, 2.5, 3]) {
        for (const km of mates.length ? [1, 1.5] : [1]) out.push({die: d, mate: m, limit: t * k, mateLimit: tm * km});
      }
      if (mates.length && own) {
        // the left column as wide as one's own cards, or wide enough for 2, 3... teammates a row
        const to = tallest(own, d, false);
        for (const k of [1, 1.3, 1.75]) {
          for (let across = 1; across <= mates.length; across++) {
            out.push({die: d, mate: m, limit: to * k, mateLimit: tm, split: true, across});
          }
        }
      }
      return out;
    },
    /** Where the table would end (px from the column's top) and whether a strip would stick out. */
    measure(layout) {
      const hands = mates.map((p) => sized(p, layout));
      if (layout.split) {
        const o = sized(own, layout);
        const row = hands.slice(0, layout.across || 1);
        const across = row.reduce((a, x) => a + x.w, 0) + matesGap * (row.length - 1);
        const leftWidth = Math.ceil(Math.max(o.w, across, ...hands.map((x) => x.w))) + 1;
        const team = wrapped(hands, leftWidth, matesGap);
        const midWidth = B - leftWidth - gap;
        layout.leftWidth = leftWidth;
        layout.rowLimit = room - bandTop - middle.above - middle.below - 2;
        const mid = sized(middle, layout);
        const left = o.h + gap + team.h;
        return {bottom: bandTop + Math.max(left, mid.h), wide: team.wide || mid.strip > midWidth + 1 || midWidth < 160};
      }
      const boxes = [];
      if (own) boxes.push(sized(own, layout));
      boxes.push(sized(middle, layout));
      let team = null;
      if (hands.length) {
        const w = hands.reduce((a, x) => a + x.w, 0) + matesGap * (hands.length - 1);
        const inside = wrapped(hands, Math.min(w, B), matesGap);
        team = {w, strip: Math.max(...hands.map((x) => x.strip)), h: inside.h, wide: inside.wide};
        boxes.push(team);
      }
      const all = wrapped(boxes, B, gap);
      return {bottom: bandTop + all.h, wide: all.wide || Boolean(team && team.wide)};
    },
    /** Does the page, as drawn now, keep every card inside the band and the band inside the room? */
    drawnFits() {
      const right = band.getBoundingClientRect().right;
      const out = [...band.querySelectorAll('.pack-col, .choice')].some((c) => c.getBoundingClientRect().right > right + 1);
      return !out && band.getBoundingClientRect().bottom - colTop <= room + 1;
    },
  };
}
