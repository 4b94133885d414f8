"""A match found plays the in-page chime and vibration the player switched on in his profile (the
same switches as «Ваш ход»), and nothing for a player who left them off. The page is real; only
the browser's speaker and vibration motor are stood in for, by a script the test adds to every
page, which counts what the page asked of them (kept across the page change to the table)."""

from __future__ import annotations

import pytest

from tests.conftest import login_browser_context
from tests.game.test_table_ui_live import close, make_player

pytestmark = [pytest.mark.timeout(300)]

# Counts oscillators started and vibrations asked, in sessionStorage: the match takes the tab to
# the table, a new page, and the counts must survive that.
RECORD = """
(() => {
  const bump = (key, by) => sessionStorage.setItem(key, String(Number(sessionStorage.getItem(key) || 0) + by));
  const param = () => ({ value: 0, setValueAtTime() {}, exponentialRampToValueAtTime() {}, linearRampToValueAtTime() {} });
  const node = (extra) => Object.assign({ connect(n) { return n; }, disconnect() {} }, extra);
  class CountingAudio {
    constructor() { this.currentTime = 0; this.state = "running"; this.destination = node({}); }
    resume() { return Promise.resolve(); }
    createGain() { return node({ gain: param() }); }
    createOscillator() { return node({ frequency: param(), type: "sine", start() { bump("tones", 1); }, stop() {} }); }
  }
  window.AudioContext = CountingAudio;
  window.webkitAudioContext = CountingAudio;
  navigator.vibrate = () => { bump("vibrations", 1); return true; };
})();
"""


def _page(browser, base, player, **kw):
    context = login_browser_context(browser, base, player, **kw)
    context.add_init_script(RECORD)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto("/tables/")
    page.wait_for_function("window.__site && window.__site.open", timeout=15000)
    return context, page, errors


def _asked(page) -> tuple[int, int]:
    return tuple(page.evaluate("[Number(sessionStorage.getItem('tones') || 0), Number(sessionStorage.getItem('vibrations') || 0)]"))


def test_a_match_chimes_and_vibrates_only_for_the_player_who_switched_them_on(asgi_live_server, transactional_db,
                                                                              browser):
    from notifications import services
    from social import presence, queue

    loud, quiet = make_player("Звонкий"), make_player("Тихий")
    services.set_switches(loud, {"sound": True, "vibrate": True})
    ctx_loud, page_loud, errors_loud = _page(browser, asgi_live_server, loud, mobile=True)
    ctx_quiet, page_quiet, errors_quiet = _page(browser, asgi_live_server, quiet, locale="en-US")
    try:
        presence.opened(loud.pk)
        presence.opened(quiet.pk)
        queue.join(loud, players="2", bot_fill="0", rated="0")
        queue.join(quiet, players="2", bot_fill="0", rated="0")  # the match: both are sent to the table
        for page in (page_loud, page_quiet):
            page.wait_for_url("**/tables/*/", timeout=15000)
        tones, vibrations = _asked(page_loud)
        assert tones >= 1 and vibrations == 1
        assert _asked(page_quiet) == (0, 0)
        assert errors_loud == [] and errors_quiet == []
    finally:
        close(ctx_loud, ctx_quiet)
