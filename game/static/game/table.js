// The game table client: renders every frame from the redacted view (engine.view_for) and sends
// the player's moves. One module, no build step. The server is authoritative: the client only
// offers what `view.legal` lists and explains, before sending, why anything else cannot be played.

import { beats, backEl, cardEl, label, rankOf, sortHand, suitOf } from "./cards.js";
import { Clock, Connection, uuid } from "./connection.js";
import { sounds } from "./sound.js";

const $ = (id) => document.getElementById(id);
const CFG = JSON.parse($("table-config").textContent);
const T = JSON.parse($("table-strings").textContent);
const ERR = JSON.parse($("table-errors").textContent);
const root = $("game");

const fmt = (s, vars = {}) => String(s ?? "").replace(/\{(\w+)\}/g, (m, k) => (k in vars ? vars[k] : m));

// ---------------------------------------------------------------- preferences (this browser)
const store = {
  get(k, dflt) { try { const v = localStorage.getItem("durak." + k); return v === null ? dflt : v === "1"; } catch (e) { return dflt; } },
  set(k, v) { try { localStorage.setItem("durak." + k, v ? "1" : "0"); } catch (e) { /* private mode */ } },
};
const prefs = { hints: store.get("hints", true), quick: store.get("quick", true), sound: store.get("sound", false) };
sounds.enabled = prefs.sound;

// ---------------------------------------------------------------- client state
const S = {
  frame: null,
  view: null,
  version: -1,
  gameId: CFG.game_id,
  seats: {},            // number -> {number, nick, bot, connected, left}
  A: null,              // analysis of view.legal
  selected: null,       // a hand card picked for a two-step move
  mode: null,           // null | "catch" | "transfer"
  catchSel: null,       // a table card picked for «Поймать!»
  pending: null,        // a move waiting for «Подтвердить» (quick moves off)
  inflight: null,       // {id, action, at}: sent, not yet answered
  focus: 0,             // keyboard focus index in the hand
  targetFocus: 0,
  deadline: null,
  deadlineKind: "",
  deadlineLen: 0,
  resultAt: 0,
  rematchSent: false,
  rematchDeadline: CFG.rematch_deadline ? Date.parse(CFG.rematch_deadline) : null,
  prevTurnMine: false,
  connected: false,
};
const clock = new Clock(CFG.server_now);
const sent = [];
const sentById = new Map();

// ---------------------------------------------------------------- helpers over the view
function nick(n) {
  if (n === null || n === undefined) return "";
  const s = S.seats[n];
  if (s && s.nick) return s.nick;
  return s && s.bot ? fmt(T.bot_n, { n }) : fmt(T.seat_n, { n });
}
function names(list) { return (list || []).map(nick).join(", "); }
function mySeat() { return S.view ? S.view.seat : CFG.seat; }
function partnerOf(n, v) { return v.pairs && v.players === 4 ? ((n + 1) % 4) + 1 : null; } // seats 1&3, 2&4
function cardName(c) { return `${rankOf(c)} ${T["suit_" + suitOf(c)] || ""}`.trim(); }

function analyze(v) {
  const uses = new Map();
  const b = { take: null, pass: null, transfer: [], catch: [], swap: null };
  const beatable = new Set();
  const add = (c, a) => { if (!uses.has(c)) uses.set(c, []); uses.get(c).push(a); };
  for (const a of v.legal || []) {
    switch (a.type) {
      case "attack": add(a.card, a); break;
      case "defend": add(a.card, a); beatable.add(a.target); break;
      case "transfer": add(a.card, a); b.transfer.push(a); break;
      case "swap_trump": b.swap = a; break;
      case "take": b.take = a; break;
      case "pass": b.pass = a; break;
      case "catch": b.catch.push(a); break;
      default: break;
    }
  }
  return { uses, b, beatable, catchable: new Set(b.catch.map((a) => a.card)) };
}

function usesOf(card) {
  const all = (S.A && S.A.uses.get(card)) || [];
  if (S.mode === "transfer") return all.filter((a) => a.type === "transfer");
  return all;
}

/** In words: why `card` cannot be played now (checked before anything is sent). */
function whyNot(card, target = null) {
  const v = S.view, me = v.seat;
  if (v.phase === "over") return T.why_over;
  if ((v.out || []).includes(me)) return T.why_out;
  if (v.phase === "check") return T.why_check;
  if (S.inflight) return T.why_pending;
  if (me === v.defender) {
    if (v.took) return T.why_took;
    const open = v.table.filter((p) => !p.defense).map((p) => p.attack);
    if (!open.length) return T.why_all_beaten;
    if (target) return fmt(T.why_not_beat_target, { card: label(card), target: label(target) });
    if (!open.some((a) => beats(a, card, v.trump))) return fmt(T.why_not_beat, { card: label(card) });
    return T.why_generic;
  }
  if (!v.table.length) {
    if (!(v.turn || []).includes(me)) return fmt(T.why_lead_other, { name: nick((v.turn || [])[0] ?? v.attacker) });
    return T.why_generic;
  }
  if (v.pairs && partnerOf(me, v) === v.defender) return T.why_partner;
  if ((v.passed || []).includes(me) && !(v.turn || []).includes(me)) return T.why_passed;
  if (!(v.turn || []).includes(me)) {
    const t = (v.turn || []).filter((n) => n !== v.defender);
    if (t.length) return fmt(T.why_starter_first, { name: names(t) });
    return fmt(T.why_not_your_turn, { names: names(v.turn) || "—" });
  }
  const ranks = [...new Set(v.table.flatMap((p) => [p.attack, p.defense]).filter(Boolean).map(rankOf))];
  if (!ranks.includes(rankOf(card))) return fmt(T.why_rank, { ranks: ranks.join(", ") });
  if (v.limit && v.table.length >= v.limit) return T.why_limit;
  const open = v.table.filter((p) => !p.defense).length;
  const defCards = (v.hand_counts || {})[String(v.defender)];
  if (defCards !== undefined && open >= defCards) return T.why_limit;
  return T.why_generic;
}

