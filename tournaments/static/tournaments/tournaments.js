// Tournament pages: countdowns drawn from the page's own times (no server call), and the event
// page's live part re-read once per `tournament` news on the site socket (at most once a second).
(function () {
  "use strict";
  function pad(n) { return String(n).padStart(2, "0"); }
  function draw() {
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var left = Math.max(0, Math.floor((Date.parse(el.dataset.countdown) - Date.now()) / 1000));
      if (isNaN(left)) return;
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      el.textContent = (h ? h + ":" + pad(m) : m) + ":" + pad(s);
    });
  }
  draw();
  setInterval(draw, 1000);

  var page = document.querySelector("[data-tournament]");
  if (!page) return;
  var id = Number(page.dataset.tournament);
  var busy = false, again = false, last = 0;
  function reload() {
    if (busy) { again = true; return; }
    var wait = Math.max(0, 1000 - (Date.now() - last));
    busy = true;
    setTimeout(function () {
      last = Date.now();
      fetch(page.dataset.liveUrl, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (html != null) { document.getElementById("t-live").innerHTML = html; draw(); }
        })
        .catch(function () {})
        .then(function () { busy = false; if (again) { again = false; reload(); } });
    }, wait);
  }
  document.addEventListener("site-message", function (ev) {
    var msg = ev.detail || {};
    if (msg.type === "tournament" && msg.id === id) reload();
    if (msg.type === "hello") reload();  // (re)connected: whatever was missed meanwhile
  });
})();
