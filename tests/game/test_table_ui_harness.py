"""The browser table client on fixed sample frames (the DEBUG harness at /games/dev/table/).

No socket here: the page is fed one hard-coded frame, moves the player makes are collected in
`window.__table.sent`, and a test can push server frames with `window.__table.receive(...)`.
These pin the client's behaviour (hints, two-tap moves, confirmations, refusals, keyboard, drag
and drop, result screens, phone layout) independently of the game server.
"""

from __future__ import annotations

import json
import mimetypes
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.contrib.staticfiles import finders

from game.views import load_samples

SAMPLES = load_samples()
ORIGIN = "http://harness.test"


@pytest.fixture
def harness(settings, client):
    """The harness pages served by Django's test client through Playwright routing: no live server
    and no database are needed (an anonymous page), so these tests are quick."""
    settings.DEBUG = True  # the harness view exists only with DEBUG (404 otherwise)

    def handle(route, request):
        parts = urlsplit(request.url)
        if parts.path.startswith(settings.STATIC_URL):
            found = finders.find(parts.path[len(settings.STATIC_URL):])
            if not found:
                route.fulfill(status=404, body="")
                return
            ctype = mimetypes.guess_type(found)[0] or "application/octet-stream"
            if found.endswith(".js"):
                ctype = "text/javascript"
            route.fulfill(status=200, body=Path(found).read_bytes(), headers={"Content-Type": ctype})
            return
        lang = request.headers.get("accept-language", "ru")
        response = client.get(parts.path + (f"?{parts.query}" if parts.query else ""), HTTP_ACCEPT_LANGUAGE=lang)
        route.fulfill(status=response.status_code, body=response.content,
                      headers={"Content-Type": response.get("Content-Type", "text/html")})

    return ORIGIN, handle


def new_page(browser, harness, **options):
    origin, handle = harness
    options.setdefault("viewport", {"width": 1280, "height": 860})
    options.setdefault("locale", "ru-RU")
    context = browser.new_context(bypass_csp=True, **options)
    context.route(f"{origin}/**", handle)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return context, page


@pytest.fixture
def page(browser, harness):
    context, page = new_page(browser, harness)
    yield page
    context.close()
    assert not page.errors, page.errors


def open_sample(page, harness, name: str, query: str = "") -> None:
    page.goto(f"{harness[0]}/games/dev/table/?sample={name}{query}")
    page.wait_for_function("document.getElementById('game').dataset.state !== 'loading'")


def sent(page) -> list[dict]:
    return page.evaluate("window.__table.sent.map(m => m.action)")


def hand_classes(page) -> dict[str, str]:
    return page.evaluate("""Object.fromEntries([...document.querySelectorAll('#g-hand .card')]
        .map(e => [e.dataset.card, e.className]))""")


def toast(page) -> str:
    page.wait_for_selector("#g-toast:not([hidden])")
    return page.inner_text("#g-toast")


def set_switch(page, name: str, on: bool) -> None:
    page.click("#g-menu-btn")
    box = page.locator(f"#opt-{name}")
    if box.is_checked() != on:
        page.click(f"label:has(#opt-{name})")
    page.click("#g-menu-btn")
    assert box.is_checked() == on


def test_the_dev_harness_is_not_served_without_debug(client, settings):
    settings.DEBUG = False
    assert client.get("/games/dev/table/").status_code == 404


@pytest.mark.parametrize("name", list(SAMPLES))
def test_every_sample_renders_from_its_view(page, harness, screenshot_dir: Path, name):
    open_sample(page, harness, name)
    view = SAMPLES[name]["frame"]["view"]
    page.wait_for_timeout(600)  # let the entry transitions settle for the screenshot
    page.screenshot(path=str(screenshot_dir / f"table_ui_sample_{name}.png"))
    # own hand: every card, nothing else; opponents: one pod per other seat
    cards = page.eval_on_selector_all("#g-hand .card", "els => els.map(e => e.dataset.card)")
    assert sorted(cards) == sorted(view["hand"])
    others = view["players"] - (0 if view["seat"] is None else 1)
    assert page.locator("#g-seats .pod").count() == others
    assert page.locator("#g-battle .pair").count() == len(view["table"])
    assert page.locator("#g-battle .card.def").count() == sum(1 for p in view["table"] if p["defense"])
    # no dead buttons: every control is backed by a legal action
    kinds = set(page.eval_on_selector_all("#g-controls button", "els => els.map(e => e.dataset.kind)"))
    legal = {a["type"] for a in view["legal"]}
    expected = {k for k, t in (("take", "take"), ("pass", "pass"), ("transfer", "transfer"), ("catch", "catch"),
                               ("swap", "swap_trump")) if t in legal}
    assert kinds == expected