function moveText(a) {
  const c = a.card ? label(a.card) : "", t = a.target ? label(a.target) : "";
  switch (a.type) {
    case "attack": return fmt(T.move_attack, { card: c });
    case "defend": return fmt(T.move_defend, { card: c, target: t });
    case "transfer": return fmt(a.show ? T.move_transfer_show : T.move_transfer, { card: c });
    case "take": return T.move_take;
    case "pass": return T.move_pass;
    case "swap_trump": return fmt(T.move_swap, { card: c });
    case "catch": return fmt(T.move_catch, { card: c });
    default: return a.type;
  }
}

function passLabel(v) {
  return v.table.length && v.table.every((p) => p.defense) && !v.took ? T.bito : T.pass;
}

// ---------------------------------------------------------------- feedback
let toastTimer = null;
function toast(text, kind = "info") {
  const el = $("g-toast");
  el.textContent = text;
  el.className = "g-toast " + kind;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, kind === "error" ? 4200 : 2600);
}
function shake(card) {
  for (const el of document.querySelectorAll(`[data-card="${card}"]`)) {
    el.classList.remove("shake");
    void el.offsetWidth; // restart the animation
    el.classList.add("shake");
    setTimeout(() => el.classList.remove("shake"), 600);
  }
}
function refuse(card, text, target = null) {
  toast(text, "error");
  sounds.play("error");
  if (card) shake(card);
  if (target) shake(target);
}

let bannerTimer = null;
function banner(text, kind) {
  const el = $("g-banner");
  clearTimeout(bannerTimer);
  if (!text) { el.hidden = true; return; }
  el.textContent = text;
  el.className = "g-banner " + kind;
  el.hidden = false;
  if (kind === "ok") bannerTimer = setTimeout(() => { el.hidden = true; }, 2500);
}

// ---------------------------------------------------------------- moves
function commit(action) {
  if (!prefs.quick) {
    S.pending = action;
    render();
    const ok = document.querySelector(".g-controls .confirm");
    if (ok) ok.focus({ preventScroll: true });
    return;
  }
  send(action);
}

function send(action) {
  if (S.inflight) { toast(T.why_pending); return; }
  const msg = { id: uuid(), version: S.version, action };
  if (CFG.harness) {
    sent.push(msg);
  } else if (!conn || !conn.send(msg)) {
    refuse(action.card, T.connection_lost);
    return;
  }
  S.inflight = { id: msg.id, action, at: Date.now(), version: S.version };
  sentById.set(msg.id, action);
  S.selected = null;
  S.pending = null;
  S.mode = null;
  S.catchSel = null;
  sounds.play("card");
  render();
  const id = msg.id;
  setTimeout(() => {
    if (S.inflight && S.inflight.id === id) { S.inflight = null; render(); }
  }, CFG.harness ? 1500 : 8000);
}

function select(card) {
  S.selected = card;
  S.mode = S.mode === "transfer" ? "transfer" : null;
  S.catchSel = null;
  S.targetFocus = 0;
  render();
}

function clearChoice() {
  S.selected = null; S.mode = null; S.catchSel = null; S.pending = null;
  render();
}

function tapHand(card) {
  const v = S.view;
  if (!v || v.seat == null) return;
  if (S.inflight) { toast(T.why_pending); return; }
  if (S.pending) S.pending = null;
  const uses = usesOf(card);
  if (!uses.length) { refuse(card, whyNot(card)); S.selected = null; render(); return; }
  if (!prefs.hints) {
    // hints off: two taps — the first raises the card, the second plays it (same card again
    // when it has one use, or a table card / the table)
    if (S.selected !== card) { select(card); return; }
    if (uses.length === 1) { commit(uses[0]); return; }
    toast(T.why_pick_target);
    return;
  }
  if (uses.length === 1) { commit(uses[0]); return; }
  if (S.selected === card) { S.selected = null; render(); return; }
  select(card);
}

function tapTableCard(card) {
  const v = S.view;
  if (!v || v.seat == null) return;
  if (S.inflight) { toast(T.why_pending); return; }
  const A = S.A;
  if (S.mode === "catch" || (!S.selected && A.catchable.has(card))) {
    if (!A.catchable.has(card)) { refuse(card, ERR.own_card || T.why_generic); return; }
    if (S.mode === "catch") { commit({ type: "catch", card }); return; }
    S.catchSel = S.catchSel === card ? null : card;
    render();
    return;
  }
  if (S.selected) {
    const use = usesOf(S.selected).find((a) => a.type === "defend" && a.target === card);
    if (use) { commit(use); return; }
    const pair = v.table.find((p) => p.attack === card);
    if (pair && !pair.defense && v.seat === v.defender) { refuse(S.selected, whyNot(S.selected, card), card); return; }
    tapBattle();
    return;
  }
}

