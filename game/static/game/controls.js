// The player's input: taps, drag and drop, the keyboard, the buttons, the menu, leave, rematch.
// Only what view.legal lists is ever sent; anything else is explained (feedback.whyText).

import { cardEl } from "./cards.js";
import { $, csrf } from "../site/page.js";
import { uuid } from "../site/socket.js";
import { clearError, flash, refuse, whyText } from "./feedback.js";
import { handCards, handEls } from "./hand.js";
import { sounds } from "./sound.js";
import { CFG, ERR, S, T, store, usesOf } from "./state.js";
import { render } from "./view.js";


// ---------------------------------------------------------------- moves
function commit(action) {
  if (!S.prefs.quick) {
    S.pending = action;
    render();
    const ok = document.querySelector(".g-controls .confirm");
    if (ok) ok.focus({ preventScroll: true });
    return;
  }
  send(action);
}

export function send(action) {
  if (S.inflight) { flash(T.why_pending); return; }
  const msg = { id: uuid(), version: S.version, action };
  // until an answer settles it (frames.js), the socket resends it under the same id (socket.js)
  const waiting = () => !!S.inflight && S.inflight.id === msg.id;
  const expired = () => { S.inflight = null; render(); };
  if (!S.conn || !S.conn.sendAcked(msg, { waiting, expired })) {
    refuse(action.card, T.connection_lost);
    return;
  }
  clearError();
  S.inflight = { id: msg.id, action, at: Date.now(), version: S.version };
  S.sentById.set(msg.id, action);
  S.lastSent = { action, version: S.version };  // movelog.js tells his moves from the clock's
  S.selected = null;
  S.pending = null;
  S.mode = null;
  S.catchSel = null;
  sounds.play("card");
  render();
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
  if (S.inflight) { flash(T.why_pending); return; }
  if (S.pending) S.pending = null;
  const uses = usesOf(card);
  if (!uses.length) { refuse(card, whyText(card)); S.selected = null; render(); return; }
  if (!S.prefs.hints) {
    // hints off: two taps — the first raises the card, the second plays it (same card again
    // when it has one use, or a table card / the table)
    if (S.selected !== card) { select(card); return; }
    if (uses.length === 1) { commit(uses[0]); return; }
    flash(T.why_pick_target);
    return;
  }
  if (uses.length === 1) { commit(uses[0]); return; }
  if (S.selected === card) { S.selected = null; render(); return; }
  select(card);
}

function tapTableCard(card) {
  const v = S.view;
  if (!v || v.seat == null) return;
  if (S.inflight) { flash(T.why_pending); return; }
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
    if (pair && !pair.defense && v.seat === v.defender) { refuse(S.selected, whyText(S.selected, card), card); return; }
    tapBattle();
  }
}

/** The table area itself (not a card): lead / throw in / transfer with the selected card. */
function tapBattle() {
  if (!S.selected) return;
  const uses = usesOf(S.selected);
  const use = uses.find((a) => a.type === "attack") || uses.find((a) => a.type === "transfer" && !a.show)
    || uses.find((a) => a.type === "transfer");
  if (use) { commit(use); return; }
  if (uses.some((a) => a.type === "defend")) { flash(T.why_pick_target); return; }
  refuse(S.selected, whyText(S.selected));
}

function pressButton(kind) {
  if (S.inflight) { flash(T.why_pending); return; }
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

// ---------------------------------------------------------------- pointer: taps, drag and drop
function bindPointer() {
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
  const endDrag = (e, cancelled) => {
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
    refuse(d.card, tgt ? whyText(d.card, tgt) : T.why_pick_target);
  };
  window.addEventListener("pointerup", (e) => endDrag(e, false));
  window.addEventListener("pointercancel", (e) => endDrag(e, true));

  $("g-hand").addEventListener("click", (e) => {
    if (suppressClick) return;
    const el = e.target.closest(".card[data-card]");
    if (!el) return;
    S.focus = Math.max(0, handCards().indexOf(el.dataset.card));
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
}

// ---------------------------------------------------------------- keyboard
function bindKeyboard() {
  document.addEventListener("keydown", (e) => {
    if (!S.view || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest && e.target.closest("input, textarea, select, dialog")) return;
    const v = S.view;
    const cards = handCards(v);
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
}

// ---------------------------------------------------------------- menu, switches, leave, rematch
function bindMenu() {
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
    el.checked = S.prefs[key];
    el.addEventListener("change", () => {
      S.prefs[key] = el.checked;
      store.set(key, el.checked);
      if (after) after();
      S.selected = null; S.pending = null; S.mode = null;
      render();
    });
  };
  bind("opt-hints", "hints");
  bind("opt-quick", "quick");
  bind("opt-sound", "sound", () => { sounds.enabled = S.prefs.sound; sounds.play("card"); });
  $("g-keys").textContent = T.shortcuts;
}

async function post(url, data) {
  const body = new URLSearchParams(data || {});
  return fetch(url, { method: "POST", body, credentials: "same-origin", headers: { "X-CSRFToken": csrf(), Accept: "application/json" } });
}

function bindLeave() {
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
  if (S.conn) S.conn.stop();
  location.assign(CFG.lobby_url || "/");
}

function bindRematch() {
  $("g-rematch").addEventListener("click", async () => {
    if (!CFG.ready_url) return;
    const b = $("g-rematch");
    b.disabled = true;
    try {
      const r = await post(CFG.ready_url, { ready: "1" });
      if (!r.ok && r.status >= 400) throw new Error(String(r.status));
      S.rematchSent = true;
      b.hidden = true;
      $("g-rematch-info").textContent = T.ready_sent;
    } catch (e) {
      b.disabled = false;
      flash(ERR.unknown, "error");
    }
  });
}

/** Wire every input handler once (the entry module calls this). */
export function bindControls() {
  bindPointer();
  bindKeyboard();
  bindMenu();
  bindLeave();
  bindRematch();
}