def test_hand_is_sorted_by_suit_and_rank_with_trumps_last(page, harness):
    open_sample(page, harness, "six")  # trump ♦
    cards = page.eval_on_selector_all("#g-hand .card", "els => els.map(e => e.dataset.card)")
    assert cards == ["6S", "7S", "JS", "AS", "6C", "10C", "QC", "7H", "9H", "QH", "8D", "KD"]


def test_status_line_says_whose_turn_and_what_is_awaited(page, harness):
    expectations = {
        "podkidnoy4": "Отбивайтесь",
        "lead2": "Ваш ход",
        "bito": "Подкидывайте или «Бито»",
        "throw_in": "Подкидывайте или «Пас»",
        "perevodnoy": "Отбивайтесь или переводите",
        "six": "Ждём: Бот Сёма",
        "spectator": "Ждём: Бот Сёма",
    }
    for name, text in expectations.items():
        open_sample(page, harness, name)
        assert page.inner_text("#g-turn") == text, name


def test_hints_on_raise_playable_cards_dim_the_rest_and_light_beatable_table_cards(page, harness):
    open_sample(page, harness, "podkidnoy4")
    classes = hand_classes(page)
    view = SAMPLES["podkidnoy4"]["frame"]["view"]
    playable = {a["card"] for a in view["legal"] if "card" in a}
    for card, cls in classes.items():
        assert ("playable" in cls) == (card in playable), card
        assert ("dim" in cls) == (card not in playable), card
    beatable = page.eval_on_selector_all("#g-battle .card.beatable", "els => els.map(e => e.dataset.card)")
    assert sorted(beatable) == ["10C", "7D"]
    assert "Побейте" in page.inner_text("#g-hint")


def test_a_card_with_one_use_is_played_with_one_tap_when_hints_are_on(page, harness):
    open_sample(page, harness, "podkidnoy4")
    page.click("#g-hand .card[data-card='8D']")  # 8♦ can only beat 7♦
    assert sent(page) == [{"type": "defend", "card": "8D", "target": "7D"}]


def test_a_card_with_several_targets_waits_for_the_target(page, harness):
    open_sample(page, harness, "podkidnoy4")
    page.click("#g-hand .card[data-card='6H']")  # trump 6♥ beats 10♣ and 7♦
    assert sent(page) == []
    targets = page.eval_on_selector_all("#g-battle .card.target", "els => els.map(e => e.dataset.card)")
    assert sorted(targets) == ["10C", "7D"]
    assert "нажмите на карту на столе" in page.inner_text("#g-hint").lower()
    page.click("#g-battle .card[data-card='10C']")
    assert sent(page) == [{"type": "defend", "card": "6H", "target": "10C"}]


def test_hints_off_nothing_is_highlighted_and_a_move_takes_two_taps(page, harness):
    open_sample(page, harness, "podkidnoy4")
    set_switch(page, "hints", False)
    classes = hand_classes(page)
    assert not any("playable" in c or "dim" in c for c in classes.values())
    assert page.locator("#g-battle .card.beatable").count() == 0
    # one use: first tap raises, second tap on the same card plays it
    page.click("#g-hand .card[data-card='8D']")
    assert sent(page) == []
    assert "selected" in hand_classes(page)["8D"]
    page.click("#g-hand .card[data-card='8D']")
    assert sent(page) == [{"type": "defend", "card": "8D", "target": "7D"}]
    # the switch is remembered by this browser
    open_sample(page, harness, "podkidnoy4")
    assert page.get_attribute("#game", "data-hints") == "off"
    assert not page.locator("#opt-hints").is_checked()


