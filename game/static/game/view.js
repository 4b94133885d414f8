// Rendering: every element of the table drawn from S (the last frame and the player's choices).
// Pure DOM output; input handlers live in controls.js.

import { backEl, cardEl, cardName } from "./cards.js";
import { renderHand } from "./hand.js";
import { renderLog } from "./movelog.js";
import { lastText, moveText } from "./movetext.js";
import { goneEl, knownEl } from "./memory.js";
import { animateClear, animateDeal, flipIn } from "./motion.js";
import { flash } from "./feedback.js";
import { renderResult } from "./result.js";
import { S, T, names, nick, partnerOf, passLabel, usesOf } from "./state.js";
import { tick } from "./countdown.js";
import { sounds } from "./sound.js";
import { $, fmt } from "../site/page.js";



export function render(prev = null, from = null) {
  const v = S.view;
  if (!v) return;
  const root = $("game");
  const first = root.dataset.state === "loading";
  root.dataset.state = v.phase === "over" ? "over" : "play";
  root.dataset.version = String(S.version);
  root.dataset.hints = S.prefs.hints ? "on" : "off";
  root.classList.toggle("spectator", v.seat == null);
  root.classList.toggle("hints-on", S.prefs.hints);
  root.classList.toggle("my-turn", v.seat != null && (v.turn || []).includes(v.seat));
  renderSeats(v);
  renderDeck(v);
  renderBattle(v, from);
  renderHand(v, cardName);
  renderControls(v);
  renderStatus(v);
  renderResult(v);
  renderLog();
  if (prev && from) animateClear(prev, v, from);
  if (first && isFreshDeal(v)) { animateDeal(v); sounds.play("deal"); }
  tick();
  // other modules of the page follow the game from here (notifications/table.js, blind.js)
  document.dispatchEvent(new CustomEvent("table-view", { detail: { view: v, prev, version: S.version } }));
}

/** The very start of a game: nothing played yet (the deal is worth showing). */
function isFreshDeal(v) {
  return v.phase === "play" && v.round === 1 && !v.table.length && !v.last && !(v.discard || 0);
}

const POS_WIDE = {
  1: [[50, 13]],
  2: [[26, 14], [74, 14]],
  3: [[8, 46], [50, 12], [92, 46]],
  4: [[8, 52], [30, 13], [70, 13], [92, 52]],
  5: [[7, 60], [18, 17], [50, 11], [82, 17], [93, 60]],
  6: [[7, 62], [16, 20], [38, 10], [62, 10], [84, 20], [93, 62]],
};
const POS_NARROW = {
  1: [[50, 11]],
  2: [[28, 11], [72, 11]],
  3: [[16, 14], [50, 9], [84, 14]],
  4: [[12, 17], [37, 8], [63, 8], [88, 17]],
  5: [[11, 21], [30, 8], [50, 21], [70, 8], [89, 21]],
  6: [[10, 15], [28, 8], [50, 6], [72, 8], [90, 15], [50, 88]],
};

function rowPositions(k) {
  return Array.from({ length: k }, (_, i) => [((i + 0.5) / k) * 100, 18]);
}

function seatOrder(v) {
  const n = v.players;
  const me = v.seat;
  if (me == null) return Array.from({ length: n }, (_, i) => i + 1); // spectator: seat 1 first
  return Array.from({ length: n - 1 }, (_, k) => ((me - 1 + k + 1) % n) + 1);
}

function renderSeats(v) {
  const root = $("game");
  const box = $("g-seats");
  const narrow = root.clientWidth < 700;
  const order = seatOrder(v);
  const spectator = v.seat == null;
  let shown = order, bottom = null;
  if (spectator) { bottom = order[0]; shown = order.slice(1); }
  const short = root.clientHeight < 440 && !narrow;  // a phone on its side: one row on top
  const pos = short ? rowPositions(shown.length) : (narrow ? POS_NARROW : POS_WIDE)[shown.length] || POS_WIDE[5];
  box.replaceChildren();
  box.dataset.pods = String(shown.length);  // few pods: each nick gets the room there is (table.css)
  shown.forEach((n, i) => box.appendChild(podEl(v, n, pos[i] || [50, 50])));
  if (bottom !== null) box.appendChild(podEl(v, bottom, [short ? 8 : 50, narrow ? 90 : 88], "bottom"));
  // keep every pod inside the felt (long nicks, narrow phones)
  const fr = $("g-felt").getBoundingClientRect();
  for (const el of box.children) {
    const r = el.getBoundingClientRect();
    if (r.right > fr.right - 2) el.style.left = `calc(${el.style.left} - ${Math.ceil(r.right - fr.right + 2)}px)`;
    else if (r.left < fr.left + 2) el.style.left = `calc(${el.style.left} + ${Math.ceil(fr.left + 2 - r.left)}px)`;
  }
  const my = $("g-mypod");
  my.replaceChildren();
  if (v.seat != null) my.appendChild(podEl(v, v.seat, null, "mine"));
}

