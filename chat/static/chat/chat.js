// Table chat: messages, quick phrases and reactions over the table socket the page opens.
// The page has one socket (static/site/socket.js): this module hears it and sends on it instead of
// opening a second one; whichever script opens it, and whenever, the subscription holds.
// Everything a player wrote is put in the page with textContent only: no markup; a web address
// becomes a link built node by node (linkify), its domain shown, never from the text as HTML.

import { $, fmt } from "../site/page.js";
import { pageSocket, subscribe } from "../site/socket.js";

const root = $("chat");
const T = JSON.parse($("chat-strings").textContent);
const HIDDEN_KEY = "chat-hidden-authors"; // per-browser "mute this person"
const wide = window.matchMedia("(min-width: 1100px)");

const S = { version: -1, messages: [], read: false, write: false, manage: false, me: null,
  muted: null, unread: 0, open: false, hidden: new Set(loadHidden()), pending: null };
const MAX_LEN = 200;  // chat.services' limit: the counter shows it
const EMOJI_BASE = root.dataset.emojiBase || "";
T.message_menu = root.dataset.menuLabel || "{nick}";
T.you = root.dataset.you || "";  // the reactions drawn as images: no colour-emoji font needed

// ---------------------------------------------------------------- the socket
subscribe({
  message: (msg) => { if (typeof msg.type === "string" && msg.type.startsWith("chat")) onFrame(msg); },
  close: () => renderForm(),
});

const online = () => { const conn = pageSocket(); return !!conn && conn.isOpen(); };

function send(obj) {
  if (!online() || !pageSocket().send(obj)) { showError(T.offline); return false; }
  return true;
}

// ---------------------------------------------------------------- frames
function onFrame(msg) {
  switch (msg.type) {
    case "chat_state": onState(msg); break;
    case "chat":
      if (msg.version <= S.version) break; // already in the state this socket resynced from
      S.version = msg.version;
      S.messages.push(msg.message);
      if (msg.message.author_id === S.me && S.pending !== null && msg.message.text !== undefined) S.pending = null;
      if (S.messages.length > 50) S.messages.shift();
      appendMessage(msg.message);
      if (!S.open && !S.hidden.has(msg.message.author_id) && msg.message.author_id !== S.me) setUnread(S.unread + 1);
      break;
    case "chat_deleted":
      S.version = Math.max(S.version, msg.version);
      S.messages = S.messages.filter((m) => m.id !== msg.id);
      { const el = document.querySelector(`.chat-msg[data-id="${Number(msg.id)}"]`); if (el) el.remove(); }
      renderEmpty();
      break;
    case "chat_reaction": floatReaction(msg); break;
    case "chat_reported": showError(T.reported, "ok"); break;
    case "chat_error": restorePending(); showError(msg.message || T.errors[msg.code] || msg.code); break;
    default: break;
  }
}

function onState(msg) {
  S.read = !!msg.read; S.write = !!msg.write; S.manage = !!msg.manage; S.me = msg.me;
  S.muted = msg.muted || null;
  S.version = msg.version ?? -1;
  S.messages = msg.messages || [];
  root.hidden = false;
  $("chat-toggle").hidden = false;
  document.body.classList.add("has-chat");
  renderAll();
  if (msg.settings) {
    $("chat-spectators").value = msg.settings.spectators;
    $("chat-profanity").checked = !!msg.settings.profanity_filter;
  }
  $("chat-settings").hidden = !S.manage;
}

// ---------------------------------------------------------------- rendering