def test_hints_off_second_tap_on_the_table_card_chooses_the_target(page, harness):
    open_sample(page, harness, "podkidnoy4")
    set_switch(page, "hints", False)
    page.click("#g-hand .card[data-card='6H']")
    page.click("#g-hand .card[data-card='6H']")  # two uses: the same card again does not guess
    assert sent(page) == []
    assert "Выберите" in toast(page)
    page.click("#g-battle .card[data-card='7D']")
    assert sent(page) == [{"type": "defend", "card": "6H", "target": "7D"}]


def test_an_unplayable_card_is_explained_before_anything_is_sent(page, harness):
    open_sample(page, harness, "podkidnoy4")
    page.click("#g-hand .card[data-card='JS']")
    assert toast(page) == "Карта В♠ не бьёт ни одну карту на столе"
    assert sent(page) == []
    open_sample(page, harness, "throw_in")
    page.click("#g-hand .card[data-card='JS']")
    assert toast(page) == "Подкидывать можно только достоинства, которые есть на столе: 6, 9"
    open_sample(page, harness, "six")
    page.click("#g-hand .card[data-card='7S']")
    assert toast(page).startswith("Сейчас не ваш ход") or "Сначала" in toast(page)
    assert sent(page) == []


def test_a_refused_move_shakes_the_card_and_says_why(page, harness, screenshot_dir: Path):
    open_sample(page, harness, "podkidnoy4")
    page.click("#g-hand .card[data-card='8D']")
    msg_id = page.evaluate("window.__table.sent[0].id")
    shaking = page.evaluate("""id => {
        window.__table.receive({type: 'error', id, code: 'does_not_beat', message: 'x'});
        return document.querySelector("#g-hand .card[data-card='8D']").classList.contains('shake');
    }""", msg_id)
    assert shaking
    assert toast(page) == "Карта 8♦ не бьёт 7♦"  # the server refused it: the toast names both cards
    page.screenshot(path=str(screenshot_dir / "table_ui_refused_move.png"))


def test_quick_moves_off_a_move_waits_for_confirm(page, harness):
    open_sample(page, harness, "podkidnoy4")
    set_switch(page, "quick", False)
    page.click("#g-hand .card[data-card='8D']")
    assert sent(page) == []
    assert page.inner_text("#g-hint") == "Подтвердите: побить 7♦ картой 8♦"
    page.click("#g-controls button[data-kind='confirm']")
    assert sent(page) == [{"type": "defend", "card": "8D", "target": "7D"}]


def test_buttons_and_keyboard_shortcuts(page, harness):
    open_sample(page, harness, "podkidnoy4")
    assert page.inner_text("#g-controls button[data-kind='take']").startswith("Беру")
    page.keyboard.press("t")
    assert sent(page) == [{"type": "take"}]
    open_sample(page, harness, "bito")
    assert page.inner_text("#g-controls button[data-kind='pass']").startswith("Бито")
    page.keyboard.press("b")
    assert sent(page) == [{"type": "pass"}]
    # arrows pick a card (visible focus), Enter plays it
    open_sample(page, harness, "lead2")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.card")
    assert focused == page.eval_on_selector_all("#g-hand .card", "els => els[1].dataset.card") or focused
    page.keyboard.press("Enter")
    assert sent(page) == [{"type": "attack", "card": focused}]


def test_transfer_button_and_table_tap(page, harness):
    open_sample(page, harness, "perevodnoy")
    page.click("#g-controls button[data-kind='transfer']")  # one transfer card: 8♥
    assert sent(page) == [{"type": "transfer", "card": "8H"}]


