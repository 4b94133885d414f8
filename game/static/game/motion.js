// Card movement: FLIP glides onto the table, the table flying to the discard or to the taker,
// the deal at the start, the trump flip. Everything is skipped under prefers-reduced-motion.

import { backEl, cardEl } from "./cards.js";
import { $ } from "../site/page.js";


export function reduced() {
  return window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Where every card and seat is now, to animate from after the next render. */
export function captureRects() {
  const m = new Map();
  for (const el of document.querySelectorAll(".g-hand .card[data-card], .g-battle .card[data-card]")) {
    m.set(el.dataset.card, el.getBoundingClientRect());
  }
  const pods = new Map();
  for (const el of document.querySelectorAll(".pod[data-seat]")) {
    const c = el.querySelector(".pod-cards") || el;
    pods.set(Number(el.dataset.seat), c.getBoundingClientRect());
  }
  const battle = [...document.querySelectorAll(".g-battle .card[data-card]")].map((el) => ({ card: el.dataset.card, rect: el.getBoundingClientRect() }));
  const discard = $("g-discard").getBoundingClientRect();
  const hand = $("g-hand-wrap").getBoundingClientRect();
  return { cards: m, pods, battle, discard, hand };
}

/** FLIP: a card that appears on the table glides in from where it was (my hand, or its player). */
export function flipIn(from, v) {
  if (reduced()) return;
  for (const el of document.querySelectorAll(".g-battle .card[data-card]")) {
    const c = el.dataset.card;
    let r0 = from.cards.get(c);
    if (!r0) {
      const who = v.last && v.last.card === c ? v.last.seat : null;
      if (who != null && from.pods.has(who)) r0 = from.pods.get(who);
    }
    if (!r0) continue;
    const r1 = el.getBoundingClientRect();
    const dx = r0.left + r0.width / 2 - (r1.left + r1.width / 2);
    const dy = r0.top + r0.height / 2 - (r1.top + r1.height / 2);
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
    const sc = Math.max(0.4, Math.min(1.6, r0.width / (r1.width || 1)));
    el.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(${sc})` },
      { transform: "translate(0, 0) scale(1)" },
    ], { duration: 380, easing: "cubic-bezier(.2,.7,.2,1)" });
  }
}

function fly(el, rect, target, { rotate = 0, duration = 520, delay = 0, fade = true } = {}) {
  el.classList.add("ghost");
  Object.assign(el.style, { left: rect.left + "px", top: rect.top + "px" });
  el.style.setProperty("--w", Math.min(rect.width, rect.height / 1.42) + "px");
  document.body.appendChild(el);
  const dx = target.left + target.width / 2 - (rect.left + rect.width / 2);
  const dy = target.top + target.height / 2 - (rect.top + rect.height / 2);
  const anim = el.animate([
    { transform: "translate(0,0) rotate(0deg)", opacity: 1 },
    { transform: `translate(${dx}px, ${dy}px) rotate(${rotate}deg) scale(.6)`, opacity: fade ? 0.2 : 1 },
  ], { duration, delay, easing: "cubic-bezier(.4,.1,.3,1)", fill: "backwards" });
  anim.onfinish = () => el.remove();
}

/** The table was cleared: old cards fly to the discard (bito) or, face up, to whoever took them. */
export function animateClear(prev, v, from) {
  if (!prev.table.length || v.table.length || !from.battle.length || reduced()) return;
  const wentToDiscard = (v.discard || 0) > (prev.discard || 0);
  let target = from.discard;
  if (!wentToDiscard) {
    const d = prev.defender;
    target = d === v.seat ? from.hand : from.pods.get(d) || from.discard;
  }
  from.battle.forEach(({ card, rect }, k) => {
    const g = wentToDiscard ? backEl() : cardEl(card, { trump: v.trump });
    fly(g, rect, target, { rotate: wentToDiscard ? 90 : 0, delay: wentToDiscard ? 0 : k * 40, fade: wentToDiscard });
  });
}

/** The first frame of a game: cards are dealt from the stock to every seat, then the trump flips. */
export function animateDeal(v) {
  if (reduced()) return;
  const deck = $("g-deck").getBoundingClientRect();
  const from = { left: deck.left, top: deck.top, width: Math.min(deck.width, 60), height: Math.min(deck.height, 84) };
  const seats = [...document.querySelectorAll(".pod[data-seat] .pod-cards")].map((e) => e.getBoundingClientRect());
  const hand = [...document.querySelectorAll("#g-hand .card")];
  const rounds = 6;
  let k = 0;
  for (let r = 0; r < rounds; r++) {
    for (const to of seats) fly(backEl(), from, to, { duration: 300, delay: (k++) * 35, fade: false });
    const el = hand[r];
    if (el) {
      el.animate([{ transform: "translateY(-40vh) scale(.5)", opacity: 0 }, { transform: "none", opacity: 1 }],
        { duration: 340, delay: (k++) * 35, easing: "cubic-bezier(.2,.7,.2,1)", fill: "backwards" });
    }
  }
  for (let i = rounds; i < hand.length; i++) {
    hand[i].animate([{ opacity: 0 }, { opacity: 1 }], { duration: 300, delay: k * 35, fill: "backwards" });
  }
  const trump = document.querySelector("#g-deck .trump-card");
  if (trump) {
    trump.animate([{ transform: "rotate(90deg) rotateY(180deg)", filter: "brightness(.2)" },
      { transform: "rotate(90deg) rotateY(0deg)", filter: "none" }],
    { duration: 450, delay: k * 35 + 120, easing: "ease-out", fill: "backwards" });
  }
}

/** «Дурак!»: a stamp over the result for the loser, a short burst of suits for the winners. */
export function celebrate(text, lost) {
  const box = document.createElement("div");
  box.className = "g-moment" + (lost ? " lost" : " won");
  box.setAttribute("aria-hidden", "true");
  box.textContent = text;
  document.body.appendChild(box);
  if (!lost && !reduced()) {
    for (let i = 0; i < 18; i++) {
      const s = document.createElement("span");
      s.className = "g-confetti";
      s.textContent = "♠♥♦♣"[i % 4];
      s.style.left = `${5 + ((i * 53) % 90)}%`;
      s.style.animationDelay = `${(i % 6) * 90}ms`;
      box.appendChild(s);
    }
  }
  setTimeout(() => box.remove(), reduced() ? 1200 : 2200);
}
