// The move log: the last moves in words, so what happened while the player looked away (a bot's
// quick moves, moves during the deal, a catch, a seat a bot took over) can be read back. The first
// frame of a page brings the game's recent moves from its events (`log`, each marked with who made
// it: the player, the clock, a bot), so a reload or a return keeps them; later frames add theirs.
// Nothing here comes from anywhere but the public frames.

import { flash } from "./feedback.js";
import { S, T, duration, nick } from "./state.js";
import { catchText, lastText, moveLine, timeoutText } from "./movetext.js";
import { $, fmt } from "../site/page.js";

const MAX = 60;
const SHOWN = 3;  // lines the folded log shows
const entries = [];  // {text, kind}
let open = false;

export function logEntries() { return entries.map((e) => e.text); }

function add(text, kind = "move") {
  if (!text) return;
  entries.push({ text, kind });
  if (entries.length > MAX) entries.splice(0, entries.length - MAX);
}

/** Was the viewer's own last move one the clock made? He sent no move at the version it answers,
 *  it was his turn, and the turn's deadline had passed when the frame came. */
function byClock(prev, before, v) {
  const l = v.last;
  if (!prev || !l || v.seat == null || l.seat !== v.seat) return false;
  const sent = S.lastSent;
  if (sent && sent.version === before.version && sent.action.type === l.type) return false;
  if ((S.seats[v.seat] || {}).bot) return false;  // a bot plays his seat: not the clock
  if (before.deadlineKind !== "turn" || !before.deadline || !(prev.turn || []).includes(v.seat)) return false;
  return S.clock.now() >= Date.parse(before.deadline) - 1500;
}

/** Two last-move records of one move: equal but for how the round closed after it. */
function sameMove(a, b) {
  if (!a || !b) return false;
  const bare = (m) => JSON.stringify({ ...m, closed: null });
  return bare(a) === bare(b);
}

/** The game's recent moves as the first frame brings them (oldest first): each in words, from the
 *  viewer's side, marked with who made it; then how each round closed. */
function addHistory(v, log) {
  let taker = null, takerBot = false;
  for (const e of log) {
    if (!e || e.seat == null) continue;
    if (e.type === "take") { taker = e.seat; takerBot = e.by === "bot"; }
    if (e.type === "catch") add(catchText({ ...v, last: e }, e), "catch");
    else if (e.seat === v.seat && e.by === "timeout") add(timeoutText(e), "clock");
    else if (e.seat === v.seat && e.by === "bot") add(moveLine(v, e, T.bot_for_you), "bot");
    else add(moveLine(v, e), (S.seats[e.seat] || {}).bot || e.by === "bot" ? "bot" : "move");
    if (e.closed === "bito") add(T.round_bito, "round");
    else if (e.closed === "take" && taker != null) {
      const mine = taker === v.seat;
      add(mine && !takerBot ? T.round_taken_you : fmt(T.round_taken, { name: mine ? T.bot_for_you : nick(taker) }), "round");
    }
    if (e.closed) taker = null;
  }
}

/** One frame's news for the log: the new last move, seats a bot took over or handed back, and
 *  (on the first frame after a return) how long a bot played the viewer's seat.
 *  `before` is what the client knew before this frame: {version, deadline, deadlineKind, seats}. */
export function noteFrame(prev, before, f) {
  const v = S.view;
  const l = v.last;
  const changed = !prev || JSON.stringify(prev.last) !== JSON.stringify(l);
  // cheater mode's check window ends by re-sending the round's last move with how the round closed:
  // the same move, told once; only the round's end is news
  const closedOnly = changed && prev && l && sameMove(prev.last, l) && !prev.last.closed && l.closed;
  const history = !prev && Array.isArray(f.log) && f.log.length > 0;
  if (history) addHistory(v, f.log);  // its last move is this frame's: told there
  if (changed && l && l.seat != null && !closedOnly && !history) {
    if (l.type === "catch") {
      const text = catchText(v, l);
      add(text, "catch");
      if (prev) flash(text, l.caught ? "notice catch" : "notice");
    } else if (byClock(prev, before, v)) {
      const text = timeoutText(l);
      add(text, "clock");
      flash(text, "notice");
    } else {
      add(lastText(v), (S.seats[l.seat] || {}).bot ? "bot" : "move");
    }
  }
  if (changed && l && l.seat != null && !history) {
    if (prev && l.closed === "bito") add(T.round_bito, "round");
    else if (prev && l.closed === "take" && prev.defender != null) {
      const mine = prev.defender === v.seat, bot = mine && (S.seats[v.seat] || {}).takeover;
      add(mine && !bot ? T.round_taken_you : fmt(T.round_taken, { name: bot ? T.bot_for_you : nick(prev.defender) }), "round");
    }
  }
  if (prev) {
    for (const s of f.seats || []) {
      const was = before.seats[s.number];
      if (!was || s.number === v.seat) continue;
      if (s.takeover && !was.takeover) add(fmt(T.bot_takes_seat, { name: nick(s.number) }), "seat");
      else if (!s.takeover && was.takeover && !s.left) add(fmt(T.seat_back, { name: nick(s.number) }), "seat");
    }
  }
  const bp = f.bot_played;
  if (bp && bp.since && !S.botPlayedTold) {
    S.botPlayedTold = true;
    const since = Date.parse(bp.since), until = bp.until ? Date.parse(bp.until) : S.clock.now();
    const text = bp.until ? fmt(T.bot_played_for_you, { time: duration(until - since), moves: bp.moves })
      : fmt(T.bot_plays_for_you, { time: duration(until - since) });
    add(text, "seat");
    flash(text, "notice");
  }
}

/** The log on the table: the last few lines, or all of them when opened. */
export function renderLog() {
  const box = $("g-log");
  if (!box) return;
  const list = $("g-log-list");
  const shown = open ? entries : entries.slice(-SHOWN);
  list.replaceChildren(...shown.map((e) => {
    const li = document.createElement("li");
    li.className = "log-" + e.kind;
    li.textContent = e.text;
    return li;
  }));
  box.classList.toggle("open", open);
  box.hidden = entries.length < 2;  // one move: the hint line already says it
  const btn = $("g-log-toggle");
  btn.setAttribute("aria-expanded", String(open));
  btn.textContent = open ? T.log_close : `${T.log_open} (${entries.length})`;
  btn.hidden = entries.length <= SHOWN && !open;
  if (open) list.scrollTop = list.scrollHeight;
}

export function bindLog() {
  const btn = $("g-log-toggle");
  if (!btn) return;
  btn.addEventListener("click", () => { open = !open; renderLog(); });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && open) { open = false; renderLog(); }
  });
}
