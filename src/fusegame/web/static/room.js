// #/room/CODE: one socket, the lobby before the game, the match and the end screen after it.
import {h, mount} from './dom.js';
import {t} from './i18n.js';
import {api} from './api.js';
import {RoomSocket, getToken, setToken} from './net.js';
import {renderLobby} from './lobby.js';
import {PlayView} from './play.js';
import {toast, markPage} from './ui.js';
import {play} from './sound.js';
import {refusalWords} from './words.js';
import {quickKey} from './home.js';

export class RoomPage {
  constructor(root, code) {
    this.root = root;
    this.code = code;
    this.room = null;
    this.seat = null;
    this.missing = null;
    this.connection = 'connecting';
    this.playView = null;
    this.over = false;
    this.socket = new RoomSocket(code, {
      onMessage: (m) => this.onMessage(m),
      onStatus: (s) => {
        this.connection = s;
        if (this.playView) this.playView.renderTop();
        else this.renderConnection();
      },
    });
    // the socket's welcome brings the room; an unknown code is answered on it as well, which
    // spares the console a failed request
    this.socket.connect();
  }

  ctx() {
    return {
      code: this.code,
      room: () => this.room,
      seat: () => this.seat,
      connection: () => this.connection,
      send: (m) => this.send(m),
      act: (action) => this.send({type: 'act', action}),
    };
  }

  send(msg) {
    if (!this.socket.send(msg)) {
      if (msg.type === 'act') toast(t('conn.notSent'));
    }
  }

  status() {
    if (this.playView && this.playView.outcome) return 'over';
    return this.room ? this.room.status : 'lobby';
  }

  onMessage(m) {
    switch (m.type) {
      case 'welcome':
        if (m.seat === null && getToken(this.code)) setToken(this.code, null); // a token the room no longer knows
        this.seat = m.seat ?? null;
        this.room = m.room || this.room;
        this.render();
        this.quickStart();
        break;
      case 'room':
        this.room = m.room;
        if (this.playView) {
          this.playView.onRoom();
          markPage(this.playView.outcome ? 'end' : 'play', this.status());
        } else this.render();
        break;
      case 'state':
        if (!this.playView) {
          this.playView = new PlayView(this.ctx());
          this.render();
        }
        this.lastSeq = m.seq;
        markPage(this.playView.outcome ? 'end' : 'play', this.status());
        // the marker moves once the table shows this frame (a newer frame may overtake it)
        this.playView.onState(m).then(() => {
          if (this.lastSeq === m.seq) document.body.dataset.seq = String(m.seq);
        });
        break;
      case 'chat':
        if (this.playView) this.playView.onChat(m);
        else toast(`${m.name}: ${m.text}`, 'info');
        break;
      case 'signal':
        if (this.playView) this.playView.onSignal(m);
        break;
      case 'restarting':
        // the server is about to stop for a moment: the socket reconnects by itself and the
        // seat and the table are kept
        toast(t('conn.restarting'), 'info');
        break;
      case 'over':
        if (!this.playView) {
          this.playView = new PlayView(this.ctx());
          this.render();
        }
        this.playView.onOver(m);
        if (this.room) this.room = {...this.room, status: 'over', log_id: m.log_id ?? this.room.log_id};
        markPage('end', 'over');
        break;
      case 'error':
        if (m.code === 'unknown_room') {
          if (m.params && m.params.log_id != null) {
            // the room's game is over and the room has left the server: show the game in the log
            this.socket.close();
            location.hash = `#/log/${m.params.log_id}`;
            break;
          }
          this.missing = t('room.notFound', {code: this.code});
          this.socket.close();
          this.render();
          break;
        }
        play('error');
        toast(refusalWords(m));
        break;
      default:
        break;
    }
  }

  /** "Play now" from the home page: the other seats go to bots and the game starts at once. */
  quickStart() {
    let quick = null;
    try {
      quick = sessionStorage.getItem(quickKey(this.code));
      sessionStorage.removeItem(quickKey(this.code));
    } catch {
      return;
    }
    if (!quick || this.seat === null || !this.room || this.room.status !== 'lobby') return;
    if (this.room.seats.some((s) => s.kind === 'open')) this.send({type: 'fill_bots'});
    this.send({type: 'ready', ready: true});
  }

