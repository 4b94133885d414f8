// The result dialog: each player's outcome in words, the rating change, the rematch offer.

import { celebrate } from "./motion.js";
import { movedOnCheck } from "./navigation.js";
import { CFG, S, T, duration, names, nick } from "./state.js";
import { $, fmt } from "../site/page.js";


function losersOf(r) {
  return r.losers && r.losers.length ? r.losers : r.loser != null ? [r.loser] : [];
}

/** The big line: who is the durak (or which pair lost), from the viewer's side. */
function mainLine(v, r) {
  const me = v.seat;
  const losers = losersOf(r);
  if (r.draw) return { main: T.draw, sub: "" };
  if (v.pairs) {
    if (me != null && (r.winners || []).includes(me)) return { main: T.your_pair_won, sub: "" };
    if (me != null && losers.includes(me)) return { main: T.your_pair_lost, sub: "" };
    return { main: fmt(T.pair_won, { names: (r.winners || []).map(nick).join(" & ") }), sub: "" };
  }
  if (me != null && losers.includes(me)) return { main: T.you_durak, sub: "" };
  const main = losers.length ? fmt(T.durak_is, { name: names(losers) }) : T.game_over;
  return { main, sub: me != null && losers.length ? T.you_won : "" };
}

/** Frames before result.outcomes: the engine's result and its left / timed_out lists. */
function fallbackOutcome(r, n, losers) {
  const lost = losers.includes(n);
  if ((r.left || []).includes(n) || (lost && (r.reason === "leave" || (S.seats[n] || {}).left))) return "left";
  if (lost && ((r.timed_out || []).includes(n) || r.reason === "timeout")) return "lost_on_time";
  if (r.draw) return "draw";
  if (lost) return "durak";
  return (r.winners || []).includes(n) || losers.length ? "won" : "";
}

/** One row per player: name, outcome in words, rating change and new rating when known. */
function outcomeRows(v, r) {
  const me = v.seat;
  const byseat = new Map((r.outcomes || []).map((o) => [o.seat, o]));
  const losers = losersOf(r);
  const rows = [];
  for (let n = 1; n <= v.players; n++) {
    const o = byseat.get(n);
    const code = o ? o.outcome : fallbackOutcome(r, n, losers);
    rows.push({ n, code, o, mine: n === me });
  }
  const rank = { won: 0, draw: 1, aborted: 2, durak: 3, lost_on_time: 4, did_not_return: 5, left: 6, banned: 7 };
  rows.sort((a, b) => (rank[a.code] ?? 9) - (rank[b.code] ?? 9) || a.n - b.n);
  return rows;
}

function ratingText(o, rated) {
  if (!o || o.rating_change == null || !rated) return "";
  const d = o.rating_change;
  const sign = d > 0 ? "+" : d < 0 ? "−" : "±";
  const change = `${sign}${Math.abs(d)}`;
  return o.rating_after != null ? fmt(T.rating_change_to, { change, rating: o.rating_after }) : change;
}

export function renderResult(v) {
  const box = $("g-result");
  const r = v.result;
  if (!r) { box.hidden = true; return; }
  const wasHidden = box.hidden;
  box.hidden = false;
  const me = v.seat;
  const losers = losersOf(r);
  $("g-result-title").textContent = T.result_title;
  const { main, sub } = mainLine(v, r);
  const mainEl = $("g-result-main");
  mainEl.textContent = main;
  mainEl.classList.toggle("lost", me != null && losers.includes(me));
  const botTold = botPlayedLines(v, r);
  $("g-result-sub").textContent = botTold ? "" : sub;  // «well played» is not his to read when a bot played
  const reasonKey = "reason_" + (r.reason || "");
  const who = (r.left && r.left[0]) ?? (r.timed_out && r.timed_out[0]) ?? r.loser ?? losers[0];
  $("g-result-reason").textContent = !r.outcomes && T[reasonKey] ? fmt(T.reason, { reason: fmt(T[reasonKey], { name: nick(who) }) }) : "";
  // the order players went out (the engine keeps it): «Порядок выхода: Вася, Оля, Коля»
  const order = (v.out || []).filter((n) => !losers.includes(n));
  $("g-result-order").textContent = order.length > 1 ? fmt(T.finish_order, {  // one winner: nothing to order
    names: order.map((n, i) => `${i + 1}. ${nick(n)}`).join(", ") }) : "";
  const rated = r.rated !== false;
  const list = $("g-result-list");
  list.replaceChildren();
  for (const row of outcomeRows(v, r)) {
    const li = document.createElement("li");
    li.className = "outcome-" + (row.code || "none") + (row.mine ? " mine" : "");
    li.dataset.seat = String(row.n);
    const name = document.createElement("span");
    name.className = "o-name";
    name.textContent = nick(row.n) + (row.mine ? ` (${T.you})` : "");
    const what = document.createElement("span");
    what.className = "o-what";
    what.textContent = T["outcome_" + row.code] || "";
    const rating = document.createElement("span");
    rating.className = "o-rating";
    rating.textContent = ratingText(row.o, rated);
    li.append(name, what, rating);
    list.appendChild(li);
  }
  const note = $("g-result-rated");
  if (note) {
    const why = r.unrated_reason ? T["unrated_" + r.unrated_reason] : "";
    note.textContent = r.rated === false ? (why ? fmt(T.unrated, { reason: why }) : T.unrated_plain) : "";
  }
  if (wasHidden) {
    updateHeaderRating(r);
    if (me != null && Date.now() - S.resultAt < 3000) celebrate(losers.includes(me) ? T.moment_durak : T.moment_won, losers.includes(me));
  }
  const rb = $("g-rematch");
  const canRematch = me != null && CFG.ready_url && !S.rematchSent && !rematchClosed();
  rb.hidden = !canRematch;
  rb.textContent = T.rematch_play_again;
  $("g-to-lobby").href = CFG.lobby_url || "/";
  if (wasHidden && canRematch) rb.focus({ preventScroll: true });
  updateRematchInfo();
}