/** A seat whose player has been away 15 s (docs/RULES.md#disconnect): the notice, and when a bot plays or he loses. */
function awayBadges(s, badge) {
  if (!s.away || s.bot || s.left) return;
  badge(T.offline, "b-off");
  if (s.takeover_at) badge("", "b-countdown", { until: s.takeover_at, text: T.bot_in });
  else if (s.lose_at) badge("", "b-countdown b-lose", { until: s.lose_at, text: T.loses_in });
}

function podEl(v, n, pos, extra = "") {
  const s = S.seats[n] || {};
  const count = (v.hand_counts || {})[String(n)] ?? 0;
  const isOut = (v.out || []).includes(n);
  const el = document.createElement("div");
  el.className = "pod" + (extra ? " " + extra : "");
  el.dataset.seat = String(n);
  if (pos) { el.style.left = pos[0] + "%"; el.style.top = pos[1] + "%"; }
  el.classList.toggle("turn", (v.turn || []).includes(n) && v.phase !== "over");
  el.classList.toggle("is-out", isOut);
  el.classList.toggle("offline", !!s.away && !s.bot);
  el.classList.toggle("defender", v.defender === n && v.phase !== "over");
  if (v.result && ((v.result.losers || []).includes(n) || v.result.loser === n)) el.classList.add("loser");
  if (extra !== "mine") {
    const cards = document.createElement("div");
    cards.className = "pod-cards";
    const k = Math.min(count, 8);
    for (let i = 0; i < k; i++) {
      const b = backEl("mini");
      b.style.setProperty("--i", String(i - (k - 1) / 2));
      cards.appendChild(b);
    }
    const cnt = document.createElement("span");
    cnt.className = "pod-count";
    cnt.textContent = String(count);
    cnt.title = fmt(T.cards_n, { n: count });
    cards.appendChild(cnt);
    el.appendChild(cards);
    const known = knownEl(v, n);
    if (known) el.appendChild(known);
  }
  const id = document.createElement("div");
  id.className = "pod-id";
  const av = document.createElement("span");
  av.className = "avatar";
  av.innerHTML = `<svg class="pod-ring" viewBox="0 0 40 40" aria-hidden="true"><circle cx="20" cy="20" r="18" pathLength="100"></circle></svg>`;
  const ini = document.createElement("span");
  ini.className = "ini";
  ini.textContent = nick(n).trim().charAt(0).toUpperCase() || "?";
  av.appendChild(ini);
  id.appendChild(av);
  const nm = document.createElement("span");
  nm.className = "pod-nick";
  nm.textContent = extra === "mine" ? `${s.nick || T.you}` : nick(n);
  nm.title = nm.textContent;
  // a nick cut short for room reads whole on a tap (or a click)
  id.addEventListener("click", () => { if (nm.scrollWidth > nm.clientWidth + 1) flash(nm.textContent); });
  id.appendChild(nm);
  const mark = seatMark(n, s);
  if (mark) id.appendChild(mark);
  el.appendChild(id);
  const badges = document.createElement("div");
  badges.className = "pod-badges";
  const badge = (text, cls, until = null) => {
    const b = document.createElement("span");
    b.className = "badge " + cls;
    b.textContent = text;
    if (until) { b.dataset.until = until.until; b.dataset.text = until.text; }
    badges.appendChild(b);
  };
  if (s.bot) badge(T.bot, "b-bot");
  if (s.left) badge(T.left, "b-left");
  else awayBadges(s, badge);
  if (isOut) badge(T.out, "b-out");
  else if (v.phase !== "over") {
    if (v.defender === n) badge(v.took ? T.took_badge : T.defender_badge, v.took ? "b-took" : "b-def");
    else if (v.attacker === n) badge(T.attacker, "b-atk");
    if ((v.passed || []).includes(n) && v.defender !== n) badge(T.passed_badge, "b-pass");
  }
  if (v.seat != null && partnerOf(v.seat, v) === n) badge(T.partner, "b-partner");
  el.appendChild(badges);
  const cardsText = fmt(T.cards_n, { n: count });
  const markText = mark ? (mark.querySelector(".rel-text") || mark).textContent.trim() : "";
  el.setAttribute("role", "group");  // a plain div's label is not read by every screen reader
  el.setAttribute("aria-label", markText ? fmt(T.seat_marked, { name: nick(n), mark: markText, cards: cardsText })
    : `${nick(n)}: ${cardsText}`);
  return el;
}

/** A person's reliability mark at his seat: the social app renders the marks of this game's seats
 * into the page (<template id="seat-marks">, social/_mark.html's look); none for a bot's seat, none
 * without that app. A game's seats keep their players to its end, and a new game loads a new page. */