function timeOf(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function renderAll() {
  const log = $("chat-log");
  log.replaceChildren();
  if (S.read) for (const m of S.messages) appendMessage(m, false);
  renderEmpty();
  renderNotice();
  renderForm();
  scrollDown();
}

function renderEmpty() {
  const log = $("chat-log");
  let empty = log.querySelector(".chat-empty");
  if (!S.messages.length && S.read) {
    if (!empty) { empty = document.createElement("li"); empty.className = "chat-empty"; empty.textContent = T.empty; log.append(empty); }
  } else if (empty) empty.remove();
}

let muteTimer = null;
function renderNotice() {
  const el = $("chat-notice");
  clearTimeout(muteTimer);
  if (S.muted) { // when the mute ends, the form comes back by itself
    const left = Date.parse(S.muted.until) - Date.now();
    if (left > 0 && left < 2 ** 31 - 1) muteTimer = setTimeout(() => { S.muted = null; renderNotice(); renderForm(); }, left + 500);
  }
  let text = "";
  if (!S.read) text = T.hidden;
  else if (S.muted && Date.parse(S.muted.until) > Date.now()) {
    text = fmt(T.muted, { until: new Date(S.muted.until).toLocaleString(), reason: S.muted.reason });
  } else if (!S.write) text = T.read_only;
  el.textContent = text;
  el.hidden = !text;
}

function renderForm() {
  const can = S.read && S.write && !(S.muted && Date.parse(S.muted.until) > Date.now());
  $("chat-form").hidden = !can;
  $("chat-quick").hidden = !can;
  $("chat-log").hidden = !S.read;
}

function appendMessage(m, scroll = true) {
  const log = $("chat-log");
  const li = document.createElement("li");
  li.className = "chat-msg" + (m.author_id === S.me ? " mine" : "");
  li.dataset.id = String(m.id);
  li.dataset.author = String(m.author_id);
  const hidden = S.hidden.has(m.author_id);
  li.classList.toggle("hidden-author", hidden);
  const head = document.createElement("div");
  head.className = "chat-meta";
  const nick = document.createElement("b");
  nick.className = "chat-nick";
  nick.textContent = m.nick;
  const time = document.createElement("time");
  time.dateTime = m.at;
  time.textContent = timeOf(m.at);
  let who = nick;
  if (m.author_id !== S.me) { // his card (add a friend, block): in a new tab, so a game is never left
    who = document.createElement("a");
    who.href = `/people/${Number(m.author_id)}/`;
    who.target = "_blank";
    who.rel = "noopener";
    who.className = "chat-nick-link";
    who.append(nick);
  }
  head.append(who, " ", time);
  const text = document.createElement("p");
  text.className = "chat-text";
  if (hidden) text.textContent = T.hidden_message;
  else text.append(...linkify(m.text));
  li.append(head, text);
  if (m.author_id !== S.me) head.append(messageMenu(li, m, hidden));
  renderEmpty();
  log.append(li);
  if (scroll) scrollDown();
}

const URL_RE = /\bhttps?:\/\/[^\s<>"']+/gi;

/** A message's text as nodes: plain text, and each web address as a link that shows its domain,
 *  opens apart from the game and passes no rank to the site (rel nofollow noopener ugc). */
function linkify(text) {
  const out = [];
  let at = 0;
  for (const match of String(text).matchAll(URL_RE)) {
    let raw = match[0].replace(/[.,!?;:)»]+$/, "");  // a sentence's end is not part of the address
    let url;
    try { url = new URL(raw); } catch (e) { continue; }
    if (url.protocol !== "http:" && url.protocol !== "https:") continue;
    if (match.index > at) out.push(document.createTextNode(text.slice(at, match.index)));
    const a = document.createElement("a");
    a.href = url.href;
    a.rel = "nofollow noopener ugc";
    a.target = "_blank";
    a.className = "chat-link";
    const rest = (url.pathname === "/" ? "" : url.pathname) + url.search;
    a.textContent = url.hostname + (rest.length > 24 ? rest.slice(0, 23) + "…" : rest);
    a.title = url.href;
    out.push(a);
    at = match.index + raw.length;
  }
  if (at < text.length) out.push(document.createTextNode(text.slice(at)));
  return out;
}

/** «Скрыть сообщения игрока» and «Пожаловаться» behind one small button per message. */
function messageMenu(li, m, hidden) {
  const wrap = document.createElement("span");
  wrap.className = "chat-menu-wrap";
  const btn = button("⋯", "chat-menu-btn", () => {
    const open = menu.hidden;
    for (const other of document.querySelectorAll(".chat-menu:not([hidden])")) other.hidden = true;
    for (const other of document.querySelectorAll(".chat-menu-btn[aria-expanded=true]")) other.setAttribute("aria-expanded", "false");
    menu.hidden = !open;
    btn.setAttribute("aria-expanded", String(open));
    if (open) menu.querySelector("button").focus();
  });
  btn.setAttribute("aria-haspopup", "true");
  btn.setAttribute("aria-expanded", "false");
  btn.setAttribute("aria-label", fmt(T.message_menu, { nick: m.nick }));
  const menu = document.createElement("div");
  menu.className = "chat-menu";
  menu.hidden = true;
  menu.append(button(hidden ? T.show_author : T.hide_author, "chat-hide", () => toggleHidden(m.author_id)));
  if (!hidden) menu.append(button(T.report, "chat-report", () => { menu.hidden = true; openReport(li, m); }));
  menu.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { e.stopPropagation(); menu.hidden = true; btn.setAttribute("aria-expanded", "false"); btn.focus(); }
  });
  wrap.append(btn, menu);
  return wrap;
}

function button(label, cls, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = label;
  b.addEventListener("click", onClick);
  return b;
}

function scrollDown() { const log = $("chat-log"); log.scrollTop = log.scrollHeight; }

