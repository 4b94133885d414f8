"""The rarer moves by clicking in the real browser against the live stack: менка (swap the lowest
trump for the face-up one, docs/RULES.md#trump-swap) and «переводной 2» (transfer by showing the trump, docs/RULES.md#transfer-by-showing-trump). Each game is
dealt from a known deck so the move is on offer from the first frame."""

from __future__ import annotations

import contextlib

import pytest

from tests.engine.scenario_kit import deck_for
from tests.game.test_table_ui_live import close, make_player, open_table, tap, view

pytestmark = [pytest.mark.timeout(300)]


def deal_table(seats: list, rules: dict, hands: list[list[str]], trump: str):
    """A playing table whose seats hold `seats` in order (a player, or a bot level), its game dealt
    from a known deck. A bot that leads is moved by the live server's timers (their safety net for an
    awaited bot, after TIMERS_BOT_GRACE), so its frame goes out through the server's own layer."""
    import threading

    from game import engine, services
    from game.models import Game
    from lobby.models import Seat, Table

    table = Table.objects.create(name="ui", rules=rules, seats_count=len(seats), turn_seconds=90,
                                 status=Table.Status.PLAYING)
    for number, who in enumerate(seats, start=1):
        if isinstance(who, str):
            Seat.objects.create(table=table, number=number, bot_level=who)
        else:
            Seat.objects.create(table=table, number=number, player=who)
    bot_seats = [n for n, who in enumerate(seats, start=1) if isinstance(who, str)]
    state = engine.new_game(engine.Rules.from_dict(rules), len(seats), deck=deck_for(hands, trump),
                            bot_seats=bot_seats)
    data = state.to_json()

    # in a thread of its own: Playwright's event loop runs in this one, and the broadcast after
    # commit (and the bots' scheduler) must not see it
    def start():
        with bots_off():
            game = services.start_game(table.pk)
        Game.objects.filter(pk=game.pk).update(state=data, initial_state=data, deadline_seats=engine.whose_turn(state))

    worker = threading.Thread(target=start)
    worker.start()
    worker.join(30)
    return table, Game.objects.get(table=table)


@contextlib.contextmanager
def bots_off():
    """While the random deal is replaced, no bot may move on it."""
    from django.test import override_settings

    with override_settings(BOT_SCHEDULER="off"):
        yield


def wait_until(page, predicate: str, timeout: int = 15000) -> None:
    page.wait_for_function(f"(() => {{ const v = window.__table.view; return !!v && ({predicate}); }})()",
                           timeout=timeout)


def test_swapping_the_lowest_trump_for_the_face_up_one_by_pressing_the_button(
        transactional_db, asgi_live_server, browser, screenshot_dir):
    person = make_player("Менка")
    table, _game = deal_table([person, "lowest"], {"trump_swap": "all"},
                              [["6C", "7S", "7H", "8D", "9S", "QD"], ["8S", "9H", "10H", "JS", "KS", "7C"]], "AC")
    context, page = open_table(browser, asgi_live_server, person, table)
    assert {"type": "swap_trump", "card": "6C"} in view(page)["legal"]
    button = page.locator("#g-controls button[data-kind='swap']")
    assert button.is_visible() and button.is_enabled()
    page.screenshot(path=str(screenshot_dir / "table_ui_swap_offered.png"))
    button.click()
    wait_until(page, "v.trump_card === '6C'")
    v = view(page)
    assert "AC" in v["hand"] and "6C" not in v["hand"] and v["swap_used"] is True
    assert v["turn"] == [1]  # still the person's lead
    assert page.locator("#g-controls button[data-kind='swap']").count() == 0
    page.wait_for_timeout(700)  # the new card's deal animation
    assert page.locator("#g-hand .card[data-card='AC']").is_visible()
    page.screenshot(path=str(screenshot_dir / "table_ui_swap_done.png"))
    assert not page.errors, page.errors
    close(context)


def test_transferring_by_showing_the_trump_keeps_it_in_hand_and_passes_the_defence(
        transactional_db, asgi_live_server, browser, screenshot_dir):
    from game.models import GameEvent

    person = make_player("Показ")
    rules = {"variant": "perevodnoy", "transfer_by_showing_trump": True}
    # seat 1 is the lowest bot: it holds the 6 of trumps, so it leads, and it leads its lowest card, the 7S
    table, game = deal_table(["lowest", person], rules,
                             [["6C", "7S", "8D", "9S", "QD", "KH"], ["7C", "7H", "10H", "JS", "KS", "9H"]], "AC")
    context, page = open_table(browser, asgi_live_server, person, table)
    wait_until(page, "v.table.length === 1 && v.defender === 2", timeout=30000)
    v = view(page)
    assert v["table"] == [{"attack": "7S", "defense": None}]
    show = {"type": "transfer", "card": "7C", "show": True}
    assert show in v["legal"]
    page.wait_for_timeout(500)
    page.screenshot(path=str(screenshot_dir / "table_ui_show_transfer_offered.png"))
    tap(page, "#g-hand .card[data-card='7C']")
    page.screenshot(path=str(screenshot_dir / "table_ui_show_transfer_selected.png"))
    # the hint line says what just happened until the bot answers (within ~0.1 s here): keep every text
    page.evaluate("""() => { window.__hints = []; const el = document.getElementById('g-hint');
        new MutationObserver(() => window.__hints.push(el.textContent)).observe(el, {childList: true,
        characterData: true, subtree: true}); }""")
    page.click("#g-controls button[data-kind='transfer']")
    wait_until(page, "v.defender === 1")
    v = view(page)
    assert "7C" in v["hand"] and v["shown"] == [2]
    assert v["table"][0]["attack"] == "7S" and len(v["hand"]) == 6
    page.wait_for_function("window.__hints.some((t) => t.includes('показав козырь 7'))", timeout=5000)
    page.wait_for_timeout(500)
    page.screenshot(path=str(screenshot_dir / "table_ui_show_transfer_done.png"))
    event = GameEvent.objects.filter(game=game, seat=2).order_by("seq").first()
    assert event is not None and event.action == show and event.source == "player"
    assert not page.errors, page.errors
    close(context)
