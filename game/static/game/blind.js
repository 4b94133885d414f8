// The table without sight (docs/ACCESSIBILITY.md), a setting of the table page kept in this
// browser: every event in words in one live region (in order, once), the position in headed
// sections (the hand is a listbox walked with the arrows, Enter plays), a command line («7 пик»,
// «беру», «бито», «ходы», «?») and keys. It follows the game through the "table-view" event that
// view.js sends after each render, and moves through controls.js's send(), like a tap.

import { cardName, sortHand, suitOf } from "./cards.js";
import { catchText } from "./movetext.js";
import { send } from "./controls.js";
import { S, nick, passLabel, store, T } from "./state.js";
import { $, fmt } from "../site/page.js";

const panel = $("g-blind");
const toggle = $("g-blind-toggle");
const speech = $("g-speech");
const W = {};
for (const el of $("g-blind-strings").children) W[el.dataset.k] = el.textContent.trim();

let on = store.get("blind", false) || new URLSearchParams(location.search).get("blind") === "1";
let seen = null;          // the view last told
let seenVersion = -1;
let warned = "";          // the turn whose last seconds were told
let choices = [];         // the moves last listed, for a number typed next
let handFocus = 0;

// ---------------------------------------------------------------- speaking
function say(text) {
  if (!on || !text) return;
  const p = document.createElement("p");
  p.textContent = text;
  speech.append(p);
  while (speech.childElementCount > 1000) speech.firstElementChild.remove(); // a game says a few hundred
}

const myTurn = (v) => v && v.seat != null && v.phase !== "over" && (v.turn || []).includes(v.seat);
const sameMove = (a, b) => !!a && !!b && JSON.stringify({ ...a, closed: null }) === JSON.stringify({ ...b, closed: null });

/** The last move in words, with whole card names. */
function moveWords(v, l) {
  const mine = l.seat === v.seat;
  const key = (base) => W[mine ? base + "_you" : base];
  const vars = { name: nick(l.seat), card: l.card ? cardName(l.card) : "", target: l.target ? cardName(l.target) : "" };
  switch (l.type) {
    case "attack": return fmt(key("attack"), vars);
    case "defend": return fmt(key("defend"), vars);
    case "transfer": return fmt(key("transfer"), vars);
    case "take": return fmt(key("take"), vars);
    case "pass": return fmt(key("pass"), vars);
    case "swap_trump": return fmt(key("swap"), vars);
    case "catch": return catchText(v, l);
    default: return "";
  }
}

function turnWords(v) {
  const legal = v.legal || [];
  if (v.phase === "check") return legal.some((a) => a.type === "catch") ? W.turn_catch : "";
  if (!v.table.length) return W.turn_lead;
  if (v.seat === v.defender) return legal.some((a) => a.type === "transfer") ? W.turn_defend_transfer : W.turn_defend;
  return W.turn_throw;
}

/** What changed between two views, in the order it happened. */
function news(prev, v) {
  const out = [];
  const l = v.last;
  const moved = l && l.seat != null && !(prev && sameMove(prev.last, l));
  if (moved) out.push(moveWords(v, l));
  if (l && l.closed && (moved || (prev && prev.last && !prev.last.closed))) {
    const defender = prev ? prev.defender : v.defender;
    if (l.closed === "bito") out.push(defender === v.seat ? W.bito_you : W.bito);
    else if (l.closed === "take") out.push(defender === v.seat ? W.took_you : fmt(W.took, { name: nick(defender) }));
  }
  if (v.phase === "over") {
    if (!prev || prev.phase !== "over") {
      const main = $("g-result-main");
      out.push(W.over + (main && main.textContent ? " " + main.textContent : ""));
    }
    return out;
  }
  if (!prev || prev.round !== v.round) {
    out.push(fmt(W.round, { n: v.round, card: cardName(v.trump_card), stock: v.stock }));
  }
  if (myTurn(v) && (!myTurn(prev) || moved)) out.push(turnWords(v));
  return out;
}

// ---------------------------------------------------------------- the position
function handCards(v) { return sortHand(v.hand || [], v.trump); }

function handWords(v) {
  const cards = handCards(v);
  if (!cards.length) return W.hand_empty;
  const groups = [];
  for (const c of cards) {
    const g = groups[groups.length - 1];
    if (g && suitOf(g[0]) === suitOf(c)) g.push(c); else groups.push([c]);
  }
  return fmt(W.hand, { cards: groups.map((g) => g.map(cardName).join(", ")).join("; ") });
}

function pairWords(p) {
  return p.defense ? fmt(W.pair_beaten, { attack: cardName(p.attack), defense: cardName(p.defense) })
    : fmt(W.pair_open, { attack: cardName(p.attack) });
}

