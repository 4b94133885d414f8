// Tournament pages: countdowns drawn from the page's own times (no server call), and the event
// page's live part re-read (at most once a second) when the socket (re)connects or standings.js finds
// the page's own part changed; standings.js draws the `tournament` frames themselves.
// No socket of its own: it hears the page's one socket (static/site/socket.js).
import { pairingChimeOn, setPairingChime } from "../site/alerts.js";
import { $ } from "../site/page.js";
import { subscribe } from "../site/socket.js";

const pad = (n) => String(n).padStart(2, "0");

function draw() {
  for (const el of document.querySelectorAll("[data-countdown]")) {
    const left = Math.max(0, Math.floor((Date.parse(el.dataset.countdown) - Date.now()) / 1000));
    if (isNaN(left)) continue;
    const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
    el.textContent = (h ? h + ":" + pad(m) : m) + ":" + pad(s);
  }
}
draw();
setInterval(draw, 1000);

// «A sound when you are paired»: on unless unticked, kept in this browser (static/site/alerts.js)
const chimeBox = document.querySelector("[data-pairing-chime]");
if (chimeBox) {
  chimeBox.checked = pairingChimeOn();
  chimeBox.addEventListener("change", () => setPairingChime(chimeBox.checked));
}

const page = document.querySelector("[data-tournament]");
if (page) {
  const id = Number(page.dataset.tournament);
  let busy = false, again = false, last = 0;
  const reload = () => {
    if (busy) { again = true; return; }
    busy = true;
    setTimeout(async () => {
      last = Date.now();
      try {
        const r = await fetch(page.dataset.liveUrl, { headers: { "HX-Request": "true" }, credentials: "same-origin" });
        if (r.ok) { $("t-live").innerHTML = await r.text(); draw(); }
      } catch (e) { /* the next news or reconnect reads it again */ }
      busy = false;
      if (again) { again = false; reload(); }
    }, Math.max(0, 1000 - (Date.now() - last)));
  };
  document.addEventListener("tournament-reread", reload); // standings.js: this page's own part changed
  subscribe({
    message: (msg) => {
      if (!msg) return;
      if (msg.type === "tournament" && msg.id === id && typeof msg.standings !== "string") reload(); // else standings.js
      if (msg.type === "hello") reload(); // (re)connected: whatever was missed meanwhile
    },
  });
}
