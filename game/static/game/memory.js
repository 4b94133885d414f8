// The memory aid (the table rule "memory_aid", off by default): at each opponent's seat the cards
// everyone saw him get and that he still holds (view.known: picked up with «Беру», a trump shown to
// transfer, the face-up trump of a менка), and beside the discard how many cards of each suit are
// gone (view.gone). Both are public facts every frame carries; this only draws them, and only when
// the table's rules switch the aid on, so a table without it shows no more than a good memory would.

import { SUITS, SUIT_SYMBOL, label, sortHand, suitOf } from "./cards.js";
import { T, nick } from "./state.js";
import { fmt } from "../site/page.js";

/** A chip group's visible caption (the full sentence stays in its title and aria-label). */
function caption(text) {
  const el = document.createElement("span");
  el.className = "mem-label";
  el.setAttribute("aria-hidden", "true");
  el.textContent = text;
  return el;
}

/** Whether this game's rules show the memory aid. */
export function memoryOn(v) { return !!(v.rules && v.rules.memory_aid); }

/** The cards seat `n` is known to hold, as small face-up chips; null when off or none. */
export function knownEl(v, n) {
  if (!memoryOn(v)) return null;
  const cards = (v.known || {})[String(n)];
  if (!cards || !cards.length) return null;
  const box = document.createElement("div");
  box.className = "pod-known";
  box.appendChild(caption(T.memory_known_short));  // what the chips mean, readable on a phone too
  const sorted = sortHand(cards, v.trump);
  for (const c of sorted) {
    const chip = document.createElement("span");
    const s = suitOf(c);
    chip.className = "mem-chip" + (s === "H" || s === "D" ? " red" : "") + (s === v.trump ? " trump" : "");
    chip.dataset.card = c;
    chip.textContent = label(c);
    box.appendChild(chip);
  }
  const text = fmt(T.memory_known, { name: nick(n), cards: sorted.map(label).join(", ") });
  box.title = text;
  box.setAttribute("role", "note");
  box.setAttribute("aria-label", text);
  return box;
}

/** How many cards of each suit have gone to the discard; null when off or nothing is gone. */
export function goneEl(v) {
  if (!memoryOn(v) || !(v.gone || []).length) return null;
  const count = { S: 0, H: 0, D: 0, C: 0 };
  for (const c of v.gone) count[suitOf(c)] += 1;
  const box = document.createElement("div");
  box.className = "mem-gone";
  box.appendChild(caption(T.memory_gone_short));
  const parts = [];
  for (const s of SUITS) {
    const item = document.createElement("span");
    item.className = "mem-suit" + (s === "H" || s === "D" ? " red" : "") + (s === v.trump ? " trump" : "");
    item.dataset.suit = s;
    item.textContent = `${SUIT_SYMBOL[s]}${count[s]}`;
    box.appendChild(item);
    parts.push(`${T["suit_" + s] || s}: ${count[s]}`);
  }
  const text = `${T.memory_gone}: ${parts.join(", ")}`;
  box.title = text;
  box.setAttribute("role", "note");
  box.setAttribute("aria-label", text);
  return box;
}
