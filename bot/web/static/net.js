// The WebSocket to the server: one socket at a time, the hello re-sent after
// every (re)connect, reconnects with exponential backoff and jitter
// (PROTOCOL.md "WebSocket"). The server is the only source of truth: after a
// reconnect its first `state` frame replaces whatever the page showed.

const BACKOFF_FIRST_MS = 250;
const BACKOFF_MAX_MS = 5000;
// a quiet socket can be dropped by proxies (Discord's included): a ping
// keeps it open; the server answers with a pong, nothing else
const KEEPALIVE_MS = 25000;

export class Connection {
  /**
   * @param {object} handlers  onFrame(frame), onStatus("open"|"connecting"|"reconnecting"),
   *                           hello() -> the hello frame to (re)send, or null
   */
  constructor(handlers) {
    this.handlers = handlers;
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.keepalive = null;
    this.closed = false;
  }

  url() {
    const u = new URL("ws", document.baseURI);
    u.protocol = u.protocol === "https:" ? "wss:" : "ws:";
    return u.href;
  }

  start() {
    this.closed = false;
    this._open();
  }

  stop() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.keepalive);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }

  /** Send a frame if the socket is open; false when it is not (the caller may retry). */
  send(frame) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  /** Send the current hello again (a table or language switch). */
  rehello() {
    const hello = this.handlers.hello();
    if (hello) this.send(hello);
  }

  _open() {
    this.handlers.onStatus(this.attempt === 0 ? "connecting" : "reconnecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      const hello = this.handlers.hello();
      if (hello) ws.send(JSON.stringify(hello));
      clearInterval(this.keepalive);
      this.keepalive = setInterval(() => this.send({ type: "ping" }), KEEPALIVE_MS);
    };
    ws.onmessage = (ev) => {
      let frame;
      try {
        frame = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (frame.type === "welcome" || frame.type === "state" || frame.type === "replay") {
        // a real answer: the next drop starts its backoff from the beginning
        this.attempt = 0;
        this.handlers.onStatus("open");
      }
      this.handlers.onFrame(frame);
    };
    ws.onclose = () => {
      clearInterval(this.keepalive);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      this.attempt += 1;
      const base = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (this.attempt - 1));
      const delay = base / 2 + Math.random() * (base / 2);
      this.handlers.onStatus("reconnecting");
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this._open(), delay);
    };
    ws.onerror = () => {
      // onclose follows and schedules the retry
    };
  }
}
