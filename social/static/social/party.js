// A party of two, on every signed-in page: a friend's invitation into his party (accept or decline
// from the notice), the party formed or left, and the leader's search that takes this page along.
// The news comes on the page's one socket (static/site/socket.js, social/notify.py); answers go over
// HTTP (social/party_views.py), which refuses with the catalogue's sentence.
import { $, csrf, fmt, toast } from "../site/page.js";
import { subscribe } from "../site/socket.js";

const T = JSON.parse(($("party-i18n") || {}).textContent || "{}");
const notice = (text, actions = [], ttl = 0) => toast(text, { actions, ttl, closeLabel: T.close || "×" });
const held = () => !!document.querySelector("[data-keep-page]"); // the recovery key is on screen
const onSearchPage = () => !!document.querySelector("[data-search-page]");

function go(url) {
  if (!url || held()) return;
  if (location.pathname === url) location.reload(); else location.assign(url);
}

async function answer(id, accept) {
  const body = new URLSearchParams({ op: accept ? "accept" : "decline" });
  try {
    const res = await fetch(`/play/party/invitations/${id}/`, {
      method: "POST", body, credentials: "same-origin",
      headers: { "X-CSRFToken": csrf(), Accept: "application/json" },
    });
    const data = await res.json();
    if (!data.ok) { notice(data.message || T.failed, [], 8000); return; }
    if (data.url) go(data.url);
  } catch (e) {
    notice(T.failed, [], 8000);
  }
}

function invitation(msg) {
  const el = notice(fmt(T.invitation, msg), [
    { label: T.accept, cls: "btn-gold", onClick: () => answer(msg.id, true) },
    { label: T.decline, onClick: () => answer(msg.id, false) },
  ], (msg.expires_in || 60) * 1000);
  if (el) { el.classList.add("site-toast-invite"); el.dataset.partyInvitation = msg.id; }
}

function onMessage(msg) {
  if (!msg || typeof msg.type !== "string" || !msg.type.startsWith("party_")) return;
  switch (msg.type) {
    case "party_invitation": invitation(msg); break;
    case "party_invitation_withdrawn": {
      const el = document.querySelector(`[data-party-invitation="${Number(msg.id)}"]`);
      if (el) el.remove();
      break;
    }
    case "party_declined": notice(fmt(T.declined, msg), [], 6000); break;
    case "party_formed": case "party_left":
      notice(fmt(T[msg.type], msg), [], 6000);
      if (onSearchPage()) setTimeout(() => location.reload(), 1200);
      break;
    case "party_search": notice(fmt(T.search, msg), [], 4000); go(msg.url); break;
    default: break;
  }
}

subscribe({ message: onMessage });
