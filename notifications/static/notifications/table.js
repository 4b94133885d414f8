// On the table pages (notifications/table_client.html): tell the server whether this tab shows
// the table (no «Ваш ход» push while one does), on the page's one table socket
// (static/site/socket.js), and play the in-page chime and vibration for «Ваш ход» when the player
// switched them on.
import { pageSocket, subscribe } from "../site/socket.js";

const config = document.getElementById("push-table-config");
const alerts = config ? JSON.parse(config.textContent) : { sound: false, vibrate: false };
const REPEAT_MS = 20000; // the server forgets a report after 45 s (notifications/visibility.py)

let timer = null;

function tell(visible) {
  const socket = pageSocket();
  if (socket && socket.isOpen()) socket.send({ type: "visibility", visible });
}

const report = () => tell(document.visibilityState === "visible");

subscribe({
  open: () => {
    report();
    clearInterval(timer);
    timer = setInterval(() => { if (document.visibilityState === "visible") report(); }, REPEAT_MS);
  },
});
document.addEventListener("visibilitychange", report);
window.addEventListener("pagehide", () => tell(false));

function chime() {
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return;
  try {
    const ctx = chime.ctx || (chime.ctx = new AC());
    const t0 = ctx.currentTime;
    for (const [freq, at] of [[784, 0], [1046, 0.12]]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.06, t0 + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + 0.25);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + 0.3);
    }
  } catch (e) { /* sound is a nicety */ }
}

let wasMine = false;
document.addEventListener("table-view", (event) => {
  const v = event.detail && event.detail.view;
  const mine = !!(v && v.seat != null && v.phase !== "over" && (v.turn || []).includes(v.seat));
  if (mine && !wasMine) {
    if (alerts.sound) chime();
    if (alerts.vibrate && navigator.vibrate) navigator.vibrate([120, 60, 120]);
  }
  wasMine = mine;
});
