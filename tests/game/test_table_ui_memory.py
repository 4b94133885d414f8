"""The memory aid on the live table page (docs/RULES.md#seat-memory): with the table rule on, the cards a player
picked up with «Беру» show at his seat for his opponent (phone and desktop); with it off, nothing
does. A person watches in headless Chromium; the taker's moves go through game.services."""

from __future__ import annotations

import json
import threading

import pytest

from tests.game.test_table_ui_harness import SAMPLES, harness, new_page  # noqa: F401 (a fixture)
from tests.game.test_table_ui_live import (
    choose,
    click_move,
    close,
    make_player,
    open_table,
    start_table,
    version,
    view,
    wait_change,
)

pytestmark = [pytest.mark.timeout(300)]


def _act(game_id: int, player, action: dict, ver: int) -> None:
    """The taker's move through the services, in a thread of its own (Playwright's loop runs in
    this one, and the broadcast after commit must not see it)."""
    from game import services

    failed: list[BaseException] = []

    def move() -> None:
        try:
            services.apply_player_action(game_id, player, ver, f"t{ver}", action)
        except BaseException as exc:  # noqa: BLE001 (raised again in the test's thread)
            failed.append(exc)

    worker = threading.Thread(target=move)
    worker.start()
    worker.join(15)
    assert not worker.is_alive(), "the taker's move did not finish in 15 s"
    if failed:
        raise failed[0]


def _wait_version(page, ver: int) -> None:
    page.wait_for_function(f"window.__table && window.__table.version >= {ver}", timeout=15000)


def _until_a_take_is_picked_up(page, game, taker, taker_seat: int) -> list[str]:
    """Play until the taker has picked up a round: the person plays `choose`, the taker takes
    whenever he defends, leads his lowest card and passes otherwise. Returns the cards he took."""
    from game import engine
    from game.models import Game

    took: list[str] = []
    stuck: list[str] = []
    for _ in range(60):
        # the server's memory, not the frame's: with the aid off the frame carries none
        g = Game.objects.get(pk=game.pk)
        _wait_version(page, g.version)
        v = view(page)
        if v["phase"] == "over":
            break
        if engine.view_for(engine.GameState.from_json(g.state), None)["known"].get(str(taker_seat)) \
                and not v["took"]:
            return took
        ver = version(page)
        if v["seat"] in v["turn"]:
            action = choose(v)
            assert action is not None, v
            click_move(page, action)
            wait_change(page, ver, timeout=15)
            if version(page) == ver:
                # a tap that made no move (under a loaded suite a card can still be settling under
                # the finger, as play_until_over allows): look again, but not for ever
                stuck.append(f"{action} at v{ver}: toast={page.inner_text('#g-toast')!r} "
                             f"pending={page.evaluate('window.__table.pending')}")
                assert len(stuck) < 3, stuck
            continue
        else:
            g = Game.objects.get(pk=game.pk)
            tv = engine.view_for(engine.GameState.from_json(g.state), taker_seat)
            kinds = {a["type"] for a in tv["legal"]}
            if "take" in kinds:
                took = [p["attack"] for p in tv["table"]] + [p["defense"] for p in tv["table"] if p["defense"]]
                action = {"type": "take"}
            elif "pass" in kinds:
                action = {"type": "pass"}
            else:
                action = next(a for a in tv["legal"] if a["type"] == "attack")
            _act(game.pk, taker, action, g.version)
            _wait_version(page, ver + 1)
    raise AssertionError(f"the taker never picked up a round (taps that made no move: {stuck})")


