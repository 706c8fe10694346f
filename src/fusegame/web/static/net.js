// The match socket: reconnects with backoff and keeps the seat token per room.

/** A ping goes out this often while the socket is open... */
const PING_EVERY_MS = 5000;
/** ...and a socket whose pong has not come this long after its ping is taken for dead: a server
 * that stopped writing to it, or a connection dropped without a word. */
const PONG_WAIT_MS = 10000;

const tokenKey = (code) => `fuse.token.${code}`;

export function getToken(code) {
  try {
    return localStorage.getItem(tokenKey(code));
  } catch {
    return null;
  }
}

export function setToken(code, token) {
  try {
    if (token) localStorage.setItem(tokenKey(code), token);
    else localStorage.removeItem(tokenKey(code));
  } catch {
    /* private mode: the seat lasts as long as the page */
  }
}

/**
 * new RoomSocket(code, {onMessage, onStatus}); .connect(); .send(obj); .close().
 * onStatus receives 'connecting' | 'open' | 'closed'. The server answers a reconnect with
 * welcome + the current state, so nothing has to be replayed from here. A socket that goes
 * silent (no pong within PONG_WAIT_MS of a ping) is dropped and opened again.
 */
export class RoomSocket {
  constructor(code, {onMessage, onStatus} = {}) {
    this.code = code;
    this.onMessage = onMessage || (() => {});
    this.onStatus = onStatus || (() => {});
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    this.timer = null;
    this.pinger = null;
    this.pongDue = null;
    this.waitAtLeast = 0;
    this.queue = [];
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const token = getToken(this.code);
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.code)}` +
      (token ? `?token=${encodeURIComponent(token)}` : '');
  }

  connect() {
    this.closed = false;
    clearTimeout(this.timer);
    if (this.ws) {
      // a fresh token (after joining) needs a fresh socket
      const old = this.ws;
      this.ws = null;
      this.stopHeartbeat();
      old.onclose = null;
      old.close();
    }
    this.onStatus('connecting');
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.onStatus('open');
      for (const m of this.queue.splice(0)) ws.send(JSON.stringify(m));
      this.stopHeartbeat();
      this.pinger = setInterval(() => this.heartbeat(ws), PING_EVERY_MS);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === 'pong') {
        clearTimeout(this.pongDue);
        this.pongDue = null;
        return;
      }
      if (msg.type === 'error' && msg.code === 'rate_limited' && msg.params) {
        // the server refused this address for a while: the next attempt waits at least that long
        this.waitAtLeast = 1000 * (Number(msg.params.retry_after) || 0);
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      if (ev.code !== 4429) this.waitAtLeast = 0; // only a refused opening asks us to wait
      this.stopHeartbeat();
      this.ws = null;
      this.onStatus('closed');
      if (!this.closed) this.retry();
    };
    ws.onerror = () => { /* onclose follows and retries */ };
  }

  /** One beat: a ping, unless one is still waiting for its pong (its timer is running). */
  heartbeat(ws) {
    if (this.ws !== ws || ws.readyState !== WebSocket.OPEN || this.pongDue !== null) return;
    ws.send('{"type":"ping"}');
    this.pongDue = setTimeout(() => this.silent(ws), PONG_WAIT_MS);
  }

  stopHeartbeat() {
    clearInterval(this.pinger);
    clearTimeout(this.pongDue);
    this.pinger = null;
    this.pongDue = null;
  }

  /** No pong came: let this socket go without waiting for its closing handshake, and open another. */
  silent(ws) {
    if (this.ws !== ws) return;
    this.stopHeartbeat();
    this.ws = null;
    ws.onclose = null;
    ws.onmessage = null;
    ws.close();
    this.onStatus('closed');
    if (!this.closed) this.retry();
  }

  retry() {
    const backoff = Math.min(15000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    const delay = Math.max(backoff, this.waitAtLeast);
    this.waitAtLeast = 0;
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /**
   * Send now, or (chat, lobby messages) as soon as the socket is open again. A move is never
   * queued: the table may have changed by then. Returns whether it went out now.
   */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    if (msg.type !== 'ping' && msg.type !== 'act') this.queue.push(msg);
    return false;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.stopHeartbeat();
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onclose = null;
      ws.close();
    }
  }
}
