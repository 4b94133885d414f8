"""Browser: a profile shows its rating chart; the replay steps through a finished game."""

from __future__ import annotations

import pytest
from ratings_factories import browser_context, finished_game_row, make_player, make_table, play_finished_game

from ratings import services

pytestmark = [pytest.mark.browser]


@pytest.fixture(autouse=True)
def _orm_next_to_playwright(monkeypatch):
    """Playwright's sync API keeps an event loop in this thread; the test's own ORM calls are still sync."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


PATTERN = "WWLWWWLLWWLWWWDWLWWW"  # Anna's results, oldest first


def _history(ann, others) -> None:
    t = make_table(seats_count=2)
    for k, ch in enumerate(PATTERN):
        opp = others[k % len(others)]
        if ch == "D":
            res = {"draw": True}
        elif ch == "W":
            res = {"loser": 2, "losers": [2], "winners": [1]}
        else:
            res = {"loser": 1, "losers": [1], "winners": [2]}
        services.record_game_result(finished_game_row(t, [ann, opp], res,
                                                      rules={"variant": ("podkidnoy", "perevodnoy")[k % 3 == 0]}))


@pytest.mark.parametrize("mobile", [False, True], ids=["desktop", "phone"])
def test_a_profile_page_draws_the_rating_chart(transactional_db, asgi_live_server, browser, screenshot_dir, mobile):
    ann = make_player("Anna")
    others = [make_player(n) for n in ("Boris", "Vera", "Gleb")]
    _history(ann, others)
    context = browser_context(browser, asgi_live_server, others[0], mobile=mobile)
    page = context.new_page()
    try:
        page.goto("/ratings/players/Anna/")
        svg = page.locator(".rt-chart svg.narrow" if mobile else ".rt-chart svg.wide")
        assert page.locator(".rt-chart svg:visible").count() == 1
        line = svg.locator("path.line")
        line.wait_for()
        box = line.bounding_box()
        viewport = page.viewport_size
        assert box and box["width"] > viewport["width"] * 0.6 and box["height"] > 30
        assert svg.locator(".grid text").count() >= 3
        assert svg.locator("text.last-label").text_content() == str(1000 + 15 * (PATTERN.count("W") - PATTERN.count("L")))
        assert "Рейтинг" in page.locator("h2#chart-h").inner_text()
        page.locator(".rt-chart").screenshot(
            path=str(screenshot_dir / f"ratings-chart-{'phone' if mobile else 'desktop'}.png"))
        page.screenshot(path=str(screenshot_dir / f"ratings-profile-{'phone' if mobile else 'desktop'}.png"),
                        full_page=True)
        # the page fits the phone: nothing wider than the viewport
        wide = page.evaluate("""[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right
            > document.documentElement.clientWidth + 1).map(e => e.tagName + '.' + e.className).slice(0, 5)""")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1, wide
    finally:
        context.close()


def test_the_replay_steps_plays_and_jumps_to_a_round(transactional_db, asgi_live_server, browser, screenshot_dir):
    people = [make_player(n) for n in ("Nina", "Oleg", "Pavel", "Rita")]
    game = play_finished_game(make_table(rules={"pairs": True}), people, rules={"pairs": True}, seed=6)
    services.record_game_result(game)
    context = browser_context(browser, asgi_live_server, people[0])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"/ratings/games/{game.pk}/")
        caption = page.locator(".rp-caption")
        caption.wait_for()
        assert page.locator(".rp-seat").count() == 4
        assert page.locator(".rp-seat").first.locator(".rp-card").count() == 6  # the deal: all hands shown
        first = caption.inner_text()
        page.get_by_role("button", name="Шаг вперёд").click()
        assert caption.inner_text() != first
        page.keyboard.press("ArrowRight")
        assert "2 из" in page.locator(".rp-pos").inner_text()
        page.select_option("select[data-act=round]", index=2)
        assert caption.inner_text().startswith("Раунд 3")
        page.get_by_role("button", name="В конец").click()
        assert page.locator(".rp-name", has_text="выиграл").count() == 2
        page.screenshot(path=str(screenshot_dir / "ratings-replay-end.png"), full_page=True)
        page.get_by_role("button", name="К раздаче").click()
        page.get_by_role("button", name="Смотреть").click()
        page.wait_for_function("document.querySelector('.rp-pos').textContent.startsWith('Шаг 2')", timeout=5000)
        page.get_by_role("button", name="Пауза").click()
        assert errors == []
    finally:
        context.close()
