// The game table client's entry: reads the page, wires the modules, opens the socket (or, in the
// DEBUG harness, feeds the sample frame). The other modules have no side effects on import.
//   state.js   the one state object, page config and strings, helpers over the view
//   frames.js  what the server sends → S      view.js / hand.js / result.js  S → DOM
//   controls.js  taps, drag, keys → moves     countdown.js  every ticking number
//   motion.js  deal, flips, flights            feedback.js  flash, banner, why a card can't go
//   movetext.js  the moves in words            movelog.js  the log of the last moves
//   ../site/socket.js the socket                 clock.js  server time   sound.js  card sounds

import { Clock } from "./clock.js";
import { Connection } from "../site/socket.js";
import { bindControls } from "./controls.js";
import { tick } from "./countdown.js";
import { banner } from "./feedback.js";
import { onFrame } from "./frames.js";
import { bindLog, logEntries } from "./movelog.js";
import { sounds } from "./sound.js";
import { CFG, S, T, loadPage, store } from "./state.js";
import { render } from "./view.js";
import { $ } from "../site/page.js";

loadPage();
const root = $("game");
S.prefs = { hints: store.get("hints", true), quick: store.get("quick", true), sound: store.get("sound", false) };
sounds.enabled = S.prefs.sound;
S.clock = new Clock(CFG.server_now);
bindControls();
bindLog();
setInterval(tick, 200);
window.addEventListener("resize", () => { if (S.view) render(); });

/** The DEBUG harness's socket: no server; each message a real page would send is kept once in S.sent
 *  (a resend is the same message, and the server applies it once). */
class Recorder extends Connection {
  isOpen() { return true; }
  send(msg) {
    if (!S.sent.some((m) => m.id === msg.id)) S.sent.push(msg);
    return true;
  }
}

window.__table = {
  get view() { return S.view; },
  get version() { return S.version; },
  get sent() { return S.sent; },
  get selected() { return S.selected; },
  get pending() { return S.pending; },
  get log() { return logEntries(); },
  receive(frame) { if (CFG.harness) onFrame(frame, Date.now()); },
  dropSocket() { if (S.conn && S.conn.ws) S.conn.ws.close(4000); }, // as if the network blinked
  loseNextSend() { // as if the message died with the process that received it
    const ws = S.conn && S.conn.ws;
    if (ws) { const real = ws.send.bind(ws); ws.send = () => { ws.send = real; }; }
  },
  get inflight() { return S.inflight ? S.inflight.id : null; },
};

if (CFG.harness) {
  S.conn = new Recorder(null, {}, { ackPatience: 750 }); // given up after 1.5 s, as nothing answers
  onFrame(CFG.harness.frame, Date.now());
} else if (CFG.ws_url) {
  S.conn = new Connection(CFG.ws_url, {
    frame: onFrame,
    open: (restored) => {
      S.connected = true; root.classList.remove("offline");
      if (restored) banner(T.connection_restored, "ok"); else banner(null);
    },
    lost: () => { S.connected = false; root.classList.add("offline"); banner(T.connection_lost, "lost"); },
    fatal: () => { banner(T.connection_closed, "lost"); },
  });
  $("g-turn").textContent = T.connecting;
  S.conn.start();
}
