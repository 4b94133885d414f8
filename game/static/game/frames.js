// What the server sends: a state frame (the redacted view and the seats), an ack, an error.

import { label } from "./cards.js";
import { clearError, refuse } from "./feedback.js";
import { captureRects } from "./motion.js";
import { noteFrame } from "./movelog.js";
import { movedOnCheck } from "./navigation.js";
import { sounds } from "./sound.js";
import { CFG, ERR, S, T, analyze, usesOf } from "./state.js";
import { refreshRematch } from "./result.js";
import { render } from "./view.js";
import { fmt } from "../site/page.js";

export function onFrame(msg, arrived = Date.now()) {
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
      if (S.view.phase === "over") { movedOnCheck(); refreshRematch(); }
      break;
    default: break;
  }
}

function sameLegal(a) {
  return (S.view.legal || []).some((b) => JSON.stringify(b) === JSON.stringify(a));
}

/** The deadline's full length: the frame says it (deadline_seconds); older frames did not. */
function deadlineLength(f) {
  if (typeof f.deadline_seconds === "number" && f.deadline_seconds > 0) return f.deadline_seconds * 1000;
  return (CFG.turn_seconds || 30) * 1000;
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
  const before = { version: S.version, deadline: S.deadline, deadlineKind: S.deadlineKind, seats: S.seats };
  const from = prev ? captureRects() : null;
  S.frame = f;
  S.view = f.result && f.view.result ? { ...f.view, result: { ...f.view.result, ...f.result } } : f.view;
  S.hints = f.hints && typeof f.hints === "object" ? f.hints : null;
  const newVersion = typeof f.version === "number" ? f.version : S.version;
  if (prev && newVersion > S.version && f.view.last && f.view.last.seat === f.view.seat) clearError();
  S.version = newVersion;
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
  const dl = f.deadline || null;
  if (dl && dl !== S.deadline) {
    const len = deadlineLength(f);
    S.clock.sample(dl, len, arrived);
    S.deadlineLen = len;
  }
  S.deadline = dl;
  S.deadlineKind = f.deadline_kind || "";
  const mine = f.view.seat != null && (f.view.turn || []).includes(f.view.seat);
  if (mine && !S.prevTurnMine) sounds.play("turn");
  else if (prev && f.view.last && f.view.last.seat !== f.view.seat && JSON.stringify(prev.last) !== JSON.stringify(f.view.last)) sounds.play(f.view.last.type === "take" ? "take" : "card");
  S.prevTurnMine = mine;
  if (f.view.result && !(prev && prev.result)) {
    S.resultAt = prev ? Date.now() : 0; // the moment is shown only when the game ends live
    if (!S.rematchDeadline && CFG.rematch_seconds) S.rematchDeadline = S.clock.now() + CFG.rematch_seconds * 1000;
    const r = f.view.result, me = f.view.seat;
    if (me != null && prev) sounds.play((r.losers || []).includes(me) || r.loser === me ? "lose" : "win");
  }
  noteFrame(prev, before, f);
  render(prev, from);
}

function onError(msg) {
  const act = (msg.id && S.sentById.get(msg.id)) || (S.inflight && !msg.id ? S.inflight.action : null);
  if (S.inflight && (!msg.id || msg.id === S.inflight.id)) S.inflight = null;
  const code = msg.code || "unknown";
  let text;
  if (code === "does_not_beat" && act && act.target) {  // name the cards: "this card does not beat 7♦"
    text = fmt(T.why_not_beat_target, { card: label(act.card), target: label(act.target) });
  } else {
    text = ERR[code] || msg.message || T.why_generic;  // the one catalogue's sentence (durak_site/errors.py)
  }
  refuse(act && act.card, text, code === "does_not_beat" && act ? act.target : null);
  render();
}