function seatMark(n, s) {
  const marks = $("seat-marks");
  if (!marks || marks.dataset.game !== String(S.gameId) || (s.bot && !s.takeover)) return null;
  const src = marks.content.querySelector(`[data-seat="${n}"] .rel-mark`);
  if (!src) return null;
  const m = src.cloneNode(true);
  m.classList.add("pod-mark");
  m.setAttribute("role", "img");
  m.setAttribute("aria-label", src.title);
  const words = m.querySelector(".rel-text");  // the pod has room for the sign only; its title says the words
  if (words) words.classList.add("visually-hidden");
  return m;
}

function renderDeck(v) {
  const deck = $("g-deck");
  deck.replaceChildren();
  const trumpSym = { S: "♠", H: "♥", D: "♦", C: "♣" }[v.trump] || "";
  if (v.stock > 0 && v.trump_card) {
    const tc = cardEl(v.trump_card, { trump: v.trump });
    tc.classList.add("trump-card");
    tc.setAttribute("role", "img"); // a name needs a role (axe: aria-prohibited-attr)
    tc.setAttribute("aria-label", `${T.trump}: ${cardName(v.trump_card)}`);
    deck.appendChild(tc);
    const pile = document.createElement("div");
    pile.className = "pile";
    const layers = Math.min(4, Math.max(0, Math.ceil((v.stock - 1) / 6)));
    for (let i = 0; i < layers; i++) {
      const b = backEl();
      b.style.setProperty("--k", String(i));
      pile.appendChild(b);
    }
    deck.appendChild(pile);
  }
  const info = document.createElement("div");
  info.className = "deck-info";
  info.innerHTML = `<span class="trump-suit ${v.trump === "H" || v.trump === "D" ? "red" : ""}" title="${T.trump}">${trumpSym}</span>`
    + `<span class="stock-count" title="${T.stock}">${v.stock}</span>`;
  deck.appendChild(info);
  deck.setAttribute("aria-label", `${T.stock}: ${v.stock}. ${T.trump}: ${T["suit_" + v.trump] || ""}`);

  const dis = $("g-discard");
  dis.replaceChildren();
  const dpile = document.createElement("div");
  dpile.className = "dpile";
  const dl = Math.min(5, Math.ceil((v.discard || 0) / 6));
  for (let i = 0; i < dl; i++) {
    const b = backEl();
    b.style.setProperty("--r", String(((i * 37) % 23) - 11));
    dpile.appendChild(b);
  }
  dis.appendChild(dpile);
  const dinfo = document.createElement("div");
  dinfo.className = "deck-info";
  dinfo.innerHTML = `<span class="lbl">${T.discard}</span><span class="stock-count">${v.discard || 0}</span>`;
  dis.appendChild(dinfo);
  const gone = goneEl(v);
  if (gone) dis.appendChild(gone);
  dis.setAttribute("aria-label", `${T.discard}: ${v.discard || 0}`);
}

function renderBattle(v, from) {
  const box = $("g-battle");
  box.replaceChildren();
  const A = S.A;
  const hints = S.prefs.hints;
  const selUses = S.selected ? usesOf(S.selected) : [];
  const targets = new Set(selUses.filter((a) => a.type === "defend").map((a) => a.target));
  const last = v.last;
  box.classList.toggle("drop-ok", !!S.selected && selUses.some((a) => a.type === "attack" || a.type === "transfer"));
  v.table.forEach((p, i) => {
    const pair = document.createElement("div");
    pair.className = "pair";
    pair.style.setProperty("--i", String(i));
    const a = cardEl(p.attack, { tag: "button", trump: v.trump });
    a.type = "button";
    a.dataset.target = p.attack;
    a.classList.add("atk");
    a.setAttribute("aria-label", cardName(p.attack) + (p.defense ? " / " + cardName(p.defense) : ""));
    a.tabIndex = -1;
    if (!p.defense) {
      if (hints && A.beatable.has(p.attack) && !S.selected) a.classList.add("beatable");
      if (targets.has(p.attack)) { a.classList.add("target"); a.tabIndex = 0; }
    }
    if (A.catchable.has(p.attack)) {
      a.classList.add("catchable");
      if (hints || S.mode === "catch") a.classList.add("catch-hint");
      a.tabIndex = 0;
    }
    if (S.catchSel === p.attack) a.classList.add("catch-sel");
    if (last && last.card === p.attack && (last.type === "attack" || last.type === "transfer")) a.classList.add("last");
    pair.appendChild(a);
    if (p.defense) {
      const d = cardEl(p.defense, { tag: "button", trump: v.trump });
      d.type = "button";
      d.classList.add("def");
      d.tabIndex = -1;
      d.setAttribute("aria-label", cardName(p.defense));
      if (A.catchable.has(p.defense)) {
        d.classList.add("catchable");
        if (hints || S.mode === "catch") d.classList.add("catch-hint");
        d.tabIndex = 0;
      }
      if (S.catchSel === p.defense) d.classList.add("catch-sel");
      if (last && last.card === p.defense && last.type === "defend") d.classList.add("last");
      pair.appendChild(d);
    }
    box.appendChild(pair);
  });
  if (!v.table.length) {
    const e = document.createElement("div");
    e.className = "battle-empty";
    e.textContent = v.seat != null && S.A.uses.size && v.phase === "play" && (v.turn || []).includes(v.seat) ? "⇧" : "";
    box.appendChild(e);
  }
  if (from) flipIn(from, v);
}

