// Cards as strings ("10H", "QS"): parsing, ordering, and their DOM (crisp CSS faces with suit symbols, patterned backs).

export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
export const SUITS = ["S", "H", "D", "C"];
export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_ORDER = { S: 0, D: 1, C: 2, H: 3 }; // alternate colours in a fan: ♠ ♦ ♣ ♥

export function rankOf(card) { return card.slice(0, -1); }
export function suitOf(card) { return card.slice(-1); }
export function rankIndex(card) { return RANKS.indexOf(rankOf(card)); }
export function isRed(card) { const s = suitOf(card); return s === "H" || s === "D"; }

// A card's words in the page's language: templates/base.html carries them (translated) on <body>,
// so a Russian page reads «Д♠» and «дама пик», an English one «Q♠» and «queen of spades».
const WORDS = (typeof document !== "undefined" && document.body && document.body.dataset) || {};
const COURT = ["J", "Q", "K", "A"];
const words = (text, keys, fallback) => {
  const list = (text || fallback).split(" ");
  return Object.fromEntries(keys.map((k, i) => [k, list[i] || k]));
};
const SHORT = words(WORDS.cardRanks, COURT, "J Q K A");
const RANK_NAME = words(WORDS.cardRankNames, COURT, "jack queen king ace");
const SUIT_NAME = words(WORDS.cardSuits, SUITS, "spades hearts diamonds clubs");
const NAME_FORMAT = WORDS.cardName || "{rank} of {suit}";

/** The rank as printed on the card and in short texts: «Д» on a Russian page, «Q» on an English one. */
export function rankLabel(rank) { return SHORT[rank] || rank; }
/** The short form in texts: «Д♠», «10♥». */
export function label(card) { return rankLabel(rankOf(card)) + SUIT_SYMBOL[suitOf(card)]; }
/** The spoken name for screen readers: «дама пик», «7 червей»; «queen of spades». */
export function cardName(card) {
  const r = rankOf(card);
  return NAME_FORMAT.replace("{rank}", RANK_NAME[r] || r).replace("{suit}", SUIT_NAME[suitOf(card)] || "");
}

/** Sorted for the hand: by suit (trumps last), then rank low → high. */
export function sortHand(cards, trump) {
  const key = (c) => {
    const s = suitOf(c);
    const so = s === trump ? 9 : SUIT_ORDER[s];
    return so * 100 + rankIndex(c);
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** How many pips a number card shows; their layout is static/css/cards.css's (.n7 i:nth-child(3)). */
function pipCount(rank) { const n = Number(rank); return n >= 2 && n <= 10 ? n : 0; }

/** A face-up card element. templates/_card.html (the {% playing_card %} tag) draws the same DOM on
 *  server-rendered pages; tests/site/test_card_drawing.py holds the two equal. */
export function cardEl(card, { tag = "div", trump = null } = {}) {
  const el = document.createElement(tag);
  const r = rankOf(card), s = suitOf(card), sym = SUIT_SYMBOL[s], shown = rankLabel(r);
  el.className = "card " + (isRed(card) ? "red" : "black") + (trump && s === trump ? " trump" : "");
  el.dataset.card = card;
  const corner = (cls) => {
    const c = document.createElement("span");
    c.className = "corner " + cls;
    c.setAttribute("aria-hidden", "true");
    c.innerHTML = `<b>${shown}</b><i>${sym}</i>`;
    return c;
  };
  el.appendChild(corner("tl"));
  const face = document.createElement("span");
  face.className = "face";
  face.setAttribute("aria-hidden", "true");
  const pips = pipCount(r);
  if (pips) {
    face.classList.add("pips", "n" + r);
    for (let i = 0; i < pips; i++) {
      const p = document.createElement("i");
      p.textContent = sym;
      face.appendChild(p);
    }
  } else if (r === "A") {
    face.classList.add("ace");
    face.textContent = sym;
  } else {
    face.classList.add("court");
    face.innerHTML = `<b>${shown}</b><i>${sym}</i>`;
  }
  el.appendChild(face);
  el.appendChild(corner("br"));
  return el;
}

/** A face-down card. */
export function backEl(extra = "") {
  const el = document.createElement("div");
  el.className = "card back" + (extra ? " " + extra : "");
  el.setAttribute("aria-hidden", "true");
  return el;
}
