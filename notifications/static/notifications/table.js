// On the table pages (notifications/table_client.html): tell the server whether this tab shows
// the table (no «Ваш ход» push while one does), on the page's one table socket
// (static/site/socket.js), and play the in-page chime and vibration for «Ваш ход» when the player
// switched them on.
import { ring } from "../site/alerts.js";
import { pageSocket, subscribe } from "../site/socket.js";

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

let wasMine = false;
document.addEventListener("table-view", (event) => {
  const v = event.detail && event.detail.view;
  const mine = !!(v && v.seat != null && v.phase !== "over" && (v.turn || []).includes(v.seat));
  if (mine && !wasMine) ring();
  wasMine = mine;
});