function openReport(li, m) {
  if (li.querySelector(".chat-report-form")) return;
  const form = document.createElement("form");
  form.className = "chat-report-form";
  const label = document.createElement("label");
  label.textContent = T.report_reason;
  const input = document.createElement("input");
  input.type = "text"; input.maxLength = 300; input.required = true;
  label.append(input);
  const ok = document.createElement("button"); ok.type = "submit"; ok.textContent = T.report_send;
  const cancel = button(T.report_cancel, "chat-cancel", () => form.remove());
  form.append(label, ok, cancel);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!input.value.trim()) return;
    if (send({ type: "chat_report", message_id: m.id, reason: input.value.trim() })) form.remove();
  });
  form.addEventListener("keydown", (e) => { if (e.key === "Escape") { e.stopPropagation(); form.remove(); } });
  li.append(form);
  input.focus();
}

// ---------------------------------------------------------------- per-browser hiding
function loadHidden() {
  try { return JSON.parse(localStorage.getItem(HIDDEN_KEY) || "[]").filter(Number.isInteger); } catch (e) { return []; }
}

function toggleHidden(authorId) {
  if (S.hidden.has(authorId)) S.hidden.delete(authorId); else S.hidden.add(authorId);
  try { localStorage.setItem(HIDDEN_KEY, JSON.stringify([...S.hidden])); } catch (e) { /* private mode */ }
  renderAll();
}

// ---------------------------------------------------------------- reactions
function reactionText(key) {
  if (key.startsWith("emoji_")) return T.emoji[key.slice(6)] || "";
  return T.phrases[key] || "";
}

/** A reaction's face: the emoji as an image (shipped with the site), a phrase as text. */
function reactionNodes(key) {
  if (key.startsWith("emoji_") && EMOJI_BASE && T.emoji[key.slice(6)]) {
    const img = document.createElement("img");
    img.src = `${EMOJI_BASE}${key.slice(6)}.svg`;
    img.alt = T.emoji[key.slice(6)];
    img.className = "chat-emoji-img";
    img.width = img.height = 28;
    return [img];
  }
  return [document.createTextNode(reactionText(key))];
}

function floatReaction(msg) {
  if (S.hidden.has(msg.author_id)) return;
  const text = reactionText(msg.key);
  if (!text) return;
  logReaction(msg);
  const layer = $("chat-floats");
  const el = document.createElement("div");
  el.className = "chat-float" + (msg.key.startsWith("emoji_") ? " emoji" : "");
  el.append(...reactionNodes(msg.key));
  // beside his seat: the game table's pod, or his seat in the waiting room (he has no game seat there);
  // above the pod's name, so it never covers his cards, and never on top of another bubble
  const anchor = (msg.seat != null && document.querySelector(`.pod[data-seat="${Number(msg.seat)}"]`))
    || document.querySelector(`#room .seat[data-player="${Number(msg.author_id)}"]`) || $("chat-toggle");
  const r = anchor.getBoundingClientRect();
  const id = anchor.querySelector(".pod-id");
  const below = id ? id.getBoundingClientRect().bottom : r.bottom;
  el.style.left = `${Math.round(Math.min(window.innerWidth - 60, Math.max(60, r.left + r.width / 2)))}px`;
  el.style.top = `${Math.round(below + 4)}px`;
  el.dataset.author = String(msg.author_id);
  layer.append(el);
  const half = el.getBoundingClientRect().width / 2;  // on screen, whole
  el.style.left = `${Math.round(Math.min(window.innerWidth - half - 4, Math.max(half + 4, r.left + r.width / 2)))}px`;
  const up = !!anchor.closest("#g-mypod");  // his own seat sits above his hand: the bubble goes up
  if (up) el.style.top = `${Math.round(r.top - el.getBoundingClientRect().height - 4)}px`;
  for (let tries = 0; tries < 6 && overlapsAnother(el); tries++) {
    const h = el.getBoundingClientRect().height + 4;
    el.style.top = `${parseFloat(el.style.top) + (up ? -h : h)}px`;
  }
  setTimeout(() => el.remove(), 3200);
}

function overlapsAnother(el) {
  const a = el.getBoundingClientRect();
  return [...$("chat-floats").children].some((o) => {
    if (o === el) return false;
    const b = o.getBoundingClientRect();
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  });
}

/** A reaction also leaves a line in the chat's log (it floats only for a moment). */
function logReaction(msg) {
  if (!S.read) return;
  const li = document.createElement("li");
  li.className = "chat-reaction" + (msg.author_id === S.me ? " mine" : "");
  const who = document.createElement("b");
  who.className = "chat-nick";
  who.textContent = msg.nick || (msg.author_id === S.me ? T.you : "");
  li.append(who, ": ", ...reactionNodes(msg.key));
  renderEmpty();
  $("chat-log").append(li);
  scrollDown();
}