function button(text, kind, key, cls = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `btn act-${kind} ${cls}`.trim();
  b.dataset.kind = kind;
  b.textContent = text;
  if (key) {
    const k = document.createElement("kbd");
    k.textContent = key;
    b.appendChild(k);
    b.setAttribute("aria-keyshortcuts", key);
  }
  return b;
}

function renderControls(v) {
  const box = $("g-controls");
  box.replaceChildren();
  if (v.seat == null || v.phase === "over") return;
  if (S.pending) {
    box.appendChild(button(T.confirm, "confirm", "Enter", "btn-gold confirm"));
    box.appendChild(button(T.cancel, "cancel", "Esc", "btn-ghost"));
    return;
  }
  const b = S.A.b;
  if (b.take) box.appendChild(button(T.take, "take", "T", "btn-danger"));
  if (b.transfer.length) box.appendChild(button(T.transfer, "transfer", "P", S.mode === "transfer" ? "active" : ""));
  if (b.pass) box.appendChild(button(passLabel(v), "pass", "B", "btn-gold"));
  if (b.catch.length) box.appendChild(button(T.catch, "catch", "C", "btn-danger" + (S.mode === "catch" ? " active" : "")));
  if (b.swap) box.appendChild(button(T.swap_trump, "swap", "", "btn-ghost"));
  if (S.inflight) for (const el of box.querySelectorAll("button")) el.disabled = true;
}

/** Whom the table waits for: a seat a bot plays for its absent player says so. */
function turnNames(list) {
  return list.map((n) => ((S.seats[n] || {}).takeover ? fmt(T.bot_plays_seat, { name: nick(n) }) : nick(n))).join(", ");
}

function turnText(v) {
  const me = v.seat;
  if (v.phase === "over") return T.game_over;
  const waiting = (v.turn || []).length ? fmt(T.waiting_for, { names: turnNames(v.turn) }) : "";
  if (me == null) return waiting || T.spectating;
  if ((v.out || []).includes(me)) return T.you_are_out + (waiting ? " · " + waiting : "");
  if (v.phase === "check") return S.A.b.catch.length ? T.catch_or_wait : T.check_phase;
  if ((v.turn || []).includes(me)) {
    if (!v.table.length) return T.your_lead;
    if (me === v.defender) return S.A.b.transfer.length ? T.defend_or_transfer : T.defend;
    return passLabel(v) === T.bito ? T.throw_or_bito : T.throw_or_pass;
  }
  if (me === v.defender && v.took) return T.you_took;
  return waiting || T.check_phase;
}

function hintText(v) {
  if (v.seat == null || v.phase === "over") return lastText(v);
  if (S.pending) return fmt(T.confirm_move, { move: moveText(S.pending) });
  if (S.mode === "catch") return T.hint_catch;
  if (S.selected) {
    const uses = usesOf(S.selected);
    const def = uses.some((a) => a.type === "defend");
    const lay = uses.some((a) => a.type === "attack" || a.type === "transfer");
    if (def && lay) return T.hint_pick_use;
    if (def) return T.hint_pick_target;
    return T.hint_selected;
  }
  if (!S.prefs.hints) return lastText(v);
  const me = v.seat;
  if ((v.turn || []).includes(me) && v.phase === "play") {
    if (!v.table.length) return T.hint_lead;
    if (me === v.defender) return S.A.b.transfer.length ? T.hint_transfer : T.hint_defend;
    if (S.A.uses.size) return T.hint_throw;
  }
  if (v.phase === "check" && S.A.b.catch.length) return T.hint_catch;
  return lastText(v);
}

function renderStatus(v) {
  $("g-turn").textContent = turnText(v);
  $("g-hint").textContent = hintText(v);
  const watching = $("g-watching");
  if (watching) watching.hidden = v.seat != null || v.phase === "over";
  const sign = $("g-cheater-sign");  // cheater mode is on: any card may be laid, so watch the table
  if (sign) sign.hidden = !((v.cheater && v.cheater.enabled) || (v.rules && v.rules.cheater));
}
