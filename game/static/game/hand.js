// My hand: keyed card elements (a card keeps its element, so a re-sort is a CSS transition) laid
// out as a fan that compresses, then wraps into rows, so every card stays on screen on a phone.

import { cardEl, sortHand } from "./cards.js";
import { S, usesOf } from "./state.js";
import { $ } from "../site/page.js";

export const handEls = new Map();

/** The hand as the player sees it, left to right. */
export function handCards(v = S.view) {
  return v && v.seat != null ? sortHand(v.hand || [], v.trump) : [];
}

export function renderHand(v, cardName) {
  const hand = $("g-hand");
  const wrap = $("g-hand-wrap");
  const spectator = v.seat == null;
  wrap.hidden = spectator;
  if (spectator) { hand.replaceChildren(); handEls.clear(); return; }
  const cards = handCards(v);
  const hints = S.prefs.hints;
  const A = S.A;
  for (const [c, el] of handEls) if (!cards.includes(c)) { el.remove(); handEls.delete(c); }
  cards.forEach((c, i) => {
    let el = handEls.get(c);
    if (!el) {
      el = cardEl(c, { tag: "button", trump: v.trump });
      el.type = "button";
      el.setAttribute("role", "option");
      el.setAttribute("aria-label", cardName(c));
      el.classList.add("enter");
      handEls.set(c, el);
      hand.appendChild(el);
      requestAnimationFrame(() => requestAnimationFrame(() => el.classList.remove("enter")));
    }
    const uses = usesOf(c);
    const playable = uses.length > 0 && !S.inflight && !S.pending;
    el.classList.toggle("playable", hints && playable);
    el.classList.toggle("dim", hints && !playable && v.phase !== "over" && (A.uses.size > 0 || (v.turn || []).includes(v.seat)));
    el.classList.toggle("selected", S.selected === c);
    el.classList.toggle("inflight", !!(S.inflight && S.inflight.action.card === c));
    el.classList.toggle("pending", !!(S.pending && S.pending.card === c));
    el.setAttribute("aria-selected", S.selected === c ? "true" : "false");
    el.style.zIndex = String(i + 1);
    el.tabIndex = i === Math.min(S.focus, cards.length - 1) ? 0 : -1;
  });
  cards.forEach((c) => hand.appendChild(handEls.get(c))); // DOM order = sorted order (focus, overlap)
  layoutHand(cards);
}

/**
 * One row while each card shows at least its corner index (rank and suit); beyond that, more
 * rows, each in front of and a half-card below the one before. Never a sideways scroll.
 */
export function layoutHand(cards) {
  const hand = $("g-hand");
  const wrap = $("g-hand-wrap");
  const n = cards.length;
  if (!n) { wrap.style.setProperty("--rows-extra", "0px"); return; }
  const cw = handEls.get(cards[0]).offsetWidth || 80;
  const ch = cw * 1.42;
  const W = Math.max(cw, wrap.clientWidth - 8);
  const maxStep = cw * 0.74, minStep = cw * 0.36;
  const perRowMax = Math.max(1, Math.floor((W - cw) / minStep) + 1);
  const rows = Math.ceil(n / perRowMax);
  const perRow = Math.ceil(n / rows);
  const rowDy = ch * 0.5;
  wrap.style.setProperty("--rows-extra", `${(rows - 1) * rowDy}px`);
  hand.style.width = `${W}px`;
  const fan = rows === 1 ? Math.min(3, 14 / n) : 0;  // degrees per card: a gentle fan
  // the rotated end cards swing out by about 1.4 card heights × sin(angle) (the transform
  // origin is below the card): keep that much room at both ends
  const inset = Math.ceil(1.4 * ch * Math.sin((((n - 1) / 2) * fan * Math.PI) / 180));
  const room = W - 2 * inset;
  cards.forEach((c, i) => {
    const el = handEls.get(c);
    const r = Math.floor(i / perRow);
    const k = Math.min(perRow, n - r * perRow);   // cards in this row
    const j = i - r * perRow;
    const step = k > 1 ? Math.min(maxStep, (room - cw) / (k - 1)) : 0;
    const start = inset + (room - (cw + step * (k - 1))) / 2;
    const d = j - (k - 1) / 2;
    el.style.left = `${start + j * step}px`;
    const arc = rows === 1 && k > 1 ? 12 * (d / ((k - 1) / 2)) ** 2 : 0; // the fan's ends dip 12 px
    el.style.top = `${r * rowDy + arc}px`;
    el.style.rotate = `${d * fan}deg`;
  });
}