/** A seat a bot played while its player was away: what happened and which rule set his result,
 *  with a link to the rule («Ходы бота за ваше место — ваши ходы», «победа — только за свои ходы»).
 *  Returns whether there was anything to tell. */
function botPlayedLines(v, r) {
  const box = $("g-result-bot");
  if (!box) return false;
  const bp = S.frame && S.frame.bot_played;
  const mine = (r.outcomes || []).find((o) => o.seat === v.seat);
  if (v.seat == null || !bp || !bp.since) { box.hidden = true; box.replaceChildren(); return false; }
  const what = document.createElement("span");
  const until = bp.until ? Date.parse(bp.until) : S.clock.now();
  what.textContent = bp.finished ? fmt(T.bot_finished_for_you, { time: duration(until - Date.parse(bp.since)), moves: bp.moves })
    : fmt(T.bot_played_for_you, { time: duration(until - Date.parse(bp.since)), moves: bp.moves });
  const parts = [what];
  const rated = r.rated !== false && mine && mine.rating_change != null;
  if (rated || (mine && mine.win_withheld)) {
    const rule = document.createElement("span");
    rule.textContent = " " + (mine.win_withheld ? T.rule_win_withheld : T.rule_bot_moves_count);
    parts.push(rule);
    if (CFG.rules_url) {
      const a = document.createElement("a");
      a.href = CFG.rules_url + "#rating-own-moves";
      a.textContent = T.rule_link;
      a.className = "g-result-rule";
      parts.push(" ", a);
    }
  }
  box.replaceChildren(...parts);
  box.hidden = false;
  return true;
}

/** The header's rating (templates/base.html #site-rating) follows the viewer's new rating. */
function updateHeaderRating(r) {
  const mine = (r.outcomes || []).find((o) => o.seat === S.view.seat);
  const el = $("site-rating");
  if (!el || !mine || mine.rating_after == null || r.rated === false) return;
  el.dataset.rating = String(mine.rating_after);
  const num = el.querySelector("[data-rating-value]") || el;
  num.textContent = String(mine.rating_after);
}

function rematchClosed() { return S.rematchDeadline && S.clock.now() > S.rematchDeadline; }

/** Who has asked for a rematch: the table page's config says it; a change at the table (a lobby
 *  event on the socket) reads it again. */
let fetching = false;
export function refreshRematch() {
  if (!CFG.table_url || fetching || CFG.harness) return;
  fetching = true;
  fetch(CFG.table_url, { credentials: "same-origin" })
    .then((r) => (r.ok ? r.text() : ""))
    .then((html) => {
      const el = new DOMParser().parseFromString(html, "text/html").getElementById("table-config");
      if (!el) return;  // the table moved on: navigation.js takes the page there
      S.rematchReady = JSON.parse(el.textContent).rematch_ready || [];
      updateRematchInfo();
    })
    .catch(() => { /* the next lobby event tries again */ })
    .finally(() => { fetching = false; });
}

export function updateRematchInfo() {
  const info = $("g-rematch-info");
  const v = S.view;
  if (!v || !v.result) return;
  const who = $("g-rematch-who");
  if (who) who.textContent = S.rematchReady.length && !rematchClosed() ? fmt(T.rematch_wanted, { names: S.rematchReady.join(", ") }) : "";
  if (S.rematchSent) { info.textContent = T.ready_sent; return; }
  if (!S.rematchDeadline || v.seat == null) { info.textContent = ""; return; }
  const left = Math.ceil((S.rematchDeadline - S.clock.now()) / 1000);
  if (left > 0) info.textContent = fmt(T.rematch_in, { s: left });
  else {
    info.textContent = T.rematch_closed;
    $("g-rematch").hidden = true;
    if (left < -2 && !S.closedChecked) { S.closedChecked = true; movedOnCheck(); }
  }
}
