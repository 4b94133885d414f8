// The one client state object and the page's configuration, plus pure helpers over the view.
// No side effects on import: table.js (the entry) calls loadPage() once.
import { fmt } from "../site/page.js";

export let CFG = {};
export let T = {};
export let ERR = {};

/** Read the page's JSON config, strings and error texts (json_script blocks). */
export function loadPage(doc = document) {
  const read = (id) => JSON.parse(doc.getElementById(id).textContent);
  CFG = read("table-config");
  T = read("table-strings");
  ERR = read("table-errors");
  S.gameId = CFG.game_id;
  S.rematchDeadline = CFG.rematch_deadline ? Date.parse(CFG.rematch_deadline) : null;
  S.rematchReady = CFG.rematch_ready || [];
}

/** Preferences kept in this browser. */
export const store = {
  get(k, dflt) { try { const v = localStorage.getItem("durak." + k); return v === null ? dflt : v === "1"; } catch (e) { return dflt; } },
  set(k, v) { try { localStorage.setItem("durak." + k, v ? "1" : "0"); } catch (e) { /* private mode */ } },
};

/** Everything the client knows; only the modules' functions change it. */
export const S = {
  frame: null,
  view: null,
  version: -1,
  gameId: null,
  seats: {},            // number -> {number, nick, bot, connected, away, takeover_at, lose_at, left}
  hints: null,          // {card: error code} from the server (frame.hints), null in old frames
  A: null,              // analysis of view.legal
  selected: null,       // a hand card picked for a two-step move
  mode: null,           // null | "catch" | "transfer"
  catchSel: null,       // a table card picked for «Поймать!»
  pending: null,        // a move waiting for «Подтвердить» (quick moves off)
  inflight: null,       // {id, action, at, version}: sent, not yet answered
  focus: 0,             // keyboard focus index in the hand
  targetFocus: 0,
  deadline: null,
  deadlineKind: "",
  deadlineLen: 0,
  resultAt: 0,
  rematchSent: false,
  rematchReady: [],     // nicks who asked for a rematch (the table page's config, refreshed on lobby news)
  rematchDeadline: null,
  closedChecked: false,
  prevTurnMine: false,
  connected: false,
  conn: null,
  clock: null,
  prefs: { hints: true, quick: true, sound: false },
  sent: [],             // harness: the messages a real page would have sent
  sentById: new Map(),
  lastSent: null,       // {action, version} of the last move this page sent
  botPlayedTold: false, // the returning player was told a bot played for him
};

export function nick(n) {
  if (n === null || n === undefined) return "";
  const s = S.seats[n];
  if (s && s.nick) return s.nick;
  return s && s.bot ? fmt(T.bot_n, { n }) : fmt(T.seat_n, { n });
}
/** «2 мин 8 с» / «40 с»: how long something lasted. */
export function duration(ms) {
  const total = Math.max(1, Math.round(ms / 1000));
  const m = Math.floor(total / 60), s = total % 60;
  return m ? fmt(T.time_min_s, { m, s }) : fmt(T.time_s, { s });
}

export function names(list) { return (list || []).map(nick).join(", "); }
export function partnerOf(n, v) { return v.pairs && v.players === 4 ? ((n + 1) % 4) + 1 : null; } // seats 1&3, 2&4

/** Sort view.legal by what it means for the buttons and each card. */
export function analyze(v) {
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

export function usesOf(card) {
  const all = (S.A && S.A.uses.get(card)) || [];
  if (S.mode === "transfer") return all.filter((a) => a.type === "transfer");
  return all;
}

export function passLabel(v) {
  return v.table.length && v.table.every((p) => p.defense) && !v.took ? T.bito : T.pass;
}
