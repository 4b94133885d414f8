// The site's news on every signed-in page: presence, personal news (a match: go to the table; an
// invitation; a friend request), the lobby's online list and the search page's counts. A page holds
// one socket (static/site/socket.js): on a table's pages the table socket, which carries this news
// too (social/table_socket.py); on every other page this module opens the site socket
// (social/consumers.py) once the page's own scripts have run without opening one.
import { alertsWanted, buzz, chime, pairingChimeOn, ring } from "../site/alerts.js";
import { $, fmt, toast } from "../site/page.js";
import { Connection, pageSocket, subscribe } from "../site/socket.js";

const T = JSON.parse(($("site-i18n") || {}).textContent || "{}");
const state = { open: false, messages: [], heldUrl: null };
window.__site = state;
const SITE_PATH = "/ws/site/";
const PING_MS = 20000; // the site socket's presence is refreshed every 35 s (social/consumers.py)

// a notice with actions (static/site/page.js), its close button labelled in the page's language
const notice = (text, actions = [], ttl = 0) => toast(text, { actions, ttl, closeLabel: T.close || "×" });

function send(obj) {
  const conn = pageSocket();
  return !!conn && conn.send(obj);
}

// a page that must not be left by itself: the recovery key is on screen and is shown only once
const held = () => !!document.querySelector("[data-keep-page]");

function go(url) { if (url && location.pathname !== url && !held()) location.assign(url); }

const CHIME_MS = 400; // the chime's length: leaving the page at once would cut it

// A tournament's pairing chimes by default (alerts.js); vibration keeps the profile's switch.
function pairingRing() {
  const on = pairingChimeOn();
  if (on) chime();
  if (alertsWanted().vibrate) buzz();
  return on;
}

// `news`: the match frame itself (the player's chime and vibration, if he switched them on; a
// tournament's pairing chimes by default), not the state a (re)opened socket reports
function matched(url, news = false, tournament = false) {
  if (!url || location.pathname === url) return;
  const chimed = news && (tournament ? pairingRing() : ring());
  if (!held()) { notice(T.match, [], 3000); setTimeout(() => go(url), chimed ? CHIME_MS : 0); return; }
  if (state.heldUrl === url) return; // told once (hello and match both carry it)
  state.heldUrl = url;
  notice(T.match_held, [{ label: T.to_table, href: url, cls: "btn-gold" }]);
}

// an accepted invitation seated him: go there, unless the page holds his key (he goes when ready)
function seated(url) {
  if (!held()) { location.assign(url); return; }
  notice(T.invite_held, [{ label: T.to_table, href: url, cls: "btn-gold" }]);
}

function invitation(msg) {
  const answer = (accept) => () => send({ type: "invitation", id: msg.id, accept });
  const el = notice(fmt(T.invitation, msg), [
    { label: T.accept, cls: "btn-gold", onClick: answer(true) },
    { label: T.decline, onClick: answer(false) },
  ], (msg.expires_in || 60) * 1000);
  if (el) { el.classList.add("site-toast-invite"); el.dataset.invitation = msg.id; }
}

// the inviter withdrew it (or renewed it: a new notice follows): its notice goes, and the friends
// page's row says so instead of offering answers
function withdrawn(msg) {
  const said = fmt(T.invitation_withdrawn, msg);
  for (const el of document.querySelectorAll(`[data-invitation="${Number(msg.id)}"]`)) {
    if (el.classList.contains("site-toast")) el.remove();
    else if (!msg.renewed) el.textContent = said;
    else el.remove();
  }
  if (!msg.renewed) notice(said, [], 8000);
}

function drawOnline(data) {
  const panel = document.querySelector("[data-online-panel]");
  if (!panel) return;
  const L = JSON.parse(($("online-i18n") || {}).textContent || "{}");
  const marks = L.marks || {};
  const counts = panel.querySelector("[data-online-counts]");
  if (counts) counts.textContent = fmt(L.counts, { online: data.online, playing: data.playing });
  const list = panel.querySelector("[data-online-list]");
  if (!list) return;
  list.textContent = "";
  if (!data.players.length) {
    const empty = document.createElement("li");
    empty.className = "online-empty";
    empty.textContent = L.nobody;
    list.append(empty);
  }
  for (const p of data.players) {
    const li = document.createElement("li");
    li.className = "online-row status-" + p.status;
    li.dataset.player = p.id;
    const a = document.createElement("a");
    a.className = "online-nick"; a.href = "/people/" + p.id + "/"; a.textContent = p.nick;
    const r = document.createElement("span");
    r.className = "online-rating"; r.textContent = p.rating;
    const m = document.createElement("span");
    m.className = "rel-mark rel-" + p.reliability;
    m.title = L.reliability + ": " + marks[p.reliability];
    m.textContent = marks[p.reliability] || "";
    const s = document.createElement("span");
    s.className = "online-status";
    s.textContent = L[p.status] || p.status;
    if (p.watch) {
      const w = document.createElement("a"); w.href = p.watch; w.textContent = L.watch;
      s.append(" · ", w);
    }
    li.append(a, " ", r, " ", m, " ", s);
    list.append(li);
  }
}