/** The table area itself (not a card): lead / throw in / transfer with the selected card. */
function tapBattle() {
  if (!S.selected) return;
  const uses = usesOf(S.selected);
  const use = uses.find((a) => a.type === "attack") || uses.find((a) => a.type === "transfer" && !a.show)
    || uses.find((a) => a.type === "transfer");
  if (use) { commit(use); return; }
  if (uses.some((a) => a.type === "defend")) { toast(T.why_pick_target); return; }
  refuse(S.selected, whyNot(S.selected));
}

function pressButton(kind) {
  if (S.inflight) { toast(T.why_pending); return; }
  const A = S.A;
  if (!A) return;
  if (kind === "take" && A.b.take) commit(A.b.take);
  else if (kind === "pass" && A.b.pass) commit(A.b.pass);
  else if (kind === "swap" && A.b.swap) commit(A.b.swap);
  else if (kind === "transfer" && A.b.transfer.length) {
    const mine = S.selected ? A.b.transfer.filter((a) => a.card === S.selected) : [];
    if (mine.length) { commit(mine.find((a) => a.show) || mine[0]); return; }
    const cards = [...new Set(A.b.transfer.map((a) => a.card))];
    if (cards.length === 1 && A.b.transfer.length === 1) { commit(A.b.transfer[0]); return; }
    S.mode = S.mode === "transfer" ? null : "transfer";
    S.selected = null;
    render();
  } else if (kind === "catch" && A.b.catch.length) {
    if (S.catchSel && A.catchable.has(S.catchSel)) { commit({ type: "catch", card: S.catchSel }); return; }
    if (A.b.catch.length === 1) { commit(A.b.catch[0]); return; }
    S.mode = S.mode === "catch" ? null : "catch";
    S.selected = null;
    render();
  }
}

// ---------------------------------------------------------------- frames
function onFrame(msg, arrived = Date.now()) {
  if (!msg || typeof msg !== "object") return;
  switch (msg.type) {
    case "state": onState(msg, arrived); break;
    case "error": onError(msg); break;
    case "ack":
      if (S.inflight && S.inflight.id === msg.id) { S.inflight = null; render(); }
      break;
    case "game_started":
      if (msg.game_id && msg.game_id !== S.gameId) location.assign(CFG.table_url);
      break;
    case "lobby":
      // no game to show (it ended and the table went back to waiting): the table page shows the room
      if (!S.view) { setTimeout(() => location.assign(CFG.table_url), 300); break; }
      // waiting-room news: once this game is over, the table may have moved on (rematch countdown,
      // or back to the waiting room): the lobby's room fragment answers 204 while the game page stays
      if (S.view && S.view.phase === "over") checkTableMovedOn();
      break;
    default: break;
  }
}

let movedOnCheck = null;
function checkTableMovedOn() {
  if (!CFG.room_url || movedOnCheck) return;
  movedOnCheck = setTimeout(async () => {
    movedOnCheck = null;
    try {
      const r = await fetch(CFG.room_url, { credentials: "same-origin", headers: { "HX-Request": "true" } });
      if (r.status === 200) location.assign(CFG.table_url);
    } catch (e) { /* next lobby event tries again */ }
  }, 250);
}

function onState(f, arrived) {
  if (!f.view) return;
  if (f.game_id && S.gameId && f.game_id !== S.gameId) {
    if (S.view && S.view.phase !== "over") return; // a stray frame of another game
    location.assign(CFG.table_url);  // the rematch started: a fresh page for the new game
    return;
  }
  if (typeof f.version === "number" && f.version < S.version) return; // stale
  const prev = S.view;
  const flipFrom = captureRects();
  S.frame = f;
  S.view = f.result && f.view.result ? { ...f.view, result: { ...f.view.result, ...f.result } } : f.view;
  S.version = typeof f.version === "number" ? f.version : S.version;
  if (f.game_id) S.gameId = f.game_id;
  S.seats = {};
  for (const s of f.seats || []) S.seats[s.number] = s;
  S.A = analyze(S.view);
  if (S.inflight && (!prev || S.version > S.inflight.version)) S.inflight = null;
  // drop a choice that is no longer possible
  if (S.selected && !f.view.hand.includes(S.selected)) S.selected = null;
  if (S.selected && !usesOf(S.selected).length) S.selected = null;
  if (S.pending && !sameLegal(S.pending)) S.pending = null;
  if (S.mode === "catch" && !S.A.b.catch.length) S.mode = null;
  if (S.mode === "transfer" && !S.A.b.transfer.length) S.mode = null;
  if (S.catchSel && !S.A.catchable.has(S.catchSel)) S.catchSel = null;
  // deadline
  const dl = f.deadline || null;
  if (dl && dl !== S.deadline) {
    const len = f.deadline_kind === "check" ? 4000 : (CFG.turn_seconds || 30) * 1000;
    clock.sample(dl, len, arrived);
    S.deadlineLen = len;
  }
  S.deadline = dl;
  S.deadlineKind = f.deadline_kind || "";
  // sounds and the result moment
  const mine = f.view.seat != null && (f.view.turn || []).includes(f.view.seat);
  if (mine && !S.prevTurnMine) sounds.play("turn");
  else if (prev && f.view.last && f.view.last.seat !== f.view.seat && JSON.stringify(prev.last) !== JSON.stringify(f.view.last)) sounds.play("card");
  S.prevTurnMine = mine;
  if (f.view.result && !(prev && prev.result)) {
    S.resultAt = Date.now();
    if (!S.rematchDeadline) S.rematchDeadline = clock.now() + 30000;
    const r = f.view.result, me = f.view.seat;
    if (me != null) sounds.play((r.losers || []).includes(me) || r.loser === me ? "lose" : "win");
  }
  render(prev, flipFrom);
}

