// The one socket client of every page: connect, ping, reconnect with exponential backoff, the
// server's close codes, a move resent until it is acked, and the page's one socket that the other
// scripts hear (the page helpers are static/site/page.js). A page holds one socket: a table's pages
// open the table socket (which carries the site's news too), every other signed-in page the site
// socket (social/static/social/site.js opens it when no page script opened one). The server sends
// the current state on every (re)connect, which is the resync: nothing here keeps game or room
// state. Whatever else on the page listens to the socket (the site's news, an app's panel such as
// the chat) subscribes here, so it hears whichever socket the page has.

// The close codes the server sends (durak_site/close_codes.py), and no others.
export const CLOSE = Object.freeze({
  session_ended: 4401, // not signed in, or the session ended
  banned: 4403,
  not_found: 4404, // no such table, or a private one this viewer may not see
  too_many: 4408, // too many sockets of this account or address
  flooding: 4429, // too many messages: reconnect after the usual backoff
  service_restart: 4012, // the server process is stopping (a deploy): reconnect at once, quietly
});
const FATAL = new Set([CLOSE.session_ended, CLOSE.banned, CLOSE.not_found, CLOSE.too_many]); // retrying will not help
// The server judges a seat gone after 12 s without a ping (settings.TIMERS_HEARTBEAT_TIMEOUT); the
// site socket's presence needs a ping far less often (its page passes pingEvery).
const PING_EVERY_MS = 5000;
const SILENT_PINGS = 2.4; // a socket silent for this many ping intervals is dropped and reopened
const ACK_PATIENCE_MS = 8000; // an open socket silent this long about a move: sent once more, then given up

// The page's socket and who listens to it (the page has one, whichever opened it).
let pageConnection = null;
const subscribers = new Set();

/** The page's open connection, or null while no script has opened one. */
export function pageSocket() { return pageConnection; }

/**
 * Hear the page's socket, whichever it is and across reconnects: {message(msg), open(), close()},
 * each optional. Returns a function that stops listening.
 */
export function subscribe(handlers) {
  subscribers.add(handlers);
  if (pageConnection && pageConnection.isOpen() && handlers.open) handlers.open();
  return () => subscribers.delete(handlers);
}

function tell(kind, arg) {
  for (const s of subscribers) {
    if (!s[kind]) continue;
    try { s[kind](arg); } catch (e) { setTimeout(() => { throw e; }); } // one listener's bug spares the rest
  }
}

/**
 * Make `conn` the page's socket (Connection.start does): anything with path, isOpen() and
 * send(obj) → bool. The DEBUG harness's tests hand in a stand-in and play frames with `deliver`.
 */
export function adopt(conn) {
  pageConnection = conn;
  if (conn.isOpen()) tell("open");
}

/** A message for the page's subscribers, as its socket brings one. */
export function deliver(msg) { tell("message", msg); }

window.__socket = { adopt, deliver, get page() { return pageConnection; } };

/** A message id (the server drops a resent move with the same id). */
export function uuid() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export class Connection {
  /**
   * @param {string} path   "/ws/tables/<id>/" or "/ws/site/"
   * @param {object} on     {frame(msg, receivedAt), open(restored), lost(), fatal(code)}, each optional
   * @param {object} options {pingEvery: ms between pings (5000), ackPatience: ms a move waits for its ack (8000)}
   */
  constructor(path, on = {}, { pingEvery = PING_EVERY_MS, ackPatience = ACK_PATIENCE_MS } = {}) {
    this.path = path;
    this.on = on;
    this.pingEvery = pingEvery;
    this.ackPatience = ackPatience;
    this.unacked = null; // the message waiting for its ack: {msg, waiting, expired, timer}
    this.ws = null;
    this.attempt = 0;
    this.wasOpen = false;
    this.lostShown = false;
    this.pingTimer = null;
    this.retryTimer = null;
    this.lastPong = 0;
    this.stopped = false;
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}${this.path}`;
  }

  start() {
    this.stopped = false;
    adopt(this);
    this.open();
    document.addEventListener("visibilitychange", () => {
      // phones suspend sockets in the background: check as soon as we are visible again
      if (document.visibilityState === "visible" && !this.isOpen()) this.reconnectNow();
    });
    window.addEventListener("online", () => { if (!this.isOpen()) this.reconnectNow(); });
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close(1000);
  }

  isOpen() { return this.ws && this.ws.readyState === WebSocket.OPEN; }

  open() {
    clearTimeout(this.retryTimer);
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (e) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      const restored = this.lostShown;
      this.attempt = 0;
      this.wasOpen = true;
      this.lostShown = false;
      this.lastPong = Date.now();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.heartbeat(), this.pingEvery);
      this.on.open && this.on.open(restored);
      this.resendUnacked();
      if (pageConnection === this) tell("open");
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      this.lastPong = Date.now();
      this.on.frame && this.on.frame(msg, Date.now());
      if (pageConnection === this) deliver(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (pageConnection === this) tell("close", ev.code);
      if (this.stopped) return;
      if (FATAL.has(ev.code)) {
        this.on.fatal && this.on.fatal(ev.code);
        return;
      }
      if (ev.code === CLOSE.service_restart) { // another process takes over: no "connection lost" notice
        this.attempt = 0;
        this.open();
        return;
      }
      if (!this.lostShown) {
        this.lostShown = true;
        this.on.lost && this.on.lost();
      }
      this.scheduleRetry();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  heartbeat() {
    if (!this.isOpen()) return;
    if (Date.now() - this.lastPong > this.pingEvery * SILENT_PINGS) { // silent socket: drop it and reconnect
      this.ws.close(4000);
      return;
    }
    this.ws.send(JSON.stringify({ type: "ping" }));
  }

  scheduleRetry() {
    clearTimeout(this.retryTimer);
    const base = Math.min(15000, 500 * 2 ** this.attempt);
    const delay = base / 2 + Math.random() * base / 2;
    this.attempt += 1;
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  reconnectNow() {
    if (this.stopped) return;
    this.attempt = 0;
    if (this.ws) { const old = this.ws; this.ws = null; old.close(); }
    this.open();
  }

  /** Send a message; false when the socket is down (the caller keeps the move unsent). */
  send(obj) {
    if (!this.isOpen()) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  /**
   * Send a message the server must apply once (a move), and keep it until it is answered. The
   * server applies a message id once and acks a resend, so while `waiting()` says no answer came
   * (the caller's ack, error or newer state settles it) the message goes again under the same id:
   * once when the socket reopens (the process that had it may have died, or was stopping), and once
   * if the open socket stays silent about it for ackPatience ms; only then `expired()` gives it up.
   * One message waits at a time. False when the socket is down (then nothing is kept).
   */
  sendAcked(msg, { waiting, expired = () => {} }) {
    if (!this.send(msg)) return false;
    if (this.unacked) clearTimeout(this.unacked.timer);
    this.unacked = { msg, waiting, expired, timer: null };
    this.expectAck(this.unacked, 1);
    return true;
  }

  expectAck(u, resends) {
    u.timer = setTimeout(() => {
      if (this.unacked !== u) return;
      if (u.waiting() && resends > 0 && this.send(u.msg)) { this.expectAck(u, resends - 1); return; }
      this.unacked = null;
      if (u.waiting()) u.expired();
    }, this.ackPatience);
  }

  /** The socket (re)opened: the message still waiting for its ack goes again, under the same id. */
  resendUnacked() {
    const u = this.unacked;
    if (!u) return;
    if (u.waiting()) { this.send(u.msg); return; }
    clearTimeout(u.timer);
    this.unacked = null;
  }
}
