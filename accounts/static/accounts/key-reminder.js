// The reminder of a recovery key not shown yet (templates/base.html, accounts/_key_reminder.html):
// «Позже» or Escape hides it for this page view only; it comes back on the next page until the key is shown.
(function () {
  "use strict";
  document.querySelectorAll("[data-key-reminder]").forEach(function (box) {
    var close = box.querySelector("[data-key-reminder-close]");
    if (!close) return;
    close.hidden = false;  // without a script there is nothing to hide it with, so no dead button
    function hide() {
      var hadFocus = box.contains(document.activeElement);
      box.hidden = true;
      var main = document.getElementById("main");
      if (hadFocus && main) main.focus({ preventScroll: true });
    }
    close.addEventListener("click", hide);
    box.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape") { ev.preventDefault(); hide(); }
    });
  });
})();
