// Short-lived messages: a line over the table (a refused tap, a hint), the connection banner, a card's shake.

import { label, rankOf } from "./cards.js";
import { sounds } from "./sound.js";
import { ERR, S, T, names, nick } from "./state.js";
import { $, dismiss, fmt, toast } from "../site/page.js";

let bannerTimer = null;

/** One line over the table (the site's toast in the table's #g-toast): a refused tap, a hint, a notice. */
export function flash(text, kind = "info") {
  const ttl = kind.includes("notice") ? 5200 : kind === "error" ? 4200 : 2600;  // a notice is read, not glanced at
  toast(text, { into: "g-toast", cls: kind, ttl });
}

/** A valid move was made: an old refusal must not stay on screen next to it. */
export function clearError() {
  const el = $("g-toast");
  if (!el.hidden && el.classList.contains("error")) dismiss(el);
}

export function shake(card) {
  for (const el of document.querySelectorAll(`[data-card="${card}"]`)) {
    el.classList.remove("shake");
    void el.offsetWidth; // restart the animation
    el.classList.add("shake");
    setTimeout(() => el.classList.remove("shake"), 600);
  }
}

export function refuse(card, text, target = null) {
  flash(text, "error");
  sounds.play("error");
  if (card) shake(card);
  if (target) shake(target);
}

export function banner(text, kind) {
  const el = $("g-banner");
  clearTimeout(bannerTimer);
  if (!text) { el.hidden = true; return; }
  el.textContent = text;
  el.className = "g-banner " + kind;
  el.hidden = false;
  if (kind === "ok") bannerTimer = setTimeout(() => { el.hidden = true; }, 2500);
}

/**
 * In words: why `card` cannot be played now. The reason (an engine error code) comes from the
 * server (frame.hints, game.engine.hints); the client only words it, with the names and cards
 * the view shows. Old frames without hints get the generic text.
 */
export function whyText(card, target = null) {
  const v = S.view;
  if (S.inflight) return T.why_pending;
  const code = S.hints ? S.hints[card] : null;
  const ranks = () => [...new Set(v.table.flatMap((p) => [p.attack, p.defense]).filter(Boolean).map(rankOf))];
  switch (code) {
    case "does_not_beat":
      return target ? fmt(T.why_not_beat_target, { card: label(card), target: label(target) })
        : fmt(T.why_not_beat, { card: label(card) });
    case "rank_not_on_table": return fmt(T.why_rank, { ranks: ranks().join(", ") });
    case "not_your_turn": {
      if (v.seat === v.defender && v.table.length) return T.why_all_beaten;
      if (!v.table.length) return fmt(T.why_lead_other, { name: nick(v.attacker) });
      if (v.pairs && v.partner === v.defender) return T.why_partner;
      const others = (v.turn || []).filter((n) => n !== v.defender);
      if (others.length) return fmt(T.why_starter_first, { name: names(others) });
      return fmt(T.why_not_your_turn, { names: names(v.turn) || "—" });
    }
    case undefined: case null: case "":
      if (target) return fmt(T.why_not_beat_target, { card: label(card), target: label(target) });
      return T.why_generic;
    default:
      return ERR[code] ? fmt(ERR[code], { card: label(card), target: target ? label(target) : "…" }) : T.why_generic;
  }
}
