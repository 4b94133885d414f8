"""The Content-Security-Policy in a real browser: the pages, htmx, the waiting
room and a whole game by clicking run with no CSP violation in the console."""

from __future__ import annotations

import pytest

from tests.conftest import login_browser_context
from tests.game.test_table_ui_live import close, make_player, play_until_over, start_table

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

# every violation reaches the page as an event: record them all, whatever the console says
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


def _watch(page) -> list[str]:
    seen: list[str] = []
    page.on("console", lambda msg: seen.append(msg.text) if "Content Security Policy" in msg.text else None)
    page.add_init_script(RECORD_VIOLATIONS)
    return seen


def test_pages_the_waiting_room_and_a_whole_game_live_with_the_csp(transactional_db, asgi_live_server, browser,
                                                                  screenshot_dir):
    from lobby import services as lobby_services

    person = make_player("Строгий")
    waiting = lobby_services.create_table(person, private=True)
    table, _game = start_table([person], bots=("heuristic", "lowest", "random"))
    # no bypass here: Playwright's wait_for_function would itself break the policy, so this test polls
    context = login_browser_context(browser, asgi_live_server, person, bypass_csp=False)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    console = _watch(page)
    violations: list[str] = []
    for path in ("/", "/tables/", f"/tables/{waiting.pk}/", "/accounts/profile/", "/tables/rules/"):
        response = page.goto(path)
        assert response.status == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        if path == f"/tables/{waiting.pk}/":
            page.focus("#invite-link")  # the one inline handler, allowed by its hash
            assert page.evaluate("document.activeElement.selectionEnd") > 0
        page.wait_for_timeout(300)
        violations += page.evaluate("window.__csp")
    page.goto(f"/tables/{table.pk}/")
    for _ in range(200):
        if page.evaluate("!!(window.__table && window.__table.view)"):
            break
        page.wait_for_timeout(100)
    moves = play_until_over(page)
    assert moves > 0
    page.wait_for_selector("#g-result:not([hidden])", timeout=10000)
    page.screenshot(path=str(screenshot_dir / "csp_game_over.png"))
    violations += page.evaluate("window.__csp")
    assert not violations, violations
    assert not console, console
    assert not page.errors, page.errors
    close(context)
