// The page helpers every script of the site shares (ES modules): finding an element, filling a
// translated template, the CSRF token of a POST, and the toast (a notice in the corner, or in a
// page's one-line place). The socket is static/site/socket.js.

/** The element with this id (the one way the site's scripts find their elements by id). */
export const $ = (id) => document.getElementById(id);

/** "{n} cards" with {n: 3} → "3 cards" (the pages' translated templates use {name} placeholders). */
export const fmt = (s, vars = {}) => String(s ?? "").replace(/\{(\w+)\}/g, (m, k) => (k in vars ? vars[k] : m));

/** The CSRF token for a POST: the cookie, else the one the page put in its hx-headers. */
export function csrf() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  if (m) return decodeURIComponent(m[1]);
  try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
}

/**
 * A notice, the one toast of every page. In the page's corner (#site-toasts,
 * social/site_socket.html) with optional actions ({label, href} links or {label, onClick} buttons,
 * cls for their style) and a close button labelled `closeLabel`; or, with `into`, in a one-line
 * place of the page (the game table's #g-toast) whose text it replaces, `cls` its style. It goes by
 * itself after `ttl` ms (0: stays). Returns the element, or null without a place for it.
 */
export function toast(text, { actions = [], ttl = 0, closeLabel = "×", cls = "", into = "" } = {}) {
  if (into) return toLine($(into), text, cls, ttl);
  const box = $("site-toasts");
  if (!box) return null;
  const el = document.createElement("div");
  el.className = "site-toast" + (cls ? " " + cls : "");
  el.setAttribute("role", "status");
  const p = document.createElement("p");
  p.textContent = text;
  const row = document.createElement("div");
  row.className = "site-toast-actions";
  for (const a of actions) {
    const b = document.createElement(a.href ? "a" : "button");
    b.className = "btn btn-small " + (a.cls || "");
    b.textContent = a.label;
    if (a.href) b.href = a.href; else b.type = "button";
    if (a.onClick) b.addEventListener("click", () => { a.onClick(); el.remove(); });
    row.append(b);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.className = "btn btn-small btn-outline site-toast-close";
  close.textContent = closeLabel;
  close.addEventListener("click", () => el.remove());
  row.append(close);
  el.append(p, row);
  box.append(el);
  if (ttl) setTimeout(() => el.remove(), ttl);
  return el;
}

const lines = new WeakMap(); // a one-line place → {timer, cls}: what its last toast set

function toLine(el, text, cls, ttl) {
  if (!el) return null;
  const was = lines.get(el) || { timer: null, cls: [] };
  clearTimeout(was.timer);
  el.classList.remove(...was.cls);
  const now = { timer: null, cls: cls.split(/\s+/).filter(Boolean) };
  el.classList.add(...now.cls);
  el.textContent = text;
  el.hidden = false;
  if (ttl) now.timer = setTimeout(() => { el.hidden = true; }, ttl);
  lines.set(el, now);
  return el;
}

/** Take a toast away now: a corner notice goes, a one-line place hides. */
export function dismiss(el) {
  if (!el) return;
  if (el.classList.contains("site-toast")) { el.remove(); return; }
  clearTimeout((lines.get(el) || {}).timer);
  el.hidden = true;
}
