// Letters between friends, live on every signed-in page (a site panel: social/site_hooks.py). A letter
// arrives on the page's one socket (static/site/socket.js: the site socket, or a table's, which
// carries the site's news too) as `letter`: elsewhere it becomes a notice and moves the unread
// badges; on that conversation's own page it joins the log, and is marked read while the page is
// in view. The page writes and reports over HTTP (letters/views.py) and shows the refusal in the
// server's words; after every (re)connect it fetches what it may have missed.
import { $, csrf, fmt, toast } from "../site/page.js";
import { subscribe } from "../site/socket.js";

const T = JSON.parse(($("letters-live") || {}).textContent || "{}");
const page = document.querySelector("[data-conversation]");
const partner = page ? Number(page.dataset.conversation) : null;
const me = page ? Number(page.dataset.me) : null;
const log = $("letters-log");
const PREVIEW = 80; // characters of a letter in a notice
const state = { unseen: false, shown: 0 };
window.__letters = state; // the browser tests read it

function setCount(badge, n) {
  if (!badge) return;
  const num = badge.querySelector("[data-n]");
  if (num) num.textContent = String(n);
  badge.hidden = !(n > 0);
}

function setUnread(n) {
  for (const badge of document.querySelectorAll("[data-letters-unread]")) setCount(badge, n);
}

function friendBadges(id, count) {
  for (const row of document.querySelectorAll(`[data-letters-from="${Number(id)}"]`)) {
    const badge = row.querySelector(".letters-badge");
    const num = badge && badge.querySelector("[data-n]");
    if (num) setCount(badge, count(Number(num.textContent || 0)));
  }
}

/** The times in the reader's own clock and language: today's as hh:mm, older ones with the date. */
function localTimes(root) {
  const lang = document.documentElement.lang || "ru";
  const today = new Date().toDateString();
  for (const t of root.querySelectorAll("time[data-local-time]")) {
    const d = new Date(t.getAttribute("datetime"));
    if (Number.isNaN(d.getTime())) continue;
    const time = d.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
    t.textContent = d.toDateString() === today ? time
      : d.toLocaleDateString(lang, { day: "numeric", month: "short" }) + " " + time;
  }
}

async function post(url, body) {
  try {
    const r = await fetch(url, { method: "POST", body, credentials: "same-origin",
      headers: { "X-CSRFToken": csrf(), Accept: "application/json" } });
    return await r.json();
  } catch (e) {
    return { ok: false, message: T.failed };
  }
}

function nearBottom() { return log.scrollHeight - log.scrollTop - log.clientHeight < 80; }

/** Put a letter in the log (once: the socket and the send's answer may both bring it). */
function append(letter) {
  if (!log || log.querySelector(`[data-letter="${Number(letter.id)}"]`)) return false;
  const template = $(letter.author_id === me ? "letter-mine" : "letter-theirs");
  const li = template.content.firstElementChild.cloneNode(true);
  li.dataset.letter = String(letter.id);
  li.querySelector(".letter-text").textContent = letter.text;
  li.querySelector("time").setAttribute("datetime", letter.at);
  const form = li.querySelector("form[data-report-form]");
  if (form) form.action = form.getAttribute("action").replace(/\/report\/0\/$/, `/report/${Number(letter.id)}/`);
  const stick = nearBottom();
  log.append(li);
  localTimes(li);
  $("letters-empty").hidden = true;
  if (stick || letter.author_id === me) log.scrollTop = log.scrollHeight;
  state.shown += 1;
  return true;
}

function markRead() {
  if (document.visibilityState !== "visible") { state.unseen = true; return; }
  state.unseen = false;
  post(page.dataset.readUrl, null).then((d) => { if (d && d.ok) setUnread(d.unread); });
}

async function catchUp() {
  const ids = [...log.querySelectorAll("[data-letter]")].map((li) => Number(li.dataset.letter));
  const last = ids.length ? Math.max(...ids) : 0;
  try {
    const r = await fetch(`${page.dataset.url}?after=${last}`, { headers: { Accept: "application/json" } });
    const d = await r.json();
    let theirs = false;
    for (const letter of d.letters || []) if (append(letter) && letter.author_id !== me) theirs = true;
    if (theirs) markRead();
  } catch (e) { /* the next reconnect tries again */ }
}

function notice(msg) {
  const text = msg.letter.text.length > PREVIEW ? msg.letter.text.slice(0, PREVIEW - 1) + "…" : msg.letter.text;
  toast(fmt(T.toast, { nick: msg.letter.nick, text }), {
    actions: [{ label: T.open, href: msg.url, cls: "btn-gold" }], ttl: 15000, closeLabel: T.close, cls: "letters-toast",
  });
}

function onMessage(msg) {
  if (!msg || typeof msg.type !== "string") return;
  if (msg.type === "letter" && msg.letter) {
    if (page && msg.partner === partner) {
      if (append(msg.letter) && !msg.mine) markRead();
      return;
    }
    if (msg.mine) return;
    if (typeof msg.unread === "number") setUnread(msg.unread);
    friendBadges(msg.partner, (n) => n + 1);
    notice(msg);
  } else if (msg.type === "letters_read") {
    if (typeof msg.unread === "number") setUnread(msg.unread);
    friendBadges(msg.partner, () => 0);
  } else if (msg.type === "letter_deleted" && page && msg.partner === partner) {
    const li = log.querySelector(`[data-letter="${Number(msg.id)}"]`);
    if (li) li.remove();
  }
}

function showError(text) {
  const box = $("letters-error");
  if (!box) return;
  box.textContent = text || "";
  box.hidden = !text;
}

function wireForm() {
  const form = $("letters-form");
  if (!form) return;
  const input = $("letters-input");
  const button = form.querySelector("button[type=submit]");
  let sending = false;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (sending) return;
    sending = true;
    button.disabled = true;
    const d = await post(form.action, new FormData(form));
    if (d && d.ok) {
      input.value = "";
      showError("");
      append(d.letter);
    } else showError((d && d.message) || T.failed);
    sending = false;
    button.disabled = false;
    input.focus();
  });
  // Enter sends (a letter is one paragraph: its line breaks fold into spaces); Shift+Enter does not
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
      ev.preventDefault();
      form.requestSubmit();
    }
  });
}

function wireReports() {
  log.addEventListener("submit", async (ev) => {
    const form = ev.target.closest("form[data-report-form]");
    if (!form) return;
    ev.preventDefault();
    const d = await post(form.action, new FormData(form));
    if (d && d.ok && d.blocked) { location.reload(); return; }
    let out = form.querySelector(".letter-report-result");
    if (!out) {
      out = document.createElement("p");
      out.className = "letter-report-result";
      out.setAttribute("role", "status");
      form.append(out);
    }
    out.textContent = d && d.ok ? T.reported : (d && d.message) || T.failed;
    out.classList.toggle("is-error", !(d && d.ok));
    if (d && d.ok) for (const el of form.querySelectorAll("input, button")) el.disabled = true;
  });
}

localTimes(document);
if (page && log) {
  log.scrollTop = log.scrollHeight;
  wireForm();
  wireReports();
  document.addEventListener("visibilitychange", () => {
    if (state.unseen && document.visibilityState === "visible") markRead();
  });
}
subscribe({
  message: onMessage,
  open: () => { if (page && log) catchUp(); }, // every (re)connect: what came while it was down
});