function playerWords(v, n) {
  const count = (v.hand_counts || {})[String(n)] ?? 0;
  const roles = [];
  if ((v.out || []).includes(n)) roles.push(W.role_out);
  else {
    if (v.phase !== "over" && (v.turn || []).includes(n)) roles.push(W.role_turn);
    if (v.phase !== "over" && v.defender === n) roles.push(W.role_defender);
  }
  const base = n === v.seat ? fmt(W.player_you, { n: count }) : fmt(W.player, { name: nick(n), n: count });
  return [base, ...roles].join(", ");
}

function seatsOf(v) { return Array.from({ length: v.players || 0 }, (_, i) => i + 1); }

function position(v) {
  const table = v.table.length ? fmt(W.table, { pairs: v.table.map(pairWords).join("; ") }) : W.table_empty;
  const stock = fmt(W.stock, { card: cardName(v.trump_card), stock: v.stock, discard: v.discard || 0 });
  return [handWords(v), table, seatsOf(v).map((n) => playerWords(v, n)).join("; ") + ".", stock].join(" ");
}

function renderSections(v) {
  const hand = $("g-blind-hand");
  const hadFocus = hand.contains(document.activeElement);
  const cards = handCards(v);
  handFocus = Math.max(0, Math.min(handFocus, cards.length - 1));
  hand.replaceChildren(...cards.map((c, i) => {
    const li = document.createElement("li");
    li.setAttribute("role", "option");
    li.dataset.card = c;
    li.textContent = cardName(c);
    li.setAttribute("aria-selected", i === handFocus ? "true" : "false");
    li.tabIndex = i === handFocus ? 0 : -1;
    return li;
  }));
  if (hadFocus && hand.children[handFocus]) hand.children[handFocus].focus();
  const item = (text) => { const li = document.createElement("li"); li.textContent = text; return li; };
  $("g-blind-table").replaceChildren(...(v.table.length ? v.table.map((p) => item(pairWords(p))) : [item(W.table_empty)]));
  $("g-blind-players").replaceChildren(...seatsOf(v).map((n) => item(playerWords(v, n))));
}

// ---------------------------------------------------------------- moves and commands
function actionWords(v, a) {
  const vars = { card: a.card ? cardName(a.card) : "", target: a.target ? cardName(a.target) : "" };
  switch (a.type) {
    case "attack": return fmt(W.m_attack, vars);
    case "defend": return fmt(W.m_defend, vars);
    case "transfer": return fmt(a.show ? W.m_transfer_show : W.m_transfer, vars);
    case "take": return W.m_take;
    case "pass": return passLabel(v) === T.bito ? W.m_bito : W.m_pass;
    case "swap_trump": return W.m_swap;
    case "catch": return fmt(W.m_catch, vars);
    default: return a.type;
  }
}

function offer(v, list, template, vars = {}) {
  choices = list;
  const moves = list.map((a, i) => `${i + 1}: ${actionWords(v, a)}`).join("; ");
  say(fmt(template, { ...vars, moves }));
}

function play(action) {
  choices = [];
  send(action);
}

const words = (key) => (W[key] || "").toLowerCase().split("|").map((w) => w.trim()).filter(Boolean);

