"""Browser: a profile shows its rating chart; the replay steps through a finished game."""

from __future__ import annotations

import pytest
from ratings_factories import finished_game_row, make_player, make_table, play_finished_game

from ratings import services
from tests.conftest import login_browser_context

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
def test_a_profile_page_draws_the_rating_chart(transactional_db, asgi_live_server, browser, screenshot_dir, mobile,
                                              settings):
    settings.RATINGS_PAIR_GAMES_PER_DAY = 1000  # a long history with the same three people in one day ...
    settings.RATINGS_PROVISIONAL_GAMES = 0  # ... who are all new accounts
    ann = make_player("Anna")
    others = [make_player(n) for n in ("Boris", "Vera", "Gleb")]
    _history(ann, others)
    context = login_browser_context(browser, asgi_live_server, others[0], mobile=mobile)
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
    context = login_browser_context(browser, asgi_live_server, people[0])
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
        # the first position of round 3 follows round 2's last move: told in its round, naming the next
        assert caption.inner_text().startswith("Кон 2:") and caption.inner_text().endswith("начинается кон 3"), \
            caption.inner_text()
        throw_in = page.evaluate("""() => { const f = JSON.parse(document.getElementById('replay-frames').textContent);
            return f.findIndex((x, k) => k > 0 && x.action && x.action.type === 'attack' && f[k - 1].table.length > 0); }""")
        assert throw_in > 0
        page.evaluate(f"location.hash = '#step-{throw_in}'")
        page.wait_for_function("document.querySelector('.rp-caption').textContent.includes('подкидывает')")
        assert "ходит" not in caption.inner_text()
        page.get_by_role("button", name="В конец").click()
        assert page.locator(".rp-name", has_text="победа").count() == 2
        page.screenshot(path=str(screenshot_dir / "ratings-replay-end.png"), full_page=True)
        page.get_by_role("button", name="К раздаче").click()
        page.get_by_role("button", name="Смотреть").click()
        page.wait_for_function("document.querySelector('.rp-pos').textContent.startsWith('Шаг 2')", timeout=5000)
        page.get_by_role("button", name="Пауза").click()
        assert errors == []
    finally:
        context.close()
    phone = login_browser_context(browser, asgi_live_server, people[1], mobile=True)
    page = phone.new_page()
    try:
        page.goto(f"/ratings/games/{game.pk}/")
        page.locator(".rp-caption").wait_for()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"] + 1
        page.screenshot(path=str(screenshot_dir / "ratings-replay-phone.png"), full_page=True)
    finally:
        phone.close()


