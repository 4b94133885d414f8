// Every visible countdown: the turn/check ring, a seat's bot takeover or loss, the rematch window.

import { updateRematchInfo } from "./result.js";
import { sounds } from "./sound.js";
import { CFG, S } from "./state.js";
import { $, fmt } from "../site/page.js";


export function tick() {
  const root = $("game");
  const ring = root.querySelector(".g-ring");
  const num = root.querySelector(".g-ring-num");
  const v = S.view;
  tickBadges();
  if (!v || !S.deadline || v.phase === "over") {
    ring.setAttribute("hidden", ""); num.hidden = true; root.style.setProperty("--frac", "0");
    if (v && v.result) updateRematchInfo();
    return;
  }
  const left = S.clock.left(S.deadline);
  const len = S.deadlineLen || (CFG.turn_seconds || 30) * 1000;
  const frac = Math.max(0, Math.min(1, left / len));
  ring.removeAttribute("hidden"); num.hidden = false;
  ring.style.setProperty("--frac", frac.toFixed(4));
  root.style.setProperty("--frac", frac.toFixed(4));
  const secs = Math.max(0, Math.ceil(left / 1000));
  if (num.textContent !== String(secs)) {
    num.textContent = String(secs);
    if (secs <= 5 && secs > 0 && (v.turn || []).includes(v.seat)) sounds.play("tick");
  }
  root.classList.toggle("hurry", left < 5500);
}

/** «бот через 42 с» / «поражение через 12 с» on an away seat's pod. */
function tickBadges() {
  if (!S.clock) return;
  for (const b of document.querySelectorAll(".badge[data-until]")) {
    const left = S.clock.left(b.dataset.until);
    if (left === null) continue;
    const text = fmt(b.dataset.text, { s: Math.max(0, Math.ceil(left / 1000)) });
    if (b.textContent !== text) b.textContent = text;
  }
}