@pytest.mark.parametrize("mobile", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize("aid", [True, False], ids=["aid_on", "aid_off"])
def test_cards_taken_show_at_the_takers_seat_only_with_the_memory_aid(
        transactional_db, asgi_live_server, browser, screenshot_dir, aid, mobile):
    person, taker = make_player("Смотрящий"), make_player("Берущий")
    table, game = start_table([person, taker], rules={"memory_aid": aid})
    context, page = open_table(browser, asgi_live_server, person, table, mobile=mobile)
    took = _until_a_take_is_picked_up(page, game, taker, 2)
    page.wait_for_timeout(1200)  # the taken cards' flight to his seat is over
    name = f"table_ui_memory_{'on' if aid else 'off'}_{'phone' if mobile else 'desktop'}.png"
    page.screenshot(path=str(screenshot_dir / name))

    v = view(page)
    if aid:
        known = v["known"]["2"]
        assert set(took) <= set(known) or not took  # he may also have shown a card before
    else:  # what the rule turns off is not sent at all
        assert v["known"] == {} and v["gone"] == []
    chips = page.eval_on_selector_all("#g-seats .pod[data-seat='2'] .pod-known .mem-chip",
                                      "els => els.map(e => e.dataset.card)")
    gone = page.locator("#g-discard .mem-gone")
    if aid:
        assert sorted(chips) == sorted(known)
        assert page.locator("#g-seats .pod[data-seat='2'] .pod-known").is_visible()
        label = page.get_attribute("#g-seats .pod[data-seat='2'] .pod-known", "aria-label")
        assert label.startswith("Берущий — известные карты: ")
        assert page.locator("#g-mypod .pod-known").count() == 0  # my own hand needs no aid
        if v["gone"]:
            assert gone.is_visible()
            assert sum(int(t[1:]) for t in gone.locator(".mem-suit").all_inner_texts()) == len(v["gone"])
        # inside the felt and not over the cards on the table
        box = page.locator("#g-seats .pod[data-seat='2'] .pod-known").bounding_box()
        felt = page.locator("#g-felt").bounding_box()
        assert felt["x"] <= box["x"] and box["x"] + box["width"] <= felt["x"] + felt["width"] + 1
    else:
        assert chips == [] and page.locator(".pod-known").count() == 0
        assert gone.count() == 0
    assert not page.errors, page.errors
    close(context)


# ---------------------------------------------------------------- many known cards (the DEBUG harness)

def _overlap(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and \
        a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


@pytest.mark.parametrize("mobile", [False, True], ids=["desktop", "phone"])
def test_many_known_cards_stay_at_their_seat_clear_of_the_table(browser, harness, screenshot_dir, mobile):  # noqa: F811
    """A seat that picked up a big round: its eight known cards wrap inside the felt and cover
    neither the cards on the table nor the deck and discard (4 players, the tightest layout)."""
    frame = json.loads(json.dumps(SAMPLES["podkidnoy4"]["frame"]))
    v = frame["view"]
    v["rules"] = {**v.get("rules", {}), "memory_aid": True}
    v["known"] = {"1": ["6S", "8S", "9S", "JC", "QS", "KS", "6D", "9C"], "4": ["10H"]}
    v["hand_counts"] = {**v["hand_counts"], "1": 9}
    v["gone"] = ["6C", "7C", "8C", "7H", "8H", "QH", "JD", "QD", "9D", "10D", "AS", "AC"]
    v["discard"] = 12
    frame["version"] += 1
    options = ({"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
                "has_touch": True} if mobile else {})
    context, page = new_page(browser, harness, **options)
    page.goto(f"{harness[0]}/games/dev/table/?sample=podkidnoy4")
    page.wait_for_function("document.getElementById('game').dataset.state !== 'loading'")
    page.evaluate("(f) => window.__table.receive(f)", frame)
    page.wait_for_selector("#g-seats .pod[data-seat='1'] .pod-known")
    page.wait_for_timeout(600)
    page.screenshot(path=str(screenshot_dir / f"table_ui_memory_many_{'phone' if mobile else 'desktop'}.png"))

    chips = page.eval_on_selector_all("#g-seats .pod[data-seat='1'] .mem-chip", "els => els.map(e => e.dataset.card)")
    assert sorted(chips) == sorted(v["known"]["1"])
    assert page.locator("#g-seats .pod[data-seat='4'] .mem-chip.trump").count() == 1
    assert page.locator("#g-seats .pod[data-seat='3'] .pod-known").count() == 0
    suits = dict(zip(page.eval_on_selector_all("#g-discard .mem-suit", "els => els.map(e => e.dataset.suit)"),
                     page.locator("#g-discard .mem-suit").all_inner_texts(), strict=True))
    assert suits == {"S": "♠1", "H": "♥3", "D": "♦4", "C": "♣4"}
    felt = page.locator("#g-felt").bounding_box()
    blockers = [page.locator(sel).bounding_box() for sel in ("#g-deck", "#g-discard")]
    blockers += [page.locator("#g-battle .card").nth(k).bounding_box()
                 for k in range(page.locator("#g-battle .card").count())]
    for known in page.locator(".pod-known").all():
        box = known.bounding_box()
        assert felt["x"] <= box["x"] and box["x"] + box["width"] <= felt["x"] + felt["width"] + 1
        assert not any(_overlap(box, b) for b in blockers), box
    assert not page.errors, page.errors
    context.close()