function buildQuick() {
  const box = $("chat-quick");
  for (const [key, text] of Object.entries(T.phrases)) {
    box.append(button(text, "chat-phrase", () => send({ type: "chat_react", key })));
  }
  for (const [key, emoji] of Object.entries(T.emoji)) {
    const b = button("", "chat-emoji", () => send({ type: "chat_react", key: `emoji_${key}` }));
    b.append(...reactionNodes(`emoji_${key}`));
    b.setAttribute("aria-label", emoji);
    box.append(b);
  }
}

// ---------------------------------------------------------------- errors, drawer, form
let errorTimer = null;
function showError(text, kind = "bad") {
  const el = $("chat-error");
  el.textContent = text;
  el.dataset.kind = kind;
  el.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { el.hidden = true; }, 5000);
}

function setUnread(n) {
  S.unread = n;
  const el = $("chat-unread");
  el.textContent = n ? String(n) : "";
  el.hidden = !n;
  el.title = n ? fmt(T.new_messages, { n }) : "";
}

function setOpen(open, focus = false) {
  S.open = open;
  root.classList.toggle("open", open);
  $("chat-toggle").setAttribute("aria-expanded", String(open));
  if (open) { setUnread(0); scrollDown(); if (focus) ($("chat-form").hidden ? $("chat-log") : $("chat-input")).focus(); }
  else if (focus) $("chat-toggle").focus();
}

// A page may offer a dock for panels' buttons (the game table's bar: [data-panel-dock]). There the
// button sits in the page's own row of controls, so it never covers a card or an action button;
// the waiting room docks it above the room, outside the fragment htmx swaps; without a dock it floats.
function dock() {
  const place = document.querySelector("[data-panel-dock]");
  if (!place) return;
  const toggle = $("chat-toggle");
  toggle.hidden = root.hidden; // outside the panel now: shown with it (onState)
  toggle.classList.add("docked");
  place.append(toggle);
}

function onKey(e) {
  e.stopPropagation(); // the table's card shortcuts must not fire while typing here
  if (e.key === "Escape" && S.open && !wide.matches) setOpen(false, true);
}

/** On a phone the open sheet covers the hand: when the player's turn comes (the table marks it on
 *  #game), the sheet closes so the clock and the cards are in sight. */
function closeOnTurn() {
  const game = $("game");
  if (!game) return;
  let was = game.classList.contains("my-turn");
  new MutationObserver(() => {
    const mine = game.classList.contains("my-turn");
    if (mine && !was && S.open && !wide.matches) setOpen(false);
    was = mine;
  }).observe(game, { attributes: true, attributeFilter: ["class"] });
}

function setup() {
  buildQuick();
  dock();
  closeOnTurn();
  setOpen(wide.matches);
  wide.addEventListener("change", (e) => setOpen(e.matches));
  $("chat-toggle").addEventListener("click", () => setOpen(!S.open, true));
  $("chat-close").addEventListener("click", () => setOpen(false, true));
  root.addEventListener("keydown", onKey);
  $("chat-toggle").addEventListener("keydown", onKey);
  const input = $("chat-input");
  input.addEventListener("input", count);
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    // the box clears at once; a refusal (too fast, too long) puts the text back (restorePending)
    if (send({ type: "chat_send", text })) { S.pending = text; input.value = ""; count(); }
  });
  count();
  $("chat-spectators").addEventListener("change", (e) => send({ type: "chat_settings", spectators: e.target.value }));
  $("chat-profanity").addEventListener("change", (e) => send({ type: "chat_settings", profanity_filter: e.target.checked }));
}

/** The characters typed of the 200 allowed, always in sight while typing. */
function count() {
  const n = $("chat-input").value.length;
  const el = $("chat-count");
  el.textContent = n ? `${n}/${MAX_LEN}` + (MAX_LEN - n <= 30 ? ` · ${fmt(T.chars_left, { n: MAX_LEN - n })}` : "") : "";
  el.classList.toggle("near", MAX_LEN - n <= 30);
}

/** A message the server refused goes back into the box (unless he already typed something new). */
function restorePending() {
  const input = $("chat-input");
  if (S.pending !== null && !input.value) { input.value = S.pending; count(); input.focus(); }
  S.pending = null;
}

// ---------------------------------------------------------------- the waiting room
// Sitting down or standing up changes what he may do in the chat (a spectator may only read at some
// tables): when the room's fragment shows his seat appear or go, the socket re-checks his rights.
let seated = null;
function onRoomSettled() {
  const room = $("room");
  if (!room) return;
  const now = !!room.querySelector(".seat-me");
  if (seated !== null && now !== seated && online()) send({ type: "chat_sync" });
  seated = now;
}

setup();
onRoomSettled();
document.body.addEventListener("htmx:afterSettle", onRoomSettled);

window.__chat = { get state() { return S; } };