function sameLegal(a) {
  return (S.view.legal || []).some((b) => JSON.stringify(b) === JSON.stringify(a));
}

function onError(msg) {
  const act = (msg.id && sentById.get(msg.id)) || (S.inflight && !msg.id ? S.inflight.action : null);
  if (S.inflight && (!msg.id || msg.id === S.inflight.id)) S.inflight = null;
  const code = msg.code || "unknown";
  let text = ERR[code];
  if (text) text = fmt(text, { target: act && act.target ? label(act.target) : "…", card: act && act.card ? label(act.card) : "…" });
  else text = msg.message || ERR.unknown;
  refuse(act && act.card, text, code === "does_not_beat" && act ? act.target : null);
  render();
}

// ---------------------------------------------------------------- rendering
function captureRects() {
  const m = new Map();
  for (const el of document.querySelectorAll(".g-hand .card[data-card], .g-battle .card[data-card]")) {
    m.set(el.dataset.card, el.getBoundingClientRect());
  }
  const pods = new Map();
  for (const el of document.querySelectorAll(".pod[data-seat]")) {
    const c = el.querySelector(".pod-cards") || el;
    pods.set(Number(el.dataset.seat), c.getBoundingClientRect());
  }
  const battle = [...document.querySelectorAll(".g-battle .card[data-card]")].map((el) => ({ card: el.dataset.card, rect: el.getBoundingClientRect(), node: el }));
  const discard = $("g-discard").getBoundingClientRect();
  const hand = $("g-hand-wrap").getBoundingClientRect();
  return { cards: m, pods, battle, discard, hand };
}

