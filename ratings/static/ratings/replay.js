// Replay player: steps through frames precomputed by the server (the game is over, every hand is shown).
import { cardEl, cardName, label } from "../game/cards.js";

const root = document.getElementById("replay");
const frames = JSON.parse(document.getElementById("replay-frames").textContent);
const names = JSON.parse(document.getElementById("replay-names").textContent);
const L = JSON.parse(document.getElementById("replay-labels").textContent);
const seatsBox = root.querySelector(".rp-seats");
const tableBox = root.querySelector(".rp-table");
const caption = root.querySelector(".rp-caption");
const pos = root.querySelector(".rp-pos");
const seek = root.querySelector("[data-act=seek]");
const roundSel = root.querySelector("[data-act=round]");
const playBtn = root.querySelector("[data-act=play]");
let i = 0;
let timer = null;

/** A card drawn the site's one way (game/static/game/cards.js), marked for the replay's layout. */
function card(c, extra = "") {
  if (!c) return document.createElement("span");
  const el = cardEl(c, { trump: frames[i] ? frames[i].trump : null });
  el.classList.add("rp-card", ...extra.split(" ").filter(Boolean));
  el.setAttribute("aria-label", cardName(c));
  el.setAttribute("role", "img");
  return el;
}

/** The move that led to frame `f` (its previous frame `prev`) in words. */
function describe(f, prev) {
  if (!f.action) return L.deal;
  const who = f.seat ? names[String(f.seat)] || `#${f.seat}` : "";
  const a = f.action;
  if (a.type === "set_bots" || a.type === "set_bot_seats") return `${L.set_bots}: ${(a.seats || []).join(", ") || "—"}`;
  // a card laid on a table that already has cards is thrown in («подкидывает»), not led
  const throwIn = a.type === "attack" && prev && prev.table.length > 0;
  const verb = throwIn ? L.throw_in : L[a.type] || a.type;
  const show = label;
  let text = `${who} ${verb}`;
  if (a.type === "defend" && a.target) text += ` ${show(a.target)} ${L.with_card} ${show(a.card)}`;
  else if (a.card) text += ` ${show(a.card)}`;
  if (f.result) text += ` — ${L.game_over}`;
  return text.trim();
}

function render() {
  const f = frames[i];
  seatsBox.replaceChildren();
  const n = Object.keys(f.hands).length;
  for (let s = 1; s <= n; s++) {
    const row = document.createElement("div");
    row.className = "rp-seat";
    if (f.attacker === s) row.classList.add("attacker");
    if (f.defender === s) row.classList.add("defender");
    if (f.seat === s) row.classList.add("acted");
    if (f.out.includes(s)) row.classList.add("out");
    const head = document.createElement("div");
    head.className = "rp-name";
    let tag = "";
    if (f.attacker === s) tag = ` · ${L.attacker}`;
    if (f.defender === s) tag = ` · ${f.took ? L.taking : L.defender}`;
    if (f.out.includes(s)) tag = ` · ${L.out}`;
    if (f.result) {
      if (f.result.draw) tag = ` · ${L.draw}`;
      else if ((f.result.winners || []).includes(s)) tag = ` · ${L.winner}`;
      else if ((f.result.losers || []).includes(s)) tag = ` · ${L.loser}`;
    }
    head.textContent = `${s}. ${names[String(s)] || ""}${tag}`;
    const hand = document.createElement("div");
    hand.className = "rp-hand";
    const cards = f.hands[String(s)];
    if (!cards.length) hand.textContent = L.empty_hand;
    for (const c of cards) hand.append(card(c, c.slice(-1) === f.trump ? "trump" : ""));
    row.append(head, hand);
    seatsBox.append(row);
  }
  tableBox.replaceChildren();
  for (const p of f.table) {
    const pair = document.createElement("span");
    pair.className = "rp-pair";
    pair.append(card(p.attack));
    if (p.defense) pair.append(card(p.defense, "def"));
    tableBox.append(pair);
  }
  root.querySelector(".rp-trump").replaceChildren(document.createTextNode(`${L.trump}: `), card(f.trump_card, "trump"));
  root.querySelector(".rp-counts").textContent = ` ${L.stock}: ${f.stock} · ${L.discard}: ${f.discard}`;
  // a move is told in the round it was made in; the round it closed names the next one
  const prev = i > 0 ? frames[i - 1] : null;
  const made = f.action && prev ? prev.round : f.round;
  let text = `${L.round} ${made}: ${describe(f, prev)}`;
  if (made !== f.round && !f.result) text += ` — ${L.round_begins.replace("{n}", f.round)}`;
  caption.textContent = text;
  pos.textContent = `${L.step} ${i} ${L.of} ${frames.length - 1}`;
  seek.value = String(i);
  let r = 0;
  for (const o of roundSel.options) if (Number(o.value) <= i) r = o.index;
  roundSel.selectedIndex = r;
}

function go(k) {
  i = Math.max(0, Math.min(frames.length - 1, k));
  render();
  if (i === frames.length - 1) stop();
}
function stop() {
  if (timer) clearInterval(timer);
  timer = null;
  playBtn.textContent = "▶";
  playBtn.setAttribute("aria-label", L.play);
}
function play() {
  if (i === frames.length - 1) i = 0;
  timer = setInterval(() => go(i + 1), 700);
  playBtn.textContent = "❚❚";
  playBtn.setAttribute("aria-label", L.pause);
}

root.addEventListener("click", (e) => {
  const act = e.target.closest("button")?.dataset.act;
  if (!act) return;
  if (act === "play") return timer ? stop() : play();
  stop();
  if (act === "first") go(0);
  if (act === "prev") go(i - 1);
  if (act === "next") go(i + 1);
  if (act === "last") go(frames.length - 1);
});
seek.addEventListener("input", () => { stop(); go(Number(seek.value)); });
roundSel.addEventListener("change", () => { stop(); go(Number(roundSel.value)); });
document.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || e.target.closest("input, select, textarea")) return;
  if (e.key === "ArrowRight") { e.preventDefault(); stop(); go(i + 1); }
  else if (e.key === "ArrowLeft") { e.preventDefault(); stop(); go(i - 1); }
  else if (e.key === " " && !e.target.closest("button, a")) { e.preventDefault(); timer ? stop() : play(); }
});
// a link to one position (the analysis' marked moves): #step-K opens frame K
function fromHash() {
  const m = /^#step-(\d+)$/.exec(location.hash);
  return m ? Number(m[1]) : 0;
}
/** A link to a position opens at the board (on a phone it sits below the fold), not the page's top. */
function showBoard() {
  if (!/^#step-\d+$/.test(location.hash)) return;
  const header = document.querySelector(".site-header");  // sticky: the board goes just below it
  const over = header && getComputedStyle(header).position === "sticky" ? header.getBoundingClientRect().height : 0;
  window.scrollTo({ top: root.getBoundingClientRect().top + window.scrollY - over - 6 });
}
window.addEventListener("hashchange", () => { stop(); go(fromHash()); showBoard(); });
go(fromHash());
showBoard();
