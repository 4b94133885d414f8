"""The table client on phones and in its hard states, on harness frames (no server):
big hands stay on screen and readable, «Вы» has its own grammar, an away seat shows the 15 s
notice with the takeover countdown, the result dialog shows outcomes and ratings."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from game.views import load_samples
from tests.game.test_table_ui_harness import harness, new_page, open_sample  # noqa: F401

SAMPLES = load_samples()
DECK = [r + s for s in "SDCH" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
NICKS = ["Вася", "Маша", "Бот Петрович", "Бот Сёма", "Константин Константинопольский", "Оля"]


def big_hand_frame(cards: int, players: int) -> dict:
    """A defending seat 2 holding `cards` cards at a table of `players` (the podkidnoy4 sample)."""
    f = copy.deepcopy(SAMPLES["podkidnoy4"]["frame"])
    v = f["view"]
    on_table = {c for p in v["table"] for c in (p["attack"], p["defense"]) if c}
    v["hand"] = [c for c in DECK if c not in on_table and c != v["trump_card"]][:cards]
    v["players"] = players
    v["hand_counts"] = {str(n): 6 for n in range(1, players + 1)} | {"2": cards}
    v["legal"] = [{"type": "take"}]
    v["attacker"] = 1
    f["seats"] = [{"number": n, "nick": NICKS[n - 1], "bot": "Бот" in NICKS[n - 1], "connected": True,
                   "left": False} for n in range(1, players + 1)]
    f["version"] = 100
    f.pop("deadline_in", None)
    return f


def receive(page, frame: dict) -> None:
    page.evaluate("f => window.__table.receive(f)", frame)


PHONES = {"portrait": {"width": 390, "height": 844}, "landscape": {"width": 844, "height": 390}}


@pytest.mark.parametrize("orientation", list(PHONES))
@pytest.mark.parametrize("cards, players", [(6, 2), (12, 4), (20, 6), (20, 2), (12, 3), (20, 5)])
def test_every_card_of_a_big_hand_is_on_screen_and_its_index_readable(browser, harness, screenshot_dir: Path,  # noqa: F811
                                                                       orientation, cards, players):
    vp = PHONES[orientation]
    context, page = new_page(browser, harness, viewport=vp, device_scale_factor=2, is_mobile=True, has_touch=True)
    open_sample(page, harness, "podkidnoy4")
    frame = big_hand_frame(cards, players)
    receive(page, frame)
    page.wait_for_timeout(500)  # the fan's transitions
    page.screenshot(path=str(screenshot_dir / f"table_ui_phone_{orientation}_{cards}cards_{players}p.png"))
    for card in frame["view"]["hand"]:
        box = page.locator(f"#g-hand .card[data-card='{card}']").bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["y"] >= 0, (card, box)
        assert box["x"] + box["width"] <= vp["width"] and box["y"] + box["height"] <= vp["height"], (card, box)
    # each card's top-left corner (its rank and suit) is not covered by another card
    covered = page.evaluate("""() => [...document.querySelectorAll('#g-hand .card')].filter(el => {
        const r = el.querySelector('.corner.tl').getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !hit || hit.closest('.card') !== el;
    }).map(el => el.dataset.card)""")
    assert covered == []
    outside = page.evaluate("""vp => [...document.querySelectorAll('.pod, #g-deck, #g-discard, #g-controls button')]
        .filter(e => { const r = e.getBoundingClientRect(); return r.left < -1 || r.right > vp.width + 1 || r.bottom > vp.height + 1; })
        .map(e => e.id || e.className)""", vp)
    assert outside == []
    assert page.evaluate("document.scrollingElement.scrollWidth") <= vp["width"]
    context.close()
    assert not page.errors, page.errors


def last_move_line(page, frame: dict, seat: int, kind: str, **fields) -> str:
    f = copy.deepcopy(frame)
    f["version"] += 1
    f["view"].update(turn=[1], legal=[], last={"seat": seat, "type": kind, **fields})
    receive(page, f)
    return page.inner_text("#g-hint")


@pytest.mark.parametrize("lang, you, other", [
    ("ru", {
        "defend": "Вы побили 7♦ картой 8♦", "take": "Вы берёте", "attack": "Вы сыграли 8♦",
        "transfer": "Вы перевели, показав козырь 8♦", "swap_trump": "Вы поменяли козырь",
    }, {
        "defend": "Вася: 7♦ побита картой 8♦", "take": "Вася берёт", "attack": "Вася: ход 8♦",
        "transfer": "Вася: перевод, показан козырь 8♦", "swap_trump": "Вася: козырь обменян",
    }),
    ("en", {
        "defend": "You beat 7♦ with 8♦", "take": "You take", "attack": "You played 8♦",
        "transfer": "You transferred by showing the trump 8♦", "swap_trump": "You swapped the trump",
    }, {
        "defend": "Вася beat 7♦ with 8♦", "take": "Вася takes", "attack": "Вася played 8♦",
        "transfer": "Вася transferred by showing the trump 8♦", "swap_trump": "Вася swapped the trump",
    }),
])
def test_the_last_move_line_agrees_with_you_and_with_a_third_person(browser, harness, lang, you, other):  # noqa: F811
    context, page = new_page(browser, harness, locale=f"{lang}-{lang.upper()}",
                             extra_http_headers={"Accept-Language": lang})
    open_sample(page, harness, "podkidnoy4")
    frame = SAMPLES["podkidnoy4"]["frame"]
    for seat, expected in ((2, you), (1, other)):
        for kind, text in expected.items():
            fields = {"card": "8D"}
            if kind == "defend":
                fields["target"] = "7D"
            if kind == "transfer":
                fields["show"] = True
            assert last_move_line(page, frame, seat, kind, **fields) == text, (seat, kind)
    context.close()


def iso_in(seconds: float) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()


def test_an_away_seat_is_marked_after_the_server_says_so_with_a_takeover_countdown(browser, harness, screenshot_dir):  # noqa: F811
    context, page = new_page(browser, harness, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    open_sample(page, harness, "podkidnoy4")
    frame = copy.deepcopy(SAMPLES["podkidnoy4"]["frame"])
    frame.pop("deadline_in", None)
    frame["version"] = 30
    frame["seats"][0]["connected"] = False  # a socket blink: not yet 15 s
    receive(page, frame)
    pod = "#g-seats .pod[data-seat='1']"
    assert "нет связи" not in page.inner_text(pod)
    frame["version"] = 31
    frame["seats"][0].update(away=True, takeover_at=iso_in(60))
    receive(page, frame)
    badges = page.inner_text(f"{pod} .pod-badges")
    assert "нет связи" in badges
    first = page.inner_text(f"{pod} .b-countdown")
    assert first in [f"бот через {s} с" for s in (58, 59, 60, 61)], first
    page.wait_for_timeout(2300)
    later = int(page.inner_text(f"{pod} .b-countdown").split()[2])
    assert later <= int(first.split()[2]) - 2
    page.screenshot(path=str(screenshot_dir / "table_ui_away_takeover.png"))
    frame["version"] = 32
    frame["seats"][0].update(takeover_at=None, lose_at=iso_in(25))
    receive(page, frame)
    assert page.inner_text(f"{pod} .b-countdown") in [f"поражение через {s} с" for s in (23, 24, 25, 26)]
    frame["version"] = 33
    frame["seats"][0].update(away=False, connected=True, lose_at=None)
    receive(page, frame)
    assert page.locator(f"{pod} .b-countdown").count() == 0
    assert "нет связи" not in page.inner_text(pod)
    context.close()
    assert not page.errors, page.errors


def test_the_result_shows_each_outcome_the_rating_change_and_updates_the_header(browser, harness, screenshot_dir):  # noqa: F811
    context, page = new_page(browser, harness)
    open_sample(page, harness, "podkidnoy4")
    page.evaluate("""() => { const s = document.createElement('span'); s.id = 'site-rating';
        s.innerHTML = '<span data-rating-value>1000</span>'; document.body.prepend(s); }""")
    frame = copy.deepcopy(SAMPLES["podkidnoy4"]["frame"])
    frame.pop("deadline_in", None)
    frame["version"] = 40
    frame["view"].update(phase="over", turn=[], legal=[], result={
        "loser": 1, "losers": [1], "winners": [2, 3], "draw": False, "reason": "leave"})
    frame["result"] = {"rated": True, "unrated_reason": "", "outcomes": [
        {"seat": 1, "outcome": "left", "rating_change": -15, "rating_after": 985},
        {"seat": 2, "outcome": "won", "rating_change": 15, "rating_after": 1015},
        {"seat": 3, "outcome": "won", "rating_change": None, "rating_after": None},
        {"seat": 4, "outcome": "durak", "rating_change": None, "rating_after": None},
    ]}
    receive(page, frame)
    page.wait_for_selector("#g-result:not([hidden])")
    rows = page.eval_on_selector_all("#g-result-list li", "els => els.map(e => e.innerText.replace(/\\s+/g, ' ').trim())")
    assert rows[0] == "Маша (Вы) не дурак +15 → 1015"
    assert "Вася выход из игры −15 → 985" in rows
    assert any(r.startswith("Бот Сёма дурак") for r in rows)
    assert page.inner_text("#site-rating") == "1015"
    page.wait_for_timeout(2500)  # the «Дурак!» / well-played moment is over
    page.screenshot(path=str(screenshot_dir / "table_ui_result_outcomes.png"))
    # an unrated game says why, and shows no ± figures
    frame["version"] = 41
    frame["result"] = {"rated": False, "unrated_reason": "bots", "outcomes": frame["result"]["outcomes"]}
    open_sample(page, harness, "podkidnoy4")
    receive(page, frame)
    page.wait_for_selector("#g-result:not([hidden])")
    assert page.inner_text("#g-result-rated") == "Без рейтинга: за столом боты"
    assert "→" not in page.inner_text("#g-result-list")
    context.close()
    assert not page.errors, page.errors


def test_the_result_fits_a_phone_held_sideways_and_its_buttons_are_reachable(browser, harness, screenshot_dir):  # noqa: F811
    context, page = new_page(browser, harness, viewport=PHONES["landscape"], device_scale_factor=2, is_mobile=True,
                             has_touch=True)
    open_sample(page, harness, "podkidnoy4")
    frame = copy.deepcopy(SAMPLES["podkidnoy4"]["frame"])
    frame.pop("deadline_in", None)
    frame["version"] = 40
    frame["view"].update(phase="over", turn=[], legal=[], result={
        "loser": 4, "losers": [4], "winners": [1, 2, 3], "draw": False, "reason": "durak"})
    frame["result"] = {"rated": True, "unrated_reason": "", "outcomes": [
        {"seat": n, "outcome": "durak" if n == 4 else "won", "rating_change": 10, "rating_after": 1010}
        for n in range(1, 5)]}
    receive(page, frame)
    page.wait_for_selector("#g-result:not([hidden])")
    page.wait_for_timeout(2500)  # the «Дурак!» moment is over
    top, bottom, height = page.eval_on_selector(
        ".g-result-card", "e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, innerHeight]; }")
    assert top >= 0 and bottom <= height, (top, bottom, height)  # the whole card is on the screen
    back = page.locator("#g-to-lobby")
    back.scroll_into_view_if_needed()
    b_top, b_bottom = page.eval_on_selector("#g-to-lobby", "e => [e.getBoundingClientRect().top, e.getBoundingClientRect().bottom]")
    assert top <= b_top and b_bottom <= bottom  # scrolled to inside the card, not cut off by the screen
    page.screenshot(path=str(screenshot_dir / "table_ui_result_phone_landscape.png"))
    context.close()
    assert not page.errors, page.errors


def test_a_valid_move_clears_the_refusal_message(browser, harness):  # noqa: F811
    context, page = new_page(browser, harness)
    open_sample(page, harness, "podkidnoy4")
    page.click("#g-hand .card[data-card='JS']")
    page.wait_for_selector("#g-toast.error:not([hidden])")
    page.click("#g-hand .card[data-card='8D']")  # one use: beats 7♦ at once
    assert page.locator("#g-toast.error:not([hidden])").count() == 0
    context.close()


def test_a_spectator_is_told_he_is_watching(browser, harness):  # noqa: F811
    context, page = new_page(browser, harness)
    open_sample(page, harness, "spectator")
    assert page.is_visible("#g-watching")
    assert page.inner_text("#g-watching") == "Вы зритель"
    open_sample(page, harness, "podkidnoy4")
    assert not page.is_visible("#g-watching")
    context.close()


def test_samples_carry_server_hints(client, settings):
    settings.DEBUG = True
    html = client.get("/games/dev/table/?sample=throw_in").content.decode()
    start = html.index('id="table-config"')
    cfg = json.loads(html[html.index(">", start) + 1:html.index("</script>", start)])
    assert cfg["harness"]["frame"]["hints"]["JS"] == "rank_not_on_table"
    assert cfg["rematch_seconds"] == 30


def test_the_keyboard_focus_on_a_card_is_obvious(browser, harness, screenshot_dir):  # noqa: F811
    context, page = new_page(browser, harness)
    open_sample(page, harness, "lead2")
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.card")
    assert focused
    style = page.evaluate("""() => { const s = getComputedStyle(document.activeElement);
        return {width: parseFloat(s.outlineWidth), style: s.outlineStyle, lift: s.translate}; }""")
    assert style["style"] == "solid" and style["width"] >= 3, style
    assert style["lift"] not in ("none", "", "0px"), style  # lifted out of the fan
    page.locator("#g-me").screenshot(path=str(screenshot_dir / "table_ui_keyboard_focus.png"))
    context.close()