def test_drag_a_card_onto_the_attack_card_it_beats(page, harness):
    open_sample(page, harness, "podkidnoy4")
    src = page.locator("#g-hand .card[data-card='6H']").bounding_box()
    dst = page.locator("#g-battle .card[data-card='7D']").bounding_box()
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + 20)
    page.mouse.down()
    for k in range(1, 11):
        page.mouse.move(src["x"] + src["width"] / 2 + (dst["x"] + dst["width"] / 2 - src["x"] - src["width"] / 2) * k / 10,
                        src["y"] + 20 + (dst["y"] + dst["height"] / 2 - src["y"] - 20) * k / 10)
    page.mouse.up()
    assert sent(page) == [{"type": "defend", "card": "6H", "target": "7D"}]


def test_cheater_check_phase_catch(page, harness):
    open_sample(page, harness, "cheater_check")
    assert page.inner_text("#g-turn") == "Проверка: поймайте шулера или ждите"
    page.click("#g-battle .card[data-card='8S']")
    assert sent(page) == []
    page.click("#g-controls button[data-kind='catch']")
    assert sent(page) == [{"type": "catch", "card": "8S"}]


def test_spectators_see_no_hand_and_no_controls(page, harness):
    open_sample(page, harness, "spectator")
    assert page.locator("#g-hand .card").count() == 0
    assert page.locator("#g-controls button").count() == 0
    assert page.locator("#g-seats .pod").count() == 4


@pytest.mark.parametrize("name, main", [
    ("result", "Дурак — Бот Сёма"),
    ("result_me", "Вы — дурак!"),
    ("result_pairs", "Ваша пара проиграла"),
    ("result_draw", "Ничья!"),
    ("result_left", "Дурак — Коля"),
])
def test_result_screen_for_everyone(page, harness, name, main):
    open_sample(page, harness, name)
    page.wait_for_selector("#g-result:not([hidden])")
    assert page.inner_text("#g-result-main") == main
    assert page.locator("#g-controls button").count() == 0
    if name == "result_left":
        assert page.inner_text("#g-result-reason") == "Причина: выход из партии (Коля)"
        # the list says what happened to him, not «дурак» (and never a red "1.")
        assert page.inner_text("#g-result-list li[data-seat='2'] .o-what") == "выход из игры"


def test_english_table(browser, harness):
    context, page = new_page(browser, harness, locale="en-US", extra_http_headers={"Accept-Language": "en"})
    open_sample(page, harness, "podkidnoy4")
    assert page.inner_text("#g-turn") == "Defend"
    assert page.inner_text("#g-controls button[data-kind='take']").startswith("Take")
    context.close()


def test_phone_portrait_layout(browser, harness, screenshot_dir: Path):
    context, page = new_page(browser, harness, viewport={"width": 390, "height": 844}, device_scale_factor=2,
                             is_mobile=True, has_touch=True)
    for name in ("podkidnoy4", "six", "perevodnoy", "result"):
        open_sample(page, harness, name)
        page.wait_for_timeout(600)
        page.screenshot(path=str(screenshot_dir / f"table_ui_phone_{name}.png"))
        # the table fits the phone: seats, stock, discard and controls are on screen; the hand may
        # scroll inside its own strip
        assert page.evaluate("document.getElementById('game').getBoundingClientRect().right") <= 390
        outside = page.evaluate("""[...document.querySelectorAll('.pod, #g-deck, #g-discard, #g-controls button')]
            .filter(e => { const r = e.getBoundingClientRect(); return r.left < -2 || r.right > 392; })
            .map(e => e.id || e.className)""")
        assert outside == [], (name, outside)
        for card in SAMPLES[name]["frame"]["view"]["hand"]:
            box = page.locator(f"#g-hand .card[data-card='{card}']").bounding_box()
            assert box is not None and box["y"] + box["height"] <= 844 + 1, (name, card)
    # a tap plays on a phone too
    open_sample(page, harness, "podkidnoy4")
    page.tap("#g-hand .card[data-card='8D']")
    assert sent(page) == [{"type": "defend", "card": "8D", "target": "7D"}]
    context.close()


def test_samples_file_is_valid_json():
    raw = (Path(__file__).resolve().parents[2] / "game/templates/game/dev/samples.json").read_text("utf-8")
    assert json.loads(raw)
