// Waiting room: live updates over the table socket, countdown display, heartbeat.
// Frames: {"type":"lobby"} -> re-fetch the waiting-room fragment; {"type":"game_started"} or a
// game "state" frame -> reload into the game table. While the socket is down we poll the fragment.
import { Connection } from "../site/socket.js";

const config = JSON.parse(document.getElementById("room-config").textContent);

let pollTimer = null;
let tickTimer = null;
let lastVersion = -1;

function room() { return document.getElementById("room"); }

function refresh() {
  if (!window.htmx || !room()) return;
  window.htmx.ajax("GET", config.room_url, { target: "#room", swap: "outerHTML" });
}

function startPolling() {
  if (pollTimer) return;
  pollTimer = setInterval(refresh, 3000);
}
function stopPolling() { clearInterval(pollTimer); pollTimer = null; }

function onFrame(msg) {
  if (msg.type === "lobby") {
    // our own button already brought this version back in its response: no second swap
    const shown = room() ? parseInt(room().dataset.version || "-1", 10) : -1;
    if (msg.version !== lastVersion && !(typeof msg.version === "number" && msg.version <= shown)) {
      lastVersion = msg.version;
      refresh();
    }
  } else if (msg.type === "game_started" || msg.type === "state") {
    location.assign(config.table_url);
  }
}

// Heartbeat: the socket's ping (Connection, every 5 s) keeps our seat marked connected in the waiting
// room and the table listed in the lobby: the server judges a seat gone after 12 s without one
// (settings.TIMERS_HEARTBEAT_TIMEOUT).

// 3-2-1: the server's deadline, corrected by the server clock offset of the fragment.
function tick() {
  clearInterval(tickTimer);
  const r = room();
  if (!r || r.dataset.status !== "countdown" || !r.dataset.deadline) return;
  const offset = Date.parse(r.dataset.serverNow) - Date.now();
  const deadline = Date.parse(r.dataset.deadline);
  const show = () => {
    const el = document.getElementById("countdown-n");
    if (!el) { clearInterval(tickTimer); return; }
    const left = (deadline - (Date.now() + offset)) / 1000;
    el.textContent = left > 0 ? String(Math.ceil(left)) : config.strings.go;
    if (left <= -1.5) { clearInterval(tickTimer); refresh(); }  // the game should be up: look again
  };
  show();
  tickTimer = setInterval(show, 200);
}

document.body.addEventListener("htmx:afterSettle", (ev) => {
  if (ev.target && (ev.target.id === "room" || ev.target.closest?.("#room"))) tick();
});
document.body.addEventListener("htmx:load", tick);
tick();

// «Встать» at a table the search made asks first: standing up before the deal is a dodge. The
// dialog lives outside #room (a refresh of the room never closes it); its «Встать» submits the
// room's stand form as the button would have.
const standDialog = document.getElementById("stand-dialog");
document.body.addEventListener("click", (ev) => {
  const button = ev.target.closest?.("[data-confirm]");
  if (!button || !standDialog) return;
  ev.preventDefault();
  standDialog.showModal();
});
standDialog?.addEventListener("close", () => {
  const form = room()?.querySelector("[data-confirm]")?.form;
  if (standDialog.returnValue === "stand" && form) form.requestSubmit();
  standDialog.returnValue = "";
});

const conn = new Connection(config.ws_path, {
  frame: onFrame,
  open: () => stopPolling(),
  lost: () => startPolling(), // keep the room fresh while we reconnect
  fatal: () => startPolling(), // no socket here any more: the fragment still shows the room
});
conn.start();
