// The page helpers every script of the site shares (ES modules): finding an element, filling a
// translated template, the CSRF token of a POST, and the notice with actions in the corner. The
// socket is static/site/socket.js.

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
 * A notice in the page's corner (#site-toasts, social/site_socket.html), with optional actions
 * ({label, href} links or {label, onClick} buttons, cls for their style) and a close button labelled
 * `closeLabel`; it goes by itself after `ttl` ms (0: stays). Returns the element, or null without
 * a place for it.
 */
export function toast(text, { actions = [], ttl = 0, closeLabel = "×", cls = "" } = {}) {
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