@pytest.mark.parametrize("mobile", [False, True], ids=["desktop", "phone"])
def test_leaderboard_and_club_pages_on_desktop_and_phone(transactional_db, asgi_live_server, browser, screenshot_dir,
                                                        mobile):
    from ratings_factories import make_table as table_for

    people = [make_player(n) for n in ("Alla", "Boris", "Vera", "Gleb", "Dina", "Egor")]
    t = table_for(seats_count=2)
    for k in range(12):
        a, b = people[k % 6], people[(k * 5 + 1) % 6]
        if a == b:
            continue
        services.record_game_result(finished_game_row(t, [a, b], {"loser": 2, "losers": [2], "winners": [1]},
                                                      rules={"variant": ("podkidnoy", "perevodnoy")[k % 2]}))
    q = table_for(series_length=3, rules={"pairs": True})
    from lobby.models import Seat
    for n, p in enumerate(people[:4], start=1):
        Seat.objects.create(table=q, number=n, player=p)
    for _ in range(2):
        services.record_game_result(finished_game_row(q, people[:4], {"losers": [2, 4], "winners": [1, 3]},
                                                      rules={"pairs": True}))
    context = login_browser_context(browser, asgi_live_server, people[2], mobile=mobile)
    page = context.new_page()
    size = "phone" if mobile else "desktop"
    try:
        page.goto("/ratings/")
        assert page.locator("table.rt-table tbody tr").count() == 6
        assert page.locator("tr.me").count() == 1
        assert "Ваше место" in page.locator(".rt-mine").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"] + 1
        page.screenshot(path=str(screenshot_dir / f"ratings-leaderboard-{size}.png"), full_page=True)
        page.get_by_role("link", name="Переводной").click()
        page.wait_for_url("**/ratings/?variant=perevodnoy")
        page.goto("/ratings/club/")
        # the four quartet players are newcomers in the club (it has free places) and in the preliminary table
        assert page.locator("table.rt-table").count() == 2
        assert page.locator("table.rt-club tr.newcomer").count() == 4
        assert page.locator("table.rt-club .rt-tag.new").first.inner_text() == "новичок"
        assert page.locator(".rt-tag.candidate").count() == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"] + 1
        page.screenshot(path=str(screenshot_dir / f"ratings-club-{size}.png"), full_page=True)
        # the series panel: Vera (seat 3) won the last game with Alla (seat 1) and picks who leads next
        page.goto(f"/ratings/series/{q.pk}/")
        assert "2 из 3" in page.locator(".rt-series h2").inner_text()
        page.get_by_role("button", name="Alla").click()
        page.wait_for_load_state()
        assert "Следующую партию начинает Alla." in page.locator(".rt-series").inner_text()
        assert services.next_first_attacker(q) == 1
        page.screenshot(path=str(screenshot_dir / f"ratings-series-{size}.png"), full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("mobile", [False, True], ids=["desktop", "phone"])
def test_a_full_club_marks_its_last_place_as_the_candidate_for_elimination(transactional_db, asgi_live_server,
                                                                          browser, screenshot_dir, mobile):
    from ratings_factories import make_table as table_for

    from lobby.models import Seat

    pairs = {"pairs": True}
    for k, second in enumerate(({"losers": [2, 4], "winners": [1, 3]}, {"losers": [1, 3], "winners": [2, 4]},
                                {"draw": True})):
        q = table_for(series_length=2, rules=pairs)
        ps = [make_player(f"{name}{k}") for name in ("Anton", "Boris", "Vlad", "Grisha")]
        for n, p in enumerate(ps, start=1):
            Seat.objects.create(table=q, number=n, player=p)
        for result in ({"losers": [2, 4], "winners": [1, 3]}, second):
            services.record_game_result(finished_game_row(q, ps, result, rules=pairs))
    newbie = make_player("Novichok")
    solo = table_for(series_length=30, rules=pairs)
    services.record_game_result(finished_game_row(solo, [newbie, "heuristic", "heuristic", "heuristic"],
                                                  {"losers": [2, 4], "winners": [1, 3]}, rules=pairs))
    context = login_browser_context(browser, asgi_live_server, newbie, mobile=mobile)
    page = context.new_page()
    try:
        page.goto("/ratings/club/")
        rows = page.locator("table.rt-club tbody tr")
        assert rows.count() == 10
        last = rows.nth(9)
        assert "Novichok" in last.inner_text() and "кандидат на выбывание" in last.inner_text()
        assert "новичок" in last.inner_text() and "me" in (last.get_attribute("class") or "")
        assert page.locator(".rt-tag.candidate").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"] + 1
        page.screenshot(path=str(screenshot_dir / f"ratings-club-full-{'phone' if mobile else 'desktop'}.png"),
                        full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("mobile", [True, False], ids=["phone", "desktop"])
def test_a_link_to_a_position_opens_the_replay_at_the_board(transactional_db, asgi_live_server, browser,
                                                            screenshot_dir, mobile):
    """The analysis' marks link to #step-K: the page opens with the board in sight, clear of the key
    reminder's sheet (a new player has not saved his recovery key yet)."""
    people = [make_player(n) for n in ("Nina", "Oleg")]
    game = play_finished_game(make_table(seats_count=2), people, seed=6)
    services.record_game_result(game)
    context = login_browser_context(browser, asgi_live_server, people[0], mobile=mobile)
    page = context.new_page()
    try:
        page.goto(f"/ratings/games/{game.pk}/#step-9")
        page.wait_for_function("document.querySelector('.rp-pos').textContent.startsWith('Шаг 9')")
        page.wait_for_timeout(300)
        vh = page.viewport_size["height"]
        sheet = page.evaluate("(() => { const s = document.querySelector('.key-sheet:not([hidden])');"
                              " return s ? s.getBoundingClientRect().top : null; })()")
        bottom = sheet if sheet is not None else vh
        controls = page.locator(".rp-controls").bounding_box()
        board = page.locator(".rp-board").bounding_box()
        header = page.locator(".site-header").bounding_box()
        assert controls["y"] >= header["y"] + header["height"] - 1, (controls, header)  # not under the header
        if mobile:  # the page opens at the replay, not at its top (a desktop shows it all at once)
            assert controls["y"] <= header["y"] + header["height"] + 40, controls
        assert board["y"] + 120 <= bottom, (board, bottom)  # the first seat's hand is in sight
        page.screenshot(path=str(screenshot_dir / f"ratings-replay-at-step-{'phone' if mobile else 'desktop'}.png"))
    finally:
        context.close()
