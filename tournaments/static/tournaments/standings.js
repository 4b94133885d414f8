// The event page's live standings, drawn from the `tournament` frames (tournaments/live.py): the top
// of the table, the player's own line and place, the count of players and the games in progress,
// redrawn in place. The frame is read once on the server for every open page; this page asks for
// its fragment again (tournaments.js, on "tournament-reread") only when its own part changed: the
// event's status or round, or the player's own state (paired, paused, out).
import { $, fmt } from "../site/page.js";
import { subscribe } from "../site/socket.js";

const root = document.querySelector("[data-tournament]");
const T = JSON.parse(($("t-i18n") || {}).textContent || "{}");
const TOP = 10; // tournaments/live.py TOP
let newest = 0;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function row(line, place, me) {
  const tr = el("tr", "t-line" + (line.id === me ? " t-own" : "") + (line.state === "withdrawn" ? " t-out" : ""));
  tr.dataset.player = line.id;
  const who = el("td");
  const a = el("a", null, line.nick);
  a.href = root.dataset.profileUrl.replace("__nick__", encodeURIComponent(line.nick));
  who.append(a);
  if (line.fire) { const f = el("span", "t-fire", "×2"); f.title = T.fire; who.append(" ", f); }
  if (line.state === "paused") who.append(" ", el("span", "t-badge", T.pause));
  const marks = el("td", "t-marks");
  for (const m of line.marks) {
    if (m === "*") { const s = el("sup", "t-bz", "+1"); s.title = T.berserk; marks.append(s); }
    else marks.append(el("span", "t-mark t-mark-" + m, (T.marks || {})[m] || m));
  }
  tr.append(el("td", null, String(place)), who, marks, el("td", "t-points", line.shown));
  return tr;
}

/** Who plays against whom at one table (tournaments/live.py sides): every player of a pod on his
 * own, or for pairs the two teams (seats 1 and 3 against 2 and 4). */
function sides(nicks) {
  if ("pairs" in root.dataset && nicks.length === 4) return [[nicks[0], nicks[2]], [nicks[1], nicks[3]]];
  return nicks.map((n) => [n]);
}

/** Draw the frame; false when this page's own part changed and its fragment must be read again. */
function apply(msg, live) {
  if (msg.status !== live.dataset.status || String(msg.round) !== live.dataset.round || msg.finished) return false;
  const me = Number(root.dataset.me || 0);
  const lines = new Map(msg.lines.map((l) => [l.id, l]));
  const screen = live.querySelector(".t-pause-screen");
  const mine = lines.get(me);
  if (mine && screen && mine.state !== screen.dataset.state) return false;
  const body = live.querySelector("[data-standings]");
  if (!body) return false;
  const ownRow = body.querySelector("tr.t-own");
  const rows = [];
  msg.order.slice(0, TOP).forEach((pid, i) => {
    const line = lines.get(pid);
    if (line) rows.push(row(line, i + 1, me));
  });
  const place = msg.order.indexOf(me) + 1;
  if (place > TOP) {
    let own = mine ? row(mine, place, me) : ownRow;
    if (own) {
      if (!mine) own.cells[0].textContent = String(place);
      const gap = el("tr", "t-gap");
      const td = el("td", null, "…");
      td.colSpan = 4;
      gap.append(td);
      rows.push(gap, own);
    }
  }
  if (!msg.order.length) {
    const tr = el("tr"), td = el("td", null, T.nobody);
    td.colSpan = 4;
    tr.append(td);
    rows.push(tr);
  }
  body.replaceChildren(...rows);
  const count = live.querySelector("[data-players]");
  if (count) count.textContent = fmt(T.players[new Intl.PluralRules(document.documentElement.lang || "ru")
    .select(msg.players)] || T.players.other, { n: msg.players });
  const at = live.querySelector("[data-my-place]");
  if (at && place) {
    const shown = mine ? mine.shown : at.dataset.score;
    at.dataset.score = shown;
    at.textContent = fmt(T.place, { place, score: shown });
  }
  const games = live.querySelector("[data-running]");
  if (games) {
    const list = games.querySelector("ul");
    list.replaceChildren(...msg.running.map(([table, ...nicks]) => {
      const li = el("li"), link = el("a");
      link.href = root.dataset.tableUrl.replace("/0/", `/${table}/`);
      link.dataset.table = table;
      sides(nicks).forEach((side, i) => {
        if (i) link.append(" – ");
        const span = el("span", "t-side");
        side.forEach((nick, j) => {
          if (j) span.append(" & ");
          span.append(el("span", "t-nick", nick));
        });
        link.append(span);
      });
      li.append(link);
      return li;
    }));
    games.hidden = msg.status !== "running" || !msg.running.length;
  }
  return true;
}

if (root) {
  const id = Number(root.dataset.tournament);
  subscribe({
    message: (msg) => {
      if (!msg || msg.type !== "tournament" || msg.id !== id || typeof msg.standings !== "string") return;
      const standings = JSON.parse(msg.standings); // sent as one string, encoded once for every tab
      if (standings.at < newest) return; // another process's older read
      newest = standings.at;
      const live = document.querySelector("#t-live .t-live");
      if (!live || !apply(standings, live)) document.dispatchEvent(new CustomEvent("tournament-reread"));
    },
  });
}
