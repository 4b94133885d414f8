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

const PIPS = {
  // pip layouts (column x%, row y%) for number cards, like a real deck
  "2": [[50, 18], [50, 82]],
  "3": [[50, 18], [50, 50], [50, 82]],
  "4": [[30, 18], [70, 18], [30, 82], [70, 82]],
  "5": [[30, 18], [70, 18], [50, 50], [30, 82], [70, 82]],
  "6": [[30, 18], [70, 18], [30, 50], [70, 50], [30, 82], [70, 82]],
  "7": [[30, 18], [70, 18], [50, 34], [30, 50], [70, 50], [30, 82], [70, 82]],
  "8": [[30, 18], [70, 18], [50, 34], [30, 50], [70, 50], [50, 66], [30, 82], [70, 82]],
  "9": [[30, 16], [70, 16], [30, 39], [70, 39], [50, 50], [30, 61], [70, 61], [30, 84], [70, 84]],
  "10": [[30, 16], [70, 16], [50, 28], [30, 39], [70, 39], [30, 61], [70, 61], [50, 72], [30, 84], [70, 84]],
};

/** A face-up card element. */
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
  if (PIPS[r]) {
    face.classList.add("pips");
    for (const [x, y] of PIPS[r]) {
      const p = document.createElement("i");
      p.textContent = sym;
      p.style.left = x + "%";
      p.style.top = y + "%";
      if (y > 55) p.classList.add("flip");
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
