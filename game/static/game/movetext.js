// The moves in words, from the viewer's side: a legal move to confirm, the last move, one move of the
// log (a bot's, the clock's, a catch). The table's status line (view.js) and its move log
// (movelog.js) both say moves with these; the blind mode says them with whole card names (blind.js).

import { label } from "./cards.js";
import { S, T, nick } from "./state.js";
import { fmt } from "../site/page.js";

/** A move of view.legal in words, for the confirmation line («побить 7♦ картой 8♦»). */
export function moveText(a) {
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

/** The last move in words; «Вы» and a third person have their own sentences (verb agreement). */
export function lastText(v) {
  const l = v.last;
  return l && l.seat != null && l.seat === v.seat && botMadeIt(l) ? moveLine(v, l, T.bot_for_you) : moveLine(v, l);
}

/** Did a bot make the viewer's own seat's move `l`? A bot plays his seat now, or the page's first
 *  frame (its move log, game/move_log.py) says a bot made it. */
function botMadeIt(l) {
  if ((S.seats[l.seat] || {}).takeover) return true;
  const log = S.frame && S.frame.log;
  const e = log && log[log.length - 1];
  return !!e && e.by === "bot" && e.seat === l.seat && e.type === l.type && e.card === l.card && e.target === l.target;
}

/** One move `l` in words from the viewer's side; `who` names its maker in the third person instead
 *  (a bot that played the viewer's own seat: «Бот за вас: ход 6♠», never «Вы сыграли»). */
export function moveLine(v, l, who = null) {
  if (!l || l.seat == null) return "";
  const mine = l.seat === v.seat && !who;
  const say = (key, vars) => fmt(T[mine ? key + "_you" : key], { name: who || nick(l.seat), ...vars });
  const card = l.card ? label(l.card) : "";
  switch (l.type) {
    case "attack": return say("last_attack", { card });
    case "defend": return say("last_defend", { card, target: l.target ? label(l.target) : "" });
    case "transfer": return say(l.show ? "last_transfer_show" : "last_transfer", { card });
    case "take": return say("last_take", {});
    case "pass": return say("last_pass", {});
    case "swap_trump": return say("last_swap", {});
    case "catch": return catchText({ ...v, last: l }, l);  // who caught whom, and what it cost
    default: return "";
  }
}

/** Who caught whom and what it cost, from the viewer's side (a catch event: cheater, caught, penalty). */
export function catchText(v, l) {
  const me = v.seat;
  const card = l.card ? label(l.card) : "";
  if (l.caught) {
    const cheater = l.cheater === me ? T.you : nick(l.cheater);
    if (l.seat === me) return fmt(T.catch_ok_you, { cheater, card });
    if (l.cheater === me) return fmt(T.catch_ok_on_you, { name: nick(l.seat), card });
    return fmt(T.catch_ok, { name: nick(l.seat), cheater, card });
  }
  const free = l.penalty === false;
  if (l.seat === me) return fmt(free ? T.catch_bad_you_free : T.catch_bad_you, { card });
  return fmt(free ? T.catch_bad_free : T.catch_bad, { name: nick(l.seat), card });
}

/** A move the turn timer made for the viewer: the clock, not «Вы сыграли». */
export function timeoutText(l) {
  if (l.type === "attack" && l.card) return fmt(T.timeout_attack, { card: label(l.card) });
  if (l.type === "take") return T.timeout_take;
  if (l.type === "pass") return T.timeout_pass;
  return T.timeout_move;
}