function table(key) {
  // "spades spade s|hearts …" → {spades: "S", spade: "S", s: "S", …} in SUITS order; ranks likewise
  const codes = key === "suit_words" ? ["S", "H", "D", "C"] : ["J", "Q", "K", "A"];
  const map = {};
  words(key).forEach((group, i) => { for (const w of group.split(/\s+/)) if (w) map[w] = codes[i]; });
  return map;
}
const SUIT_WORDS = { ...table("suit_words"), "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
const RANK_WORDS = table("rank_words");

/** «7 пик», «дама червей», «Q♠», "queen of hearts" → "7S", "QH", "QS"; null if not a card. */
export function parseCard(text) {
  const tokens = text.toLowerCase().replace(/ё/g, "е").replace(/([♠♥♦♣])/g, " $1 ").split(/\s+/).filter(Boolean);
  let rank = null, suit = null;
  for (const t of tokens) {
    if (!rank && /^(10|[2-9])$/.test(t)) rank = t;
    else if (!rank && RANK_WORDS[t]) rank = RANK_WORDS[t];
    else if (!suit && SUIT_WORDS[t]) suit = SUIT_WORDS[t];
  }
  return rank && suit ? rank + suit : null;
}

function cardCommand(v, text) {
  const sep = words("words_on")[0] || "on";
  const [cardPart, targetPart] = text.split(new RegExp(`\\s${sep}\\s`));
  const card = parseCard(cardPart);
  if (!card) return false;
  if (!(v.hand || []).includes(card)) { say(fmt(W.not_in_hand, { card: cardName(card) })); return true; }
  playCard(v, card, targetPart ? parseCard(targetPart) : null);
  return true;
}

function playCard(v, card, target = null) {
  let uses = (v.legal || []).filter((a) => a.card === card && ["attack", "defend", "transfer"].includes(a.type));
  if (target) uses = uses.filter((a) => a.target === target);
  if (!uses.length) { say(fmt(W.cannot, { card: cardName(card) })); return; }
  if (uses.length === 1) { play(uses[0]); return; }
  offer(v, uses, W.which, { card: cardName(card) });
}

function command(raw) {
  const v = S.view;
  const text = raw.trim().toLowerCase().replace(/ё/g, "е").replace(/[.!]+$/, "");
  if (!text || !v) return;
  const legal = v.legal || [];
  const first = text.split(/\s+/)[0];
  const is = (key) => words(key).includes(text) || words(key).includes(first);
  if (text === "?" || text === "??") { say(position(v)); return; }
  if (/^\d+$/.test(text) && choices.length) {
    const a = choices[Number(text) - 1];
    const still = a && legal.find((x) => JSON.stringify(x) === JSON.stringify(a));
    if (still) play(still); else say(W.not_now);
    return;
  }
  if (is("words_moves")) {
    if (legal.length) offer(v, legal, W.moves); else say(W.no_moves);
    return;
  }
  const simple = [["words_take", "take"], ["words_pass", "pass"], ["words_swap", "swap_trump"]];
  for (const [key, type] of simple) {
    if (is(key)) { const a = legal.find((x) => x.type === type); if (a) play(a); else say(W.not_now); return; }
  }
  for (const [key, type] of [["words_transfer", "transfer"], ["words_catch", "catch"]]) {
    if (!is(key)) continue;
    const card = parseCard(text);
    const list = legal.filter((a) => a.type === type && (!card || a.card === card));
    if (list.length === 1) play(list[0]);
    else if (list.length) offer(v, list, W.moves);
    else say(W.not_now);
    return;
  }
  if (cardCommand(v, text)) return;
  say(W.unknown);
}

// ---------------------------------------------------------------- wiring
function show() {
  panel.hidden = !on;
  toggle.setAttribute("aria-pressed", String(on));
  document.documentElement.classList.toggle("blind-mode", on);
  if (on && S.view) renderSections(S.view);
}

toggle.addEventListener("click", () => {
  on = !on;
  store.set("blind", on);
  show();
  if (on) {
    speech.replaceChildren();
    say(W.on);
    const v = S.view;  // where the game stands now
    if (v && v.phase !== "over") {
      say(fmt(W.round, { n: v.round, card: cardName(v.trump_card), stock: v.stock }));
      if (myTurn(v)) say(turnWords(v));
    }
    $("g-command").focus();
  } else {
    speech.replaceChildren();
  }
});

document.addEventListener("table-view", (event) => {
  const v = event.detail && event.detail.view;
  if (!v) return;
  if (on) renderSections(v);
  if (S.version === seenVersion) return;
  const prev = seen;
  seen = v;
  seenVersion = S.version;
  for (const text of news(prev, v)) say(text);
});

$("g-command-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const field = $("g-command");
  const text = field.value;
  field.value = "";
  command(text);
});

$("g-blind-hand").addEventListener("keydown", (event) => {
  const items = [...$("g-blind-hand").children];
  if (!items.length) return;
  const moves = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
  if (event.key in moves || event.key === "Home" || event.key === "End") {
    handFocus = event.key === "Home" ? 0 : event.key === "End" ? items.length - 1
      : Math.max(0, Math.min(items.length - 1, handFocus + moves[event.key]));
    items.forEach((li, i) => { li.tabIndex = i === handFocus ? 0 : -1; li.setAttribute("aria-selected", String(i === handFocus)); });
    items[handFocus].focus();
  } else if (event.key === "Enter" || event.key === " ") {
    const li = items[handFocus];
    if (li && S.view) playCard(S.view, li.dataset.card);
  } else {
    return; // the table's own keys (take, pass, …) still work here
  }
  event.preventDefault();
  event.stopPropagation(); // not the graphical hand's arrows (controls.js)
});

document.addEventListener("keydown", (event) => {
  if (!on || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest && event.target.closest("input, textarea, select")) return;
  if (event.key === "?" && S.view) { say(position(S.view)); event.preventDefault(); }
  else if (event.key === "/") { $("g-command").focus(); event.preventDefault(); }
});

// the turn clock's last seconds, once per turn
setInterval(() => {
  const v = S.view;
  if (!on || !myTurn(v) || S.deadlineKind !== "turn" || !S.deadline || !S.clock) return;
  const left = (Date.parse(S.deadline) - S.clock.now()) / 1000;
  const key = `${S.version}:${S.deadline}`;
  if (left <= 10 && left > 0 && warned !== key) { warned = key; say(fmt(W.seconds, { s: Math.ceil(left) })); }
}, 250);

show();
