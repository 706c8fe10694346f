// The room before the game: the code and link, joining, seats, ready, bots.
import {h} from './dom.js';
import {t} from './i18n.js';
import {toast} from './ui.js';
import {icon} from './icons.js';
import {gameTitle} from './words.js';

const NAME_KEY = 'fuse.name';

export function savedName() {
  try {
    return localStorage.getItem(NAME_KEY) || '';
  } catch {
    return '';
  }
}

export function saveName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    /* not remembered */
  }
}

/** The room's shareable link. */
export function roomLink(code) {
  return `${location.origin}${location.pathname}#/room/${code}`;
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t('lobby.copied'), 'info');
  } catch {
    // no clipboard permission (plain http): select the text for a manual copy
    const el = document.querySelector('[data-testid="room-link"]');
    if (el) {
      el.focus();
      el.select();
    }
    toast(t('lobby.copyManual'), 'info');
  }
}

/**
 * ctx: {room, seat (mine or null), code, join(name, seat), ready(bool), fillBots(), bot(seat, on)}
 */
export function renderLobby(ctx) {
  const {room, seat, code} = ctx;
  const seated = seat !== null && seat !== undefined;
  const seats = room ? room.seats : [];
  const me = seated ? seats[seat] : null;
  const link = roomLink(code);
  const openSeats = seats.filter((s) => s.kind === 'open').length;

  const nameInput = h('input', {id: 'join-name', type: 'text', maxlength: 24, autocomplete: 'nickname', required: true,
    value: savedName(), placeholder: t('lobby.namePlaceholder'), dataset: {testid: 'join-name'}});
  // join the given seat (null: the first open one) under the typed name, or ask for a name
  const joinAs = (seat) => {
    const name = nameInput.value.trim();
    if (!name) {
      toast(t('lobby.nameMissing'));
      nameInput.focus();
      return;
    }
    saveName(name);
    ctx.join(name, seat);
  };
  const joinForm = h('form', {class: 'inline-form', onsubmit: (e) => {
    e.preventDefault();
    joinAs(null);
  }},
  h('label', {for: 'join-name'}, t('lobby.yourName')), nameInput,
  h('button', {type: 'submit', class: 'btn primary', dataset: {testid: 'join-button'}, disabled: !openSeats}, t('lobby.join')));

  const seatRow = (s) => {
    const kind = t(`seat.${s.kind}`);
    const controls = [];
    if (s.kind === 'open') {
      if (seated) {
        controls.push(h('button', {type: 'button', class: 'btn small', dataset: {testid: `add-bot-${s.seat}`},
          onclick: () => ctx.bot(s.seat, true)}, t('lobby.addBot')));
      } else {
        controls.push(h('button', {type: 'button', class: 'btn small', dataset: {testid: `sit-${s.seat}`},
          onclick: () => joinAs(s.seat)}, t('lobby.sitHere')));
      }
    } else if (s.kind === 'bot' && seated) {
      controls.push(h('button', {type: 'button', class: 'btn small ghost', dataset: {testid: `remove-bot-${s.seat}`},
        onclick: () => ctx.bot(s.seat, false)}, t('lobby.removeBot')));
    }
    const status = [];
    if (s.kind === 'human') {
      status.push(h('span', {class: ['pill', s.ready ? 'ok' : 'wait']}, s.ready ? t('lobby.ready') : t('lobby.notReady')));
      // a picture of the connection: role img is what lets it carry a label
      status.push(h('span', {class: ['dot', s.connected ? 'on' : 'off'], role: 'img', title: s.connected ? t('seat.connected') : t('seat.away'),
        'aria-label': s.connected ? t('seat.connected') : t('seat.away')}));
    } else if (s.kind === 'bot') {
      status.push(h('span', {class: 'pill ok'}, t('lobby.ready')));
    }
    return h('li', {class: ['seat', `seat-${s.kind}`, s.seat === seat ? 'me' : ''], dataset: {testid: `seat-${s.seat}`,
      kind: s.kind, ready: s.ready ? 'true' : 'false', connected: s.connected ? 'true' : 'false'}},
    h('span', {class: 'seat-no'}, t('lobby.seatN', {n: s.seat + 1})),
    h('span', {class: 'seat-name'}, s.name || h('span', {class: 'muted'}, t('seat.empty')),
      s.seat === seat ? h('span', {class: 'you'}, ` (${t('hand.you')})`) : null),
    h('span', {class: 'seat-kind'}, s.kind === 'bot' ? icon('bot') : null, kind),
    h('span', {class: 'seat-status'}, status),
    h('span', {class: 'seat-controls'}, controls));
  };

  const opts = room ? room.options || {} : {};
  const summary = [];
  if (room) {
    summary.push(gameTitle(opts, room.title || ''));
    if (opts.difficulty) summary.push(t(`difficulty.${opts.difficulty}`));
    summary.push(t('lobby.playersN', {n: seats.length}));
    if (opts.timed === false) summary.push(t('opt.untimed'));
    if (opts.hints) summary.push(t('opt.hints'));
    if (room.spectators) summary.push(t('lobby.watching', {n: room.spectators}));
  }

  return h('div', {class: 'lobby'},
    h('h1', {class: 'sr-only'}, t('lobby.heading')),
    h('section', {class: 'panel room-head'},
      h('div', {class: 'room-code-box'},
        h('span', {class: 'muted'}, t('lobby.code')),
        // twelve characters read out in groups of four; typed with or without the spaces
        h('span', {class: 'room-code', dataset: {testid: 'room-code'}}, code.replace(/(.{4})(?=.)/g, '$1 '))),
      h('div', {class: 'room-link'},
        h('label', {for: 'room-link', class: 'muted'}, t('lobby.link')),
        h('div', {class: 'inline-form'},
          h('input', {id: 'room-link', type: 'text', readonly: true, value: link, dataset: {testid: 'room-link'},
            onfocus: (e) => e.target.select()}),
          h('button', {type: 'button', class: 'btn', dataset: {testid: 'copy-link'}, onclick: () => copy(link)}, t('lobby.copy')))),
      h('p', {class: 'summary'}, summary.filter(Boolean).join(' · '))),
    h('div', {class: 'lobby-grid'},
      h('section', {class: 'panel seats-panel'},
        h('h2', {}, t('lobby.seats')),
        h('ul', {class: 'seats'}, seats.map(seatRow)),
        h('div', {class: 'lobby-actions'},
          seated ? h('button', {type: 'button', class: ['btn', me && me.ready ? 'ok' : 'primary'],
            'aria-pressed': me && me.ready ? 'true' : 'false', dataset: {testid: 'ready-button'},
            onclick: () => ctx.ready(!(me && me.ready))}, me && me.ready ? t('lobby.unready') : t('lobby.readyGo')) : null,
          seated && openSeats ? h('button', {type: 'button', class: 'btn', dataset: {testid: 'fill-bots'},
            onclick: () => ctx.fillBots()}, t('lobby.fillBots')) : null),
        h('p', {class: 'muted small'}, t('lobby.startsWhen'))),
      h('section', {class: 'panel join-panel'},
        seated
          ? [h('h2', {}, t('lobby.youAre', {name: me ? me.name : '', n: seat + 1})), h('p', {class: 'muted'}, t('lobby.seatedHelp'))]
          : [h('h2', {}, t('lobby.joinTitle')), h('p', {class: 'muted', dataset: {testid: 'spectator-note'}},
            openSeats ? t('lobby.spectator') : t('lobby.fullWatch')),
          openSeats ? joinForm : null])));
}
