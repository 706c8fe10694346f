// The match socket: reconnects with backoff and keeps the seat token per room.

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
 * welcome + the current state, so nothing has to be replayed from here.
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
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({type: 'ping'}), 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type !== 'pong') this.onMessage(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      this.onStatus('closed');
      if (!this.closed) this.retry();
    };
    ws.onerror = () => { /* onclose follows and retries */ };
  }

  retry() {
    const delay = Math.min(15000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
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
    clearInterval(this.pinger);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onclose = null;
      ws.close();
    }
  }
}
