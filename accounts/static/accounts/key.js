// The copy button on the recovery key page: Clipboard API, falling back to selecting the text.
(function () {
  "use strict";
  const button = document.getElementById("copy-key");
  const status = document.getElementById("copy-status");
  if (!button) return;
  const target = document.getElementById(button.dataset.copyTarget);

  function selectKey() {
    const range = document.createRange();
    range.selectNodeContents(target);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function legacyCopy() {
    selectKey();
    try { return document.execCommand("copy"); } catch (err) { return false; }
  }

  function done(ok) {
    status.textContent = ok ? button.dataset.copied : button.dataset.failed;
    button.classList.toggle("copied", ok);
    if (!ok) selectKey();
  }

  button.addEventListener("click", function () {
    const text = target.textContent.trim();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(legacyCopy()); });
    } else {
      done(legacyCopy());
    }
  });
})();