function drawSearch(search) {
  if (!search) return;
  if (search.state === "matched") { matched(search.url); return; }
  const page = document.querySelector("[data-search-page]");
  if (!page) return;
  const searching = page.querySelector("[data-searching]");
  if (search.state === "idle" && searching) { location.reload(); return; }
  if (search.state === "searching" && !searching) { location.reload(); return; }
  const others = page.querySelector("[data-search-others]");
  if (others && search.others != null) others.textContent = search.others;
}

// the personal news (social/notify.py); on a table's socket everything else is the table's own
const NEWS = new Set(["match", "requeued", "search_ended", "invitation", "invitation_answered", "invitation_accepted",
  "invitation_declined", "invitation_withdrawn", "friend_request", "friend_accepted"]);

// why a search ended, when the frame says (social/queue.py): his no-show, or his party's partner left
const ENDED = { no_show: T.no_show, partner: T.partner_left_search };

function onMessage(msg) {
  if (!msg || typeof msg.type !== "string") return;
  const shared = (pageSocket() || {}).path !== SITE_PATH; // the page's socket is a table's
  if (shared && !NEWS.has(msg.type) && !msg.toast) return;
  state.messages.push(msg);
  if (state.messages.length > 50) state.messages.shift();
  switch (msg.type) {
    case "hello": case "search": drawSearch(msg.search); break;
    case "match": matched(msg.url, true, msg.tournament != null); break;
    case "requeued": notice(T.requeued, [], 5000); go(msg.url); break;
    case "search_ended":
      notice(ENDED[msg.reason] || T.search_ended, [], 6000);
      if (document.querySelector("[data-searching]")) setTimeout(() => location.reload(), 1500);
      break;
    case "invitation": invitation(msg); break;
    case "invitation_withdrawn": withdrawn(msg); break;
    case "invitation_answered": if (msg.accepted && msg.url) seated(msg.url); break;
    case "friend_request":
      notice(fmt(T.friend_request, msg), [{ label: T.see, href: msg.url, cls: "btn-gold" }], 15000);
      break;
    case "friend_accepted": case "invitation_declined": case "invitation_accepted":
      notice(fmt(T[msg.type], msg), [], 6000); break;
    case "online": drawOnline(msg); break;
    // a table page's own client shows the table socket's errors
    case "error": if (msg.message) notice(msg.message, [], 6000); break;
    default:
      // news of an app above with its own words (e.g. a tournament about to start): a toast and a link
      if (msg.toast) {
        const lang = (document.documentElement.lang || "ru").slice(0, 2);
        const text = msg.toast[lang] || msg.toast.ru;
        notice(text, msg.url ? [{ label: T.see || "→", href: msg.url, cls: "btn-gold" }] : [], 20000);
      }
      break;
  }
}

function tickTimer() {
  const box = document.querySelector("[data-searching]");
  const out = document.querySelector("[data-search-timer]");
  if (!box || !out) return;
  const since = Date.parse(box.dataset.since);
  const fill = Number(box.dataset.botFill || 0);
  const clock = (s) => Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  setInterval(() => {
    const s = Math.max(0, Math.floor((Date.now() - since) / 1000));
    // one countdown: to the bots when they are the fallback, else the wait counted up
    if (fill && out.dataset.countdown) {
      out.textContent = s < fill ? fmt(out.dataset.countdown, { t: clock(fill - s) }) : out.dataset.due;
    } else out.textContent = clock(s);
  }, 500);
}

function autostart() {
  const page = document.querySelector("[data-search-page][data-autostart]");
  const form = page && page.querySelector("[data-search-form]");
  if (form) form.submit();
}

subscribe({
  message: onMessage,
  open: () => { state.open = true; },
  close: () => { state.open = false; },
});

// The page's modules all run before DOMContentLoaded (this one first): by then a table page has
// opened its socket. (Loaded later than that, the page's load event comes instead.)
let decided = false;
function openUnlessShared() {
  if (decided) return;
  decided = true;
  if (pageSocket()) return;
  new Connection(SITE_PATH, {
    open: () => send({ type: "page", path: location.pathname }),
  }, { pingEvery: PING_MS }).start();
}
if (document.readyState === "complete") openUnlessShared();
else {
  document.addEventListener("DOMContentLoaded", openUnlessShared);
  window.addEventListener("load", openUnlessShared);
}
tickTimer();
autostart();