  async join(name, seat) {
    try {
      const res = await api.join(this.code, name, seat);
      setToken(this.code, res.token);
      this.seat = res.seat;
      this.socket.connect(); // the seat's socket replaces the spectator's
    } catch (e) {
      if (e.status === 404 && e.params && e.params.log_id != null) {
        location.hash = `#/log/${e.params.log_id}`;
        return;
      }
      toast(e.status === 404 ? t('room.notFound', {code: this.code}) : refusalWords(e));
    }
  }

  renderConnection() {
    const el = this.root.querySelector('[data-testid="connection"]');
    if (el) {
      el.dataset.state = this.connection;
      el.className = `conn ${this.connection}`;
      el.textContent = this.connection === 'open' ? '' : t(`conn.${this.connection}`);
    }
  }

  render() {
    if (this.missing) {
      markPage('room', 'missing');
      mount(this.root, h('section', {class: 'panel narrow'}, h('h1', {}, t('room.missingTitle')),
        h('p', {dataset: {testid: 'room-missing'}}, this.missing),
        h('a', {class: 'btn primary', href: '#/'}, t('nav.home'))));
      return;
    }
    if (this.playView) {
      if (!this.root.contains(this.playView.el)) {
        const lost = !document.activeElement || document.activeElement === document.body ||
          !document.activeElement.isConnected || this.root.contains(document.activeElement);
        mount(this.root, this.playView.el);
        // the lobby's Ready button is gone: the keyboard carries on from the table's heading
        if (lost) this.playView.focusStart();
      } else {
        this.playView.relabel();
      }
      markPage(this.playView.outcome ? 'end' : 'play', this.status());
      return;
    }
    markPage('room', this.status());
    if (!this.room) {
      mount(this.root, h('p', {class: 'muted'}, t('loading')),
        h('div', {class: ['conn', this.connection], dataset: {testid: 'connection', state: this.connection}},
          this.connection === 'open' ? '' : t(`conn.${this.connection}`)));
      return;
    }
    if (this.room.status !== 'lobby') {
      // a game in progress: the state frame that follows the welcome draws it
      mount(this.root, h('p', {class: 'muted'}, t('room.joiningGame')),
        h('div', {class: ['conn', this.connection], dataset: {testid: 'connection', state: this.connection}}));
      return;
    }
    const ctx = {
      room: this.room, seat: this.seat, code: this.code,
      join: (name, seat) => this.join(name, seat),
      ready: (ready) => this.send({type: 'ready', ready}),
      fillBots: () => this.send({type: 'fill_bots'}),
      bot: (seat, on) => this.send({type: 'bot', seat, on}),
    };
    const focus = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.testid : null;
    const typed = this.root.querySelector('#join-name');
    const typedName = typed ? typed.value : null;
    mount(this.root, renderLobby(ctx),
      h('div', {class: ['conn', this.connection], dataset: {testid: 'connection', state: this.connection}},
        this.connection === 'open' ? '' : t(`conn.${this.connection}`)));
    const name = this.root.querySelector('#join-name');
    if (name && typedName !== null) name.value = typedName;
    if (focus) {
      // the pressed button may be gone: after joining or filling the seats with bots, Ready is the
      // next thing to press; a seat's bot button turns into its opposite in the same place
      const seatBot = /^(add|remove)-bot-(\d+)$/.exec(focus);
      const next = seatBot ? `${seatBot[1] === 'add' ? 'remove' : 'add'}-bot-${seatBot[2]}`
        : /^(join-|sit-|fill-bots$)/.test(focus) ? 'ready-button' : null;
      const el = this.root.querySelector(`[data-testid="${CSS.escape(focus)}"]`) ||
        (next ? this.root.querySelector(`[data-testid="${next}"]`) : null);
      if (el) el.focus({preventScroll: true});
    }
  }

  handleKey(e) {
    if (!this.playView) return false;
    if (e.key === 'Enter' && e.target && e.target.closest && e.target.closest('button, a')) return false;
    return this.playView.handleKey(e);
  }

  destroy() {
    this.socket.close();
    if (this.playView) this.playView.destroy();
  }
}