function render(prev = null, from = null) {
  const v = S.view;
  if (!v) return;
  root.dataset.state = v.phase === "over" ? "over" : "play";
  root.dataset.version = String(S.version);
  root.dataset.hints = prefs.hints ? "on" : "off";
  root.classList.toggle("spectator", v.seat == null);
  root.classList.toggle("hints-on", prefs.hints);
  root.classList.toggle("my-turn", v.seat != null && (v.turn || []).includes(v.seat));
  renderSeats(v);
  renderDeck(v);
  renderBattle(v, from);
  renderHand(v);
  renderControls(v);
  renderStatus(v);
  renderResult(v);
  if (prev && from) animateClear(prev, v, from);
  tick();
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

function seatOrder(v) {
  const n = v.players;
  const me = v.seat;
  if (me == null) return Array.from({ length: n }, (_, i) => i + 1); // spectator: seat 1 first
  return Array.from({ length: n - 1 }, (_, k) => ((me - 1 + k + 1) % n) + 1);
}

function renderSeats(v) {
  const box = $("g-seats");
  const narrow = root.clientWidth < 700;
  const order = seatOrder(v);
  const spectator = v.seat == null;
  let shown = order, bottom = null;
  if (spectator) { bottom = order[0]; shown = order.slice(1); }
  const pos = (narrow ? POS_NARROW : POS_WIDE)[shown.length] || POS_WIDE[5];
  box.replaceChildren();
  shown.forEach((n, i) => box.appendChild(podEl(v, n, pos[i] || [50, 50])));
  if (bottom !== null) box.appendChild(podEl(v, bottom, [50, narrow ? 90 : 88], "bottom"));
  // keep every pod inside the felt (long nicks, narrow phones)
  const fr = $("g-felt").getBoundingClientRect();
  for (const el of box.children) {
    const r = el.getBoundingClientRect();
    if (r.right > fr.right - 2) el.style.left = `calc(${el.style.left} - ${Math.ceil(r.right - fr.right + 2)}px)`;
    else if (r.left < fr.left + 2) el.style.left = `calc(${el.style.left} + ${Math.ceil(fr.left + 2 - r.left)}px)`;
  }
  // my own pod above the hand
  const my = $("g-mypod");
  my.replaceChildren();
  if (v.seat != null) my.appendChild(podEl(v, v.seat, null, "mine"));
}

function podEl(v, n, pos, extra = "") {
  const s = S.seats[n] || {};
  const count = (v.hand_counts || {})[String(n)] ?? 0;
  const isOut = (v.out || []).includes(n);
  const el = document.createElement("div");
  el.className = "pod" + (extra ? " " + extra : "");
  el.dataset.seat = String(n);
  if (pos) { el.style.left = pos[0] + "%"; el.style.top = pos[1] + "%"; }
  const turn = (v.turn || []).includes(n) && v.phase !== "over";
  el.classList.toggle("turn", turn);
  el.classList.toggle("is-out", isOut);
  el.classList.toggle("offline", s.connected === false && !s.bot);
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
  id.appendChild(nm);
  el.appendChild(id);
  const badges = document.createElement("div");
  badges.className = "pod-badges";
  const badge = (text, cls) => { const b = document.createElement("span"); b.className = "badge " + cls; b.textContent = text; badges.appendChild(b); };
  if (s.bot) badge(T.bot, "b-bot");
  if (s.left) badge(T.left, "b-left");
  else if (s.connected === false && !s.bot) badge(T.offline, "b-off");
  if (isOut) badge(T.out, "b-out");
  else if (v.phase !== "over") {
    if (v.defender === n) badge(v.took ? T.took_badge : T.defender_badge, v.took ? "b-took" : "b-def");
    else if (v.attacker === n) badge(T.attacker, "b-atk");
    if ((v.passed || []).includes(n) && v.defender !== n) badge(T.passed_badge, "b-pass");
  }
  if (v.seat != null && partnerOf(v.seat, v) === n) badge(T.partner, "b-partner");
  el.appendChild(badges);
  el.setAttribute("aria-label", `${nick(n)}: ${fmt(T.cards_n, { n: count })}`);
  return el;
}

function renderDeck(v) {
  const deck = $("g-deck");
  deck.replaceChildren();
  const trumpSym = { S: "♠", H: "♥", D: "♦", C: "♣" }[v.trump] || "";
  if (v.stock > 0 && v.trump_card) {
    const tc = cardEl(v.trump_card, { trump: v.trump });
    tc.classList.add("trump-card");
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
  dis.setAttribute("aria-label", `${T.discard}: ${v.discard || 0}`);
}

function renderBattle(v, from) {
  const box = $("g-battle");
  box.replaceChildren();
  const A = S.A;
  const hints = prefs.hints;
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
    e.textContent = v.seat != null && S.A.uses.size && v.phase === "play" && !v.table.length && (v.turn || []).includes(v.seat) ? "⇧" : "";
    box.appendChild(e);
  }
  if (from) flipIn(from, v);
}

/** FLIP: a card that appears on the table glides in from where it was (my hand, or its player). */
function flipIn(from, v) {
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

/** The table was cleared: old cards fly to the discard (bito) or to whoever took them. */
function animateClear(prev, v, from) {
  if (!prev.table.length || v.table.length || !from.battle.length) return;
  if (matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const wentToDiscard = (v.discard || 0) > (prev.discard || 0);
  let target = from.discard;
  if (!wentToDiscard) {
    const d = prev.defender;
    target = d === v.seat ? from.hand : from.pods.get(d) || from.discard;
  }
  for (const { card, rect } of from.battle) {
    const g = wentToDiscard ? backEl("ghost") : cardEl(card, { trump: v.trump });
    g.classList.add("ghost");
    Object.assign(g.style, { left: rect.left + "px", top: rect.top + "px" });
    g.style.setProperty("--w", Math.min(rect.width, rect.height / 1.42) + "px");
    document.body.appendChild(g);
    const dx = target.left + target.width / 2 - (rect.left + rect.width / 2);
    const dy = target.top + target.height / 2 - (rect.top + rect.height / 2);
    const anim = g.animate([
      { transform: "translate(0,0) rotate(0deg)", opacity: 1 },
      { transform: `translate(${dx}px, ${dy}px) rotate(${wentToDiscard ? 90 : 0}deg) scale(.6)`, opacity: 0.2 },
    ], { duration: 520, easing: "cubic-bezier(.4,.1,.3,1)" });
    anim.onfinish = () => g.remove();
  }
}

const handEls = new Map();

function renderHand(v) {
  const hand = $("g-hand");
  const wrap = $("g-hand-wrap");
  const spectator = v.seat == null;
  wrap.hidden = spectator;
  if (spectator) { hand.replaceChildren(); handEls.clear(); return; }
  const cards = sortHand(v.hand || [], v.trump);
  const hints = prefs.hints;
  const A = S.A;
  // keyed: a card keeps its element, so moving within the fan is a CSS transition
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
  // keep DOM order = sorted order (focus order and overlap)
  cards.forEach((c) => hand.appendChild(handEls.get(c)));
  layoutHand(cards);
}

function layoutHand(cards) {
  const hand = $("g-hand");
  const wrap = $("g-hand-wrap");
  const n = cards.length;
  if (!n) { hand.style.width = ""; return; }
  const first = handEls.get(cards[0]);
  const cw = first.offsetWidth || 80;
  const W = wrap.clientWidth - 8;
  let step = n > 1 ? Math.min(cw * 0.74, (W - cw) / (n - 1)) : 0;
  const minStep = cw * 0.42;
  let scroll = false;
  if (n > 1 && step < minStep) { step = minStep; scroll = true; }
  const total = cw + step * (n - 1);
  const width = Math.max(total, W);
  hand.style.width = width + "px";
  wrap.classList.toggle("scrolls", scroll);
  const start = (width - total) / 2;
  const mid = (n - 1) / 2;
  const perCard = scroll ? 1.2 : Math.min(4, 28 / Math.max(n, 1));
  cards.forEach((c, i) => {
    const el = handEls.get(c);
    const d = i - mid;
    el.style.left = `${start + i * step}px`;
    el.style.top = `${Math.abs(d) * Math.abs(d) * (scroll ? 0.4 : 1.4)}px`;
    el.style.rotate = `${d * perCard}deg`;
  });
}

function button(text, kind, key, cls = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `g-btn act-${kind} ${cls}`.trim();
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
    box.appendChild(button(T.confirm, "confirm", "Enter", "g-btn-gold confirm"));
    box.appendChild(button(T.cancel, "cancel", "Esc", "g-btn-ghost"));
    return;
  }
  const b = S.A.b;
  if (b.take) box.appendChild(button(T.take, "take", "T", "g-btn-danger"));
  if (b.transfer.length) box.appendChild(button(T.transfer, "transfer", "P", S.mode === "transfer" ? "active" : ""));
  if (b.pass) box.appendChild(button(passLabel(v), "pass", "B", "g-btn-gold"));
  if (b.catch.length) box.appendChild(button(T.catch, "catch", "C", "g-btn-danger" + (S.mode === "catch" ? " active" : "")));
  if (b.swap) box.appendChild(button(T.swap_trump, "swap", "", "g-btn-ghost"));
  if (S.inflight) for (const el of box.querySelectorAll("button")) el.disabled = true;
}

function turnText(v) {
  const me = v.seat;
  if (v.phase === "over") return T.game_over;
  const waiting = (v.turn || []).length ? fmt(T.waiting_for, { names: names(v.turn) }) : "";
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

function lastText(v) {
  const l = v.last;
  if (!l || l.seat == null) return "";
  const name = l.seat === v.seat ? T.you : nick(l.seat);
  const c = l.card ? label(l.card) : "";
  switch (l.type) {
    case "attack": return fmt(T.last_attack, { name, card: c });
    case "defend": return fmt(T.last_defend, { name, card: c, target: l.target ? label(l.target) : "" });
    case "transfer": return fmt(l.show ? T.last_transfer_show : T.last_transfer, { name, card: c });
    case "take": return fmt(T.last_take, { name });
    case "pass": return fmt(T.last_pass, { name });
    case "swap_trump": return fmt(T.last_swap, { name });
    case "catch": return fmt(l.caught ? T.last_catch_ok : T.last_catch_bad, { name, card: c });
    default: return "";
  }
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
  if (!prefs.hints) return lastText(v);
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
}

function renderResult(v) {
  const box = $("g-result");
  const r = v.result;
  if (!r) { box.hidden = true; return; }
  const wasHidden = box.hidden;
  box.hidden = false;
  const me = v.seat;
  $("g-result-title").textContent = T.result_title;
  let main, sub = "";
  const losers = r.losers && r.losers.length ? r.losers : r.loser != null ? [r.loser] : [];
  if (r.draw) main = T.draw;
  else if (v.pairs) {
    if (me != null && (r.winners || []).includes(me)) main = T.your_pair_won;
    else if (me != null && losers.includes(me)) main = T.your_pair_lost;
    else main = fmt(T.pair_won, { names: (r.winners || []).map(nick).join(" & ") });
  } else if (me != null && losers.includes(me)) main = T.you_durak;
  else {
    main = losers.length ? fmt(T.durak_is, { name: names(losers) }) : T.game_over;
    if (me != null && losers.length) sub = T.you_won;
  }
  $("g-result-main").textContent = main;
  $("g-result-sub").textContent = sub;
  const mainEl = $("g-result-main");
  mainEl.classList.toggle("lost", me != null && losers.includes(me));
  const reasonKey = "reason_" + (r.reason || "");
  const who = (r.left && r.left[0]) ?? (r.timed_out && r.timed_out[0]) ?? r.loser ?? losers[0];
  $("g-result-reason").textContent = T[reasonKey] ? fmt(T.reason, { reason: fmt(T[reasonKey], { name: nick(who) }) }) : "";
  const list = $("g-result-list");
  list.replaceChildren();
  const order = [...(v.out || [])];
  for (const n of losers) if (!order.includes(n)) order.push(n);
  for (let n = 1; n <= v.players; n++) if (!order.includes(n)) order.push(n);
  for (const n of order) {
    const li = document.createElement("li");
    li.textContent = nick(n) + (n === me ? ` (${T.you})` : "");
    if (losers.includes(n)) li.className = "loser";
    if ((r.winners || []).includes(n)) li.className = "winner";
    list.appendChild(li);
  }
  const rb = $("g-rematch");
  const canRematch = me != null && CFG.ready_url && !S.rematchSent && !rematchClosed();
  rb.hidden = !canRematch;
  rb.textContent = `${T.rematch} · ${T.ready}`;
  $("g-to-lobby").href = CFG.lobby_url || "/";
  if (wasHidden && canRematch) rb.focus({ preventScroll: true });
  updateRematchInfo();
}

function rematchClosed() { return S.rematchDeadline && clock.now() > S.rematchDeadline; }

function updateRematchInfo() {
  const info = $("g-rematch-info");
  const v = S.view;
  if (!v || !v.result) return;
  if (S.rematchSent) { info.textContent = T.ready_sent; return; }
  if (!S.rematchDeadline || v.seat == null) { info.textContent = ""; return; }
  const left = Math.ceil((S.rematchDeadline - clock.now()) / 1000);
  if (left > 0) info.textContent = fmt(T.rematch_in, { s: left });
  else {
    info.textContent = T.rematch_closed;
    $("g-rematch").hidden = true;
    if (left < -2 && !S.closedChecked) { S.closedChecked = true; checkTableMovedOn(); }
  }
}

// ---------------------------------------------------------------- countdown
function tick() {
  const ring = root.querySelector(".g-ring");
  const num = root.querySelector(".g-ring-num");
  const v = S.view;
  if (!v || !S.deadline || v.phase === "over") {
    ring.setAttribute("hidden", ""); num.hidden = true; root.style.setProperty("--frac", "0");
    if (v && v.result) updateRematchInfo();
    return;
  }
  const left = clock.left(S.deadline);
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
setInterval(tick, 200);

// ---------------------------------------------------------------- input: pointer, drag & drop
let drag = null;
let suppressClick = false;

$("g-hand").addEventListener("pointerdown", (e) => {
  const el = e.target.closest(".card[data-card]");
  if (!el || e.button > 0 || !S.view) return;
  drag = { el, card: el.dataset.card, x0: e.clientX, y0: e.clientY, id: e.pointerId, ghost: null, over: null };
});
window.addEventListener("pointermove", (e) => {
  if (!drag || e.pointerId !== drag.id) return;
  const dx = e.clientX - drag.x0, dy = e.clientY - drag.y0;
  if (!drag.ghost) {
    if (Math.hypot(dx, dy) < 12 || (e.pointerType !== "mouse" && dy > -8)) return;
    if (!usesOf(drag.card).length || S.inflight) { drag = null; return; }
    const r = drag.el.getBoundingClientRect();
    const g = cardEl(drag.card, { trump: S.view.trump });
    g.classList.add("drag-ghost");
    Object.assign(g.style, { left: r.left + "px", top: r.top + "px" });
    g.style.setProperty("--w", r.width + "px");
    document.body.appendChild(g);
    drag.ghost = g;
    drag.r = r;
    drag.el.classList.add("dragging");
    S.selected = drag.card;
    render();
  }
  drag.ghost.style.transform = `translate(${dx}px, ${dy}px) rotate(${dx / 30}deg)`;
  const under = document.elementFromPoint(e.clientX, e.clientY);
  const t = under && (under.closest("[data-target]") || under.closest("#g-felt"));
  if (drag.over !== t) {
    if (drag.over) drag.over.classList.remove("drop-over");
    drag.over = t;
    if (t) t.classList.add("drop-over");
  }
});
function endDrag(e, cancelled) {
  if (!drag || (e && e.pointerId !== drag.id)) return;
  const d = drag;
  drag = null;
  if (!d.ghost) return;
  suppressClick = true;
  setTimeout(() => { suppressClick = false; }, 0);
  d.ghost.remove();
  d.el.classList.remove("dragging");
  if (d.over) d.over.classList.remove("drop-over");
  if (cancelled || !d.over) { S.selected = null; render(); return; }
  const tgt = d.over.dataset && d.over.dataset.target;
  const uses = usesOf(d.card);
  S.selected = null;
  if (tgt) {
    const use = uses.find((a) => a.type === "defend" && a.target === tgt);
    if (use) { commit(use); return; }
  }
  const lay = uses.find((a) => a.type === "attack") || uses.find((a) => a.type === "transfer" && !a.show);
  if (!tgt && lay) { commit(lay); return; }
  const only = uses.filter((a) => a.type === "defend");
  if (!tgt && only.length === 1) { commit(only[0]); return; }
  render();
  refuse(d.card, tgt ? whyNot(d.card, tgt) : T.why_pick_target);
}
window.addEventListener("pointerup", (e) => endDrag(e, false));
window.addEventListener("pointercancel", (e) => endDrag(e, true));

$("g-hand").addEventListener("click", (e) => {
  if (suppressClick) return;
  const el = e.target.closest(".card[data-card]");
  if (!el) return;
  const cards = sortHand(S.view.hand, S.view.trump);
  S.focus = Math.max(0, cards.indexOf(el.dataset.card));
  tapHand(el.dataset.card);
});
$("g-battle").addEventListener("click", (e) => {
  const el = e.target.closest(".card[data-card]");
  if (el) tapTableCard(el.dataset.card);
  else tapBattle();
});
$("g-felt").addEventListener("click", (e) => {
  if (e.target.closest(".g-battle") || e.target.closest(".pod") || e.target.closest(".g-deck")) return;
  if (S.selected) tapBattle();
});
$("g-controls").addEventListener("click", (e) => {
  const b = e.target.closest("button[data-kind]");
  if (!b) return;
  const k = b.dataset.kind;
  if (k === "confirm") { if (S.pending) send(S.pending); return; }
  if (k === "cancel") { clearChoice(); return; }
  pressButton(k);
});

// ---------------------------------------------------------------- keyboard
document.addEventListener("keydown", (e) => {
  if (!S.view || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target.closest && e.target.closest("input, textarea, select, dialog")) return;
  const v = S.view;
  const cards = v.seat != null ? sortHand(v.hand, v.trump) : [];
  const targets = [...document.querySelectorAll(".g-battle .card.target, .g-battle .card.catchable")];
  const picking = (S.selected && targets.some((t) => t.classList.contains("target"))) || S.mode === "catch";
  const key = e.key;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const d = key === "ArrowLeft" ? -1 : 1;
    if (picking && targets.length) {
      S.targetFocus = (S.targetFocus + d + targets.length) % targets.length;
      targets[S.targetFocus].focus();
    } else if (cards.length) {
      S.focus = Math.max(0, Math.min(cards.length - 1, S.focus + d));
      const el = handEls.get(cards[S.focus]);
      for (const x of handEls.values()) x.tabIndex = -1;
      el.tabIndex = 0;
      el.focus();
      el.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
    e.preventDefault();
    return;
  }
  if (key === "ArrowUp" && picking && targets.length) { targets[S.targetFocus % targets.length].focus(); e.preventDefault(); return; }
  if (key === "ArrowDown" && cards.length) { handEls.get(cards[Math.min(S.focus, cards.length - 1)]).focus(); e.preventDefault(); return; }
  if (key === "Escape") { clearChoice(); return; }
  if (key === "Enter" || key === " ") {
    if (S.pending) { send(S.pending); e.preventDefault(); return; }
    const f = document.activeElement;
    if (f && f.closest && f.closest(".g-hand") && f.dataset.card) { tapHand(f.dataset.card); e.preventDefault(); return; }
    if (f && f.closest && f.closest(".g-battle") && f.dataset.card) { tapTableCard(f.dataset.card); e.preventDefault(); return; }
    if (f && f.tagName === "BUTTON") return; // the button's own click
    if (cards.length && S.focus < cards.length) { tapHand(cards[S.focus]); e.preventDefault(); }
    return;
  }
  const map = { KeyT: "take", KeyB: "pass", KeyP: "transfer", KeyC: "catch" };
  if (map[e.code] && v.seat != null) { pressButton(map[e.code]); e.preventDefault(); }
});

// ---------------------------------------------------------------- menu, switches, leave, rematch
function setupMenu() {
  const btn = $("g-menu-btn"), menu = $("g-menu");
  btn.addEventListener("click", () => {
    menu.hidden = !menu.hidden;
    btn.setAttribute("aria-expanded", String(!menu.hidden));
  });
  document.addEventListener("click", (e) => {
    if (!menu.hidden && !e.target.closest("#g-menu") && !e.target.closest("#g-menu-btn")) {
      menu.hidden = true; btn.setAttribute("aria-expanded", "false");
    }
  });
  const bind = (id, key, after) => {
    const el = $(id);
    el.checked = prefs[key];
    el.addEventListener("change", () => { prefs[key] = el.checked; store.set(key, el.checked); if (after) after(); S.selected = null; S.pending = null; S.mode = null; render(); });
  };
  bind("opt-hints", "hints");
  bind("opt-quick", "quick");
  bind("opt-sound", "sound", () => { sounds.enabled = prefs.sound; sounds.play("card"); });
  $("g-keys").textContent = T.shortcuts;
}

function csrf() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  if (m) return decodeURIComponent(m[1]);
  try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
}

async function post(url, data) {
  const body = new URLSearchParams(data || {});
  return fetch(url, { method: "POST", body, credentials: "same-origin", headers: { "X-CSRFToken": csrf(), Accept: "application/json" } });
}

function setupLeave() {
  const dlg = $("g-leave-dialog");
  $("g-leave").addEventListener("click", () => {
    const v = S.view;
    const over = !v || v.phase === "over" || v.seat == null || (v.out || []).includes(v.seat);
    if (over || !CFG.leave_url) { location.assign(CFG.lobby_url || "/"); return; }
    if (dlg.showModal) dlg.showModal(); else if (confirm(T.leave_confirm_text)) leaveNow();
  });
  dlg.addEventListener("close", () => { if (dlg.returnValue === "leave") leaveNow(); });
}

async function leaveNow() {
  try { await post(CFG.leave_url, {}); } catch (e) { /* the disconnect deadline does the rest */ }
  if (conn) conn.stop();
  location.assign(CFG.lobby_url || "/");
}

function setupRematch() {
  $("g-rematch").addEventListener("click", async () => {
    if (!CFG.ready_url) return;
    const b = $("g-rematch");
    b.disabled = true;
    try {
      const r = await post(CFG.ready_url, { ready: "1" });
      if (!r.ok && r.status >= 400) throw new Error(String(r.status));
      S.rematchSent = true;
      b.hidden = true;
      updateRematchInfo();
    } catch (e) {
      b.disabled = false;
      toast(ERR.unknown, "error");
    }
  });
}

// ---------------------------------------------------------------- start
let conn = null;
setupMenu();
setupLeave();
setupRematch();
window.addEventListener("resize", () => { if (S.view) render(); });

window.__table = {
  get view() { return S.view; },
  get version() { return S.version; },
  get sent() { return sent; },
  get selected() { return S.selected; },
  get pending() { return S.pending; },
  receive(frame) { if (CFG.harness) onFrame(frame, Date.now()); },
  dropSocket() { if (conn && conn.ws) conn.ws.close(4000); }, // as if the network blinked
};

if (CFG.harness) {
  onFrame(CFG.harness.frame, Date.now());
} else if (CFG.ws_url) {
  conn = new Connection(CFG.ws_url, {
    frame: onFrame,
    open: (restored) => { S.connected = true; root.classList.remove("offline"); if (restored) banner(T.connection_restored, "ok"); else banner(null); },
    lost: () => { S.connected = false; root.classList.add("offline"); banner(T.connection_lost, "lost"); },
    fatal: () => { banner(T.connection_closed, "lost"); },
  });
  $("g-turn").textContent = T.connecting;
  conn.start();
}
