"""What a player reads at the table, on the harness's sample frames: card names in the page's
language, the move log, cheater mode's notices, moves the clock or a bot made, the phone layout.
"""

from __future__ import annotations

import copy

import pytest

from tests.game.test_table_ui_harness import SAMPLES, harness, new_page, open_sample  # noqa: F401

pytestmark = [pytest.mark.browser]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def receive(page, frame: dict) -> None:
    page.evaluate("(f) => window.__table.receive(f)", frame)


def sample_frame(page) -> dict:
    return copy.deepcopy(page.evaluate("window.__table.frame || null") or {})


@pytest.mark.parametrize("lang, face, spoken, short", [
    ("ru", "Д", "дама треф", "Д♣"),
    ("en", "Q", "queen of clubs", "Q♣"),
])
def test_cards_are_named_in_the_pages_language(browser, harness, lang, face, spoken, short):  # noqa: F811
    context, page = new_page(browser, harness, locale="ru-RU" if lang == "ru" else "en-US",
                             extra_http_headers={"Accept-Language": lang})
    try:
        open_sample(page, harness, "podkidnoy4")
        queen = page.locator("#g-hand .card[data-card='QC']")
        assert queen.get_attribute("aria-label") == spoken
        assert queen.locator(".corner.tl b").inner_text() == face
        labels = page.evaluate("""async () => {
            const c = await import("/static/game/cards.js");
            return [c.label("QC"), c.cardName("AH"), c.cardName("10S"), c.label("JD"), c.label("KS")];
        }""")
        if lang == "ru":
            assert labels == [short, "туз червей", "10 пик", "В♦", "К♠"]
        else:
            assert labels == [short, "ace of hearts", "10 of spades", "J♦", "K♠"]
    finally:
        context.close()
    assert not page.errors, page.errors


def frame_of(name: str) -> dict:
    return copy.deepcopy(SAMPLES[name]["frame"])


def step(page, f: dict, **view) -> dict:
    """The next frame: `f` one version on, with `view` fields changed."""
    f = copy.deepcopy(f)
    f["version"] += 1
    f["view"].update(view)
    receive(page, f)
    return f


def toast_text(page) -> str:
    page.wait_for_selector("#g-toast:not([hidden])")
    return page.inner_text("#g-toast")


def test_a_catch_is_told_with_who_caught_whom_and_kept_in_the_log(browser, harness, screenshot_dir):  # noqa: F811
    context, page = new_page(browser, harness, **PHONE)
    try:
        open_sample(page, harness, "cheater_check")
        assert page.is_visible("#g-cheater-sign") and "Шулер" in page.inner_text("#g-cheater-sign")
        f = frame_of("cheater_check")
        f["deadline"] = None
        f = step(page, f, last={"seat": 3, "type": "catch", "card": "JD", "cheater": 2, "caught": True},
                 table=[], phase="play")
        text = toast_text(page)
        assert text == "Вы ловите шулера: Коля, карта В♦ — Коля забирает все карты со стола", text
        page.screenshot(path=str(screenshot_dir / "table_ui_catch_notice_phone.png"))
        f = step(page, f, last={"seat": 2, "type": "catch", "card": "9S", "cheater": None, "caught": False,
                                "penalty": True})
        assert toast_text(page) == "Коля: ложное обвинение — карта 9♠ честная, штрафная карта"
        log = page.evaluate("window.__table.log")
        assert log[-2:] == [text, "Коля: ложное обвинение — карта 9♠ честная, штрафная карта"], log
        assert page.locator("#g-log-list li.log-catch").count() == 2
    finally:
        context.close()
    assert not page.errors, page.errors


def test_the_move_log_keeps_quick_moves_and_opens(browser, harness, screenshot_dir):  # noqa: F811
    context, page = new_page(browser, harness, **PHONE)
    try:
        open_sample(page, harness, "podkidnoy4")
        f = frame_of("podkidnoy4")
        moves = [{"seat": 3, "type": "attack", "card": "7C"}, {"seat": 4, "type": "attack", "card": "10D"},
                 {"seat": 2, "type": "defend", "card": "QC", "target": "10C"},
                 {"seat": 1, "type": "pass"}, {"seat": 3, "type": "pass", "closed": "bito"}]
        for last in moves:
            f = step(page, f, last=last)
        log = page.evaluate("window.__table.log")
        assert log[-6:] == ["Бот Петрович: ход 7♣", "Бот Сёма: ход 10♦", "Вы побили 10♣ картой Д♣",
                            "Вася: «Пас»", "Бот Петрович: «Пас»", "Бито: карты ушли в отбой"], log
        f = step(page, f, last={"seat": 1, "type": "attack", "card": "9C"}, defender=3)
        step(page, f, last={"seat": 3, "type": "take", "closed": "take"}, defender=4)
        assert page.evaluate("window.__table.log").pop() == "Бот Петрович забирает карты"
        assert page.locator("#g-log-list li").count() == 3  # folded: the last few
        page.screenshot(path=str(screenshot_dir / "table_ui_move_log_folded_phone.png"))
        page.click("#g-log-toggle")
        assert page.locator("#g-log-list li").count() == len(page.evaluate("window.__table.log"))
        assert page.get_attribute("#g-log-toggle", "aria-expanded") == "true"
        page.screenshot(path=str(screenshot_dir / "table_ui_move_log_open_phone.png"))
        page.keyboard.press("Escape")
        assert page.locator("#g-log-list li").count() == 3
    finally:
        context.close()
    assert not page.errors, page.errors


