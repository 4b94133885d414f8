// Cards as strings ("10H", "QS"): parsing, ordering, and their DOM (crisp CSS faces with suit symbols, patterned backs).

export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
export const SUITS = ["S", "H", "D", "C"];
export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_ORDER = { S: 0, D: 1, C: 2, H: 3 }; // alternate colours in a fan: ♠ ♦ ♣ ♥

export function rankOf(card) { return card.slice(0, -1); }
export function suitOf(card) { return card.slice(-1); }
export function rankIndex(card) { return RANKS.indexOf(rankOf(card)); }
export function isRed(card) { const s = suitOf(card); return s === "H" || s === "D"; }
export function label(card) { return rankOf(card) + SUIT_SYMBOL[suitOf(card)]; }

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
  const r = rankOf(card), s = suitOf(card), sym = SUIT_SYMBOL[s];
  el.className = "card " + (isRed(card) ? "red" : "black") + (trump && s === trump ? " trump" : "");
  el.dataset.card = card;
  const corner = (cls) => {
    const c = document.createElement("span");
    c.className = "corner " + cls;
    c.setAttribute("aria-hidden", "true");
    c.innerHTML = `<b>${r}</b><i>${sym}</i>`;
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
    face.innerHTML = `<b>${r}</b><i>${sym}</i>`;
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
