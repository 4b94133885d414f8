// The site socket: one per tab on every page (social/consumers.py). Presence, personal news
// (a match: go to the table; an invitation; a friend request), the lobby's online list and the
// search page's counts. Reconnects with a growing pause; pings every 20 s.
(function () {
  "use strict";
  var T = JSON.parse((document.getElementById("site-i18n") || {}).textContent || "{}");
  var state = { open: false, messages: [], socket: null, retry: 0 };
  window.__site = state;
  var PING_MS = 20000;

  function fmt(text, params) {
    return String(text || "").replace(/%\((\w+)\)s/g, function (_m, k) { return params[k] == null ? "" : params[k]; });
  }

  function toast(text, actions, ttl) {
    var box = document.getElementById("site-toasts");
    if (!box) return null;
    var el = document.createElement("div");
    el.className = "site-toast";
    el.setAttribute("role", "status");
    var p = document.createElement("p");
    p.textContent = text;
    el.appendChild(p);
    var row = document.createElement("div");
    row.className = "site-toast-actions";
    (actions || []).forEach(function (a) {
      var b = document.createElement(a.href ? "a" : "button");
      b.className = "btn btn-small " + (a.cls || "");
      b.textContent = a.label;
      if (a.href) b.href = a.href; else b.type = "button";
      if (a.onClick) b.addEventListener("click", function () { a.onClick(); el.remove(); });
      row.appendChild(b);
    });
    var close = document.createElement("button");
    close.type = "button";
    close.className = "btn btn-small btn-outline site-toast-close";
    close.textContent = T.close || "×";
    close.addEventListener("click", function () { el.remove(); });
    row.appendChild(close);
    el.appendChild(row);
    box.appendChild(el);
    if (ttl) setTimeout(function () { el.remove(); }, ttl);
    return el;
  }

  function send(obj) {
    if (state.socket && state.socket.readyState === 1) state.socket.send(JSON.stringify(obj));
  }

  // a page that must not be left by itself: the recovery key is on screen and is shown only once
  function held() { return !!document.querySelector("[data-keep-page]"); }

  function go(url) { if (url && location.pathname !== url && !held()) location.assign(url); }

  function beep() {
    try {
      var ctx = new (window.AudioContext || window.webkitAudioContext)();
      var osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.frequency.value = 880; gain.gain.value = 0.08;
      osc.connect(gain); gain.connect(ctx.destination);
      osc.start(); osc.stop(ctx.currentTime + 0.15);
    } catch (e) { /* no sound where the browser allows none */ }
  }

  function matched(url) {
    if (!url || location.pathname === url) return;
    beep();
    if (!held()) { toast(T.match, [], 3000); go(url); return; }
    if (state.heldUrl === url) return;  // told once (hello and match both carry it)
    state.heldUrl = url;
    toast(T.match_held, [{ label: T.to_table, href: url, cls: "btn-gold" }], 0);
  }

  // an accepted invitation seated him: go there, unless the page holds his key (he goes when ready)
  function seated(url) {
    if (!held()) { location.assign(url); return; }
    toast(T.invite_held, [{ label: T.to_table, href: url, cls: "btn-gold" }], 0);
  }

  function invitation(msg) {
    var left = msg.expires_in || 60;
    var el = toast(fmt(T.invitation, msg), [
      { label: T.accept, cls: "btn-gold", onClick: function () { send({ type: "invitation", id: msg.id, accept: true }); } },
      { label: T.decline, onClick: function () { send({ type: "invitation", id: msg.id, accept: false }); } }
    ], left * 1000);
    if (el) el.classList.add("site-toast-invite");
  }

  function drawOnline(data) {
    var panel = document.querySelector("[data-online-panel]");
    if (!panel) return;
    var L = JSON.parse((document.getElementById("online-i18n") || {}).textContent || "{}");
    var counts = panel.querySelector("[data-online-counts]");
    if (counts) counts.textContent = fmt(L.counts, { online: data.online, playing: data.playing });
    var list = panel.querySelector("[data-online-list]");
    if (!list) return;
    list.textContent = "";
    if (!data.players.length) {
      var li0 = document.createElement("li");
      li0.className = "online-empty";
      li0.textContent = L.nobody;
      list.appendChild(li0);
    }
    data.players.forEach(function (p) {
      var li = document.createElement("li");
      li.className = "online-row status-" + p.status;
      li.dataset.player = p.id;
      var a = document.createElement("a");
      a.className = "online-nick"; a.href = "/people/" + p.id + "/"; a.textContent = p.nick;
      var r = document.createElement("span");
      r.className = "online-rating"; r.textContent = p.rating;
      var m = document.createElement("span");
      m.className = "rel-mark rel-" + p.reliability;
      m.title = L.reliability + ": " + (L.marks || {})[p.reliability];
      m.textContent = (L.marks || {})[p.reliability] || "";
      var s = document.createElement("span");
      s.className = "online-status";
      s.textContent = L[p.status] || p.status;
      if (p.watch) {
        s.appendChild(document.createTextNode(" · "));
        var w = document.createElement("a"); w.href = p.watch; w.textContent = L.watch; s.appendChild(w);
      }
      li.append(a, " ", r, " ", m, " ", s);
      list.appendChild(li);
    });
  }

  function drawSearch(search) {
    if (!search) return;
    if (search.state === "matched") { matched(search.url); return; }
    var page = document.querySelector("[data-search-page]");
    if (!page) return;
    var searching = page.querySelector("[data-searching]");
    if (search.state === "idle" && searching) { location.reload(); return; }
    if (search.state === "searching" && !searching) { location.reload(); return; }
    var others = page.querySelector("[data-search-others]");
    if (others && search.others != null) others.textContent = search.others;
  }

  function onMessage(ev) {
    var msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    state.messages.push(msg);
    if (state.messages.length > 50) state.messages.shift();
    // pages of the apps above listen for their own news (tournaments' live standings)
    document.dispatchEvent(new CustomEvent("site-message", { detail: msg }));
    switch (msg.type) {
      case "hello": drawSearch(msg.search); break;
      case "search": drawSearch(msg.search); break;
      case "match": matched(msg.url); break;
      case "requeued": toast(T.requeued, [], 5000); go(msg.url); break;
      case "search_ended":
        toast(msg.reason === "no_show" ? T.no_show : T.search_ended, [], 6000);
        if (document.querySelector("[data-searching]")) setTimeout(function () { location.reload(); }, 1500);
        break;
      case "invitation": invitation(msg); break;
      case "invitation_answered": if (msg.accepted && msg.url) seated(msg.url); break;
      case "friend_request": toast(fmt(T.friend_request, msg), [{ label: T.see, href: msg.url, cls: "btn-gold" }], 15000); break;
      case "friend_accepted": case "invitation_declined": case "invitation_accepted":
        toast(fmt(T[msg.type], msg), [], 6000); break;
      case "online": drawOnline(msg); break;
      case "error": if (msg.message) toast(msg.message, [], 6000); break;
      default:
        // news of an app above with its own words (e.g. a tournament about to start): a toast and a link
        if (msg.toast) {
          var lang = (document.documentElement.lang || "ru").slice(0, 2);
          var text = msg.toast[lang] || msg.toast.ru;
          toast(text, msg.url ? [{ label: T.see || "→", href: msg.url, cls: "btn-gold" }] : [], 20000);
        }
        break;
    }
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var ws = new WebSocket(scheme + location.host + "/ws/site/");
    state.socket = ws;
    ws.onopen = function () {
      state.open = true;
      state.retry = 0;
      send({ type: "page", path: location.pathname });
    };
    ws.onmessage = onMessage;
    ws.onclose = function (ev) {
      state.open = false;
      if ([4401, 4403, 4408, 4429].indexOf(ev.code) >= 0) return;  // ended, banned, too many, flooding: stay closed
      state.retry = Math.min(state.retry + 1, 6);
      setTimeout(connect, 500 * Math.pow(2, state.retry));
    };
  }

  function tickTimer() {
    var box = document.querySelector("[data-searching]");
    var out = document.querySelector("[data-search-timer]");
    if (!box || !out) return;
    var since = Date.parse(box.dataset.since);
    var fill = Number(box.dataset.botFill || 0);
    var clock = function (s) { return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0"); };
    setInterval(function () {
      var s = Math.max(0, Math.floor((Date.now() - since) / 1000));
      // one countdown: to the bots when they are the fallback, else the wait counted up
      if (fill && out.dataset.countdown) {
        out.textContent = s < fill ? out.dataset.countdown.replace("{t}", clock(fill - s)) : out.dataset.due;
      } else out.textContent = clock(s);
    }, 500);
  }

  function autostart() {
    var page = document.querySelector("[data-search-page][data-autostart]");
    var form = page && page.querySelector("[data-search-form]");
    if (form) form.submit();
  }

  setInterval(function () { send({ type: "ping" }); }, PING_MS);
  connect();
  tickTimer();
  autostart();
})();