def test_a_move_the_clock_made_is_told_as_the_clocks(browser, harness):  # noqa: F811
    context, page = new_page(browser, harness)
    try:
        open_sample(page, harness, "podkidnoy4")  # seat 2 defends, his turn
        f = frame_of("podkidnoy4")
        f["deadline"] = page.evaluate("new Date(Date.now() - 500).toISOString()")
        f.pop("deadline_in", None)
        f = step(page, f)
        f["deadline"] = None
        step(page, f, last={"seat": 2, "type": "take"}, took=True, turn=[1])
        assert toast_text(page) == "Время вышло: вы берёте карты"
        assert page.evaluate("window.__table.log").pop() == "Время вышло: вы берёте карты"
    finally:
        context.close()
    assert not page.errors, page.errors


def test_his_own_move_is_his_not_the_clocks(browser, harness):  # noqa: F811
    context, page = new_page(browser, harness)
    try:
        open_sample(page, harness, "podkidnoy4")
        page.click("#g-controls button[data-kind='take']")
        page.wait_for_function("window.__table.sent.length > 0")
        f = frame_of("podkidnoy4")
        step(page, f, last={"seat": 2, "type": "take"}, took=True, turn=[1])
        assert page.evaluate("window.__table.log").pop() == "Вы берёте"
    finally:
        context.close()
    assert not page.errors, page.errors


def test_takeovers_are_told_to_the_others_and_to_the_one_who_returns(browser, harness):  # noqa: F811
    context, page = new_page(browser, harness)
    try:
        open_sample(page, harness, "podkidnoy4")
        f = frame_of("podkidnoy4")
        f["seats"][0].update(bot=True, takeover=True, bot_level="amateur")
        f = step(page, f)
        f["seats"][0].update(bot=False, takeover=False, bot_level="")
        f = step(page, f)
        log = page.evaluate("window.__table.log")
        assert log[-2:] == ["Вася — нет связи: за это место играет бот", "Вася — снова за столом"], log
        since = page.evaluate("new Date(Date.now() - 129000).toISOString()")
        until = page.evaluate("new Date(Date.now() - 1000).toISOString()")
        f["bot_played"] = {"since": since, "until": until, "moves": 4}
        step(page, f)
        assert toast_text(page) == "Пока вас не было, за вас играл бот: 2 мин 8 с, ходов: 4."
    finally:
        context.close()
    assert not page.errors, page.errors


def test_the_result_says_the_order_players_went_out_and_offers_to_play_again(browser, harness):  # noqa: F811
    context, page = new_page(browser, harness)
    try:
        open_sample(page, harness, "result")
        page.wait_for_selector("#g-result:not([hidden])")
        assert page.inner_text("#g-result-order") == "Порядок выхода: 1. Маша, 2. Вася, 3. Бот Петрович"
    finally:
        context.close()
    assert not page.errors, page.errors


def test_a_phone_gets_a_compact_bar_no_key_list_and_the_discard_label_in_sight(browser, harness,  # noqa: F811
                                                                               screenshot_dir):
    context, page = new_page(browser, harness, **PHONE)
    try:
        open_sample(page, harness, "six")
        header = page.locator(".site-header").bounding_box()
        assert header["height"] <= 56, header  # was 96 px: the table's own bar has «Выйти» and the menu
        page.click("#g-menu-btn")
        assert not page.locator("#g-keys").is_visible()  # keyboard shortcuts mean nothing on a touch screen
        page.click("#g-menu-btn")
        label = page.locator("#g-discard .deck-info .lbl").bounding_box()
        pile = [page.locator("#g-discard .dpile .card").nth(i).bounding_box()
                for i in range(page.locator("#g-discard .dpile .card").count())]
        for card in pile:  # «Бито» is not under a card of the pile
            assert label["y"] >= card["y"] + card["height"] - 2 or label["x"] >= card["x"] + card["width"], (label, card)
        me = page.locator("#g-mypod .pod-nick")
        assert me.evaluate("e => e.scrollWidth <= e.clientWidth")  # his own name is not cut
        page.screenshot(path=str(screenshot_dir / "table_ui_phone_compact_bar.png"))
    finally:
        context.close()
    assert not page.errors, page.errors


def test_the_result_says_who_asked_for_a_rematch(browser, harness):  # noqa: F811
    context, page = new_page(browser, harness)
    try:
        open_sample(page, harness, "result")
        page.wait_for_selector("#g-result:not([hidden])")
        assert page.inner_text("#g-rematch-who") == ""
        page.evaluate("""async () => {
            const { S } = await import("/static/game/state.js");
            const { updateRematchInfo } = await import("/static/game/result.js");
            S.rematchReady = ["Маша", "Вася"];
            S.rematchDeadline = Date.now() + 20000;
            updateRematchInfo();
        }""")
        assert page.inner_text("#g-rematch-who") == "Сыграть ещё хотят: Маша, Вася"
    finally:
        context.close()
    assert not page.errors, page.errors
