"""The browser table against the real stack: daphne (asgi_live_server), the table socket, game
services, bots and the database. A person plays by clicking in headless Chromium."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from tests.conftest import login_browser_context

# The live server's bot pace and Playwright's async-unsafe allowance come from tests/conftest.py.

pytestmark = [pytest.mark.timeout(600)]

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def make_player(nick):
    from accounts.models import Player

    return Player.objects.create_user(nick)


def start_table(humans, bots=(), rules=None):
    """A playing table: humans in seats 1.., then bots; the game dealt by game.services.start_game."""
    from django.db import connections

    from game import services
    from lobby.models import Seat, Table

    seats = [("h", p) for p in humans] + [("b", level) for level in bots]
    table = Table.objects.create(name="ui", rules=rules or {}, seats_count=len(seats), turn_seconds=90,
                                 status=Table.Status.PLAYING)
    for number, (kind, who) in enumerate(seats, start=1):
        if kind == "h":
            Seat.objects.create(table=table, number=number, player=who)
        else:
            Seat.objects.create(table=table, number=number, bot_level=who)
    # in a thread of its own: Playwright's event loop runs in this one, and the broadcast after
    # commit (and the bots' scheduler) must not see it
    done: dict = {}
    def deal() -> None:
        try:
            done["game"] = services.start_game(table.pk)
        finally:
            connections.close_all()  # a pooled connection goes back, as a server's thread's would

    worker = threading.Thread(target=deal)
    worker.start()
    worker.join(30)
    return table, done["game"]


def close(*contexts) -> None:
    """Close the pages, then let the server record the disconnects before the database is flushed."""
    for context in contexts:
        context.close()
    time.sleep(1.5)


def open_table(browser, base, player, table, **kw):
    context = login_browser_context(browser, base, player, **kw)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"/tables/{table.pk}/")
    wait_for_view(page)
    return context, page


def wait_for_view(page, timeout=20000):
    page.wait_for_function("window.__table && window.__table.view !== null", timeout=timeout)


def view(page) -> dict:
    return page.evaluate("window.__table.view")


def version(page) -> int:
    return page.evaluate("window.__table.version")


def card_key(card: str, trump: str) -> tuple:
    return (card[-1] == trump, RANKS.index(card[:-1]))


def choose(v: dict) -> dict | None:
    """A plain strategy for the person: beat with the lowest card, lead the lowest, pass rather than
    throw in, take when nothing beats."""
    legal = v["legal"]
    trump = v["trump"]
    defends = [a for a in legal if a["type"] == "defend"]
    attacks = [a for a in legal if a["type"] == "attack"]
    kinds = {a["type"] for a in legal}
    if defends:
        return min(defends, key=lambda a: card_key(a["card"], trump))
    if attacks and not v["table"]:
        return min(attacks, key=lambda a: card_key(a["card"], trump))
    if "pass" in kinds:
        return {"type": "pass"}
    if attacks:
        return min(attacks, key=lambda a: card_key(a["card"], trump))
    if "take" in kinds:
        return {"type": "take"}
    return None


def click_move(page, action: dict) -> None:
    """Make `action` the way a person does: tap the card (then the target), or press the button."""
    kind = action["type"]
    if kind in ("take", "pass"):
        page.click(f"#g-controls button[data-kind='{kind}']", timeout=15000)
        return
    card = action["card"]
    tap(page, f"#g-hand .card[data-card='{card}']")
    if kind == "defend" and page.evaluate("window.__table.selected") == card:
        tap(page, f"#g-battle .card[data-card='{action['target']}']")


# A point of the element that is not covered by a neighbour (cards of a fan overlap and are rotated,
# so a fixed offset can land on the card beside it): what a person's finger aims at.
VISIBLE_POINT_JS = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  for (const fy of [0.25, 0.5, 0.15, 0.75, 0.4]) {
    for (const fx of [0.2, 0.1, 0.35, 0.5, 0.7, 0.9]) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === el || el.contains(hit))) return [x, y];
    }
  }
  return null;
}"""


def tap(page, selector: str, timeout: float = 15.0) -> None:
    """Click the visible part of `selector` (waiting for it to be there and uncovered)."""
    end = time.monotonic() + timeout
    last = None
    while True:
        point = page.evaluate(VISIBLE_POINT_JS, selector)
        if point is not None and point == last:  # the same twice: not moving (cards animate in)
            page.mouse.click(point[0], point[1])
            return
        last = point
        if time.monotonic() > end:
            raise AssertionError(f"{selector} is not on screen, covered everywhere or moving")
        page.wait_for_timeout(60)


def wait_change(page, old_version: int, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if version(page) != old_version or page.get_attribute("#game", "data-state") == "over":
            return
        page.wait_for_timeout(60)


def settle(*pages, timeout: float = 10.0) -> None:
    """Until every page shows the same version."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if len({version(p) for p in pages}) == 1:
            return
        pages[0].wait_for_timeout(60)
    raise AssertionError("the pages disagree on the version")


def play_until_over(page, shots: Path | None = None, prefix: str = "", max_moves: int = 150) -> int:
    moves = 0
    shot_taken = set()
    idle_since = None
    failures: list[str] = []
    stuck: list[str] = []
    deadline = time.monotonic() + 420
    while time.monotonic() < deadline:
        if page.get_attribute("#game", "data-state") == "over":
            return moves
        v = view(page)
        action = choose(v) if v["seat"] is not None else None
        if action is None:
            idle_since = idle_since or time.monotonic()
            if time.monotonic() - idle_since > 20:
                raise AssertionError(f"nothing happens: version {version(page)}, turn {v['turn']}, "
                                     f"legal {v['legal']}, phase {v['phase']}, table {v['table']}")
            wait_change(page, version(page), timeout=3)
            continue
        idle_since = None
        if shots is not None:
            key = ("lead" if not v["table"] else "defend" if action["type"] == "defend" else
                   "throw" if action["type"] in ("attack", "pass") else action["type"])
            if key not in shot_taken and (key != "throw" or v["round"] > 1):
                shot_taken.add(key)
                page.screenshot(path=str(shots / f"{prefix}{key}.png"))
            if v["round"] == 4 and "round4" not in shot_taken:
                shot_taken.add("round4")
                page.screenshot(path=str(shots / f"{prefix}midgame.png"))
        before = version(page)
        try:
            click_move(page, action)
        except Exception as exc:
            # the table moved under the cursor (a bot acted first): look again
            failures.append(f"{action}: {str(exc)[:300]}")
            assert len(failures) < 25, failures[-3:]
            page.keyboard.press("Escape")
            continue
        moves += 1
        wait_change(page, before)
        if version(page) == before:
            stuck.append(f"{action} at v{before}: toast={page.inner_text('#g-toast')!r} "
                         f"inflight={page.evaluate('window.__table.pending')}")
        assert moves <= max_moves, ("the game does not end", stuck[-5:])
    raise AssertionError("the game did not end in time")


def test_one_person_and_three_bots_play_a_whole_game_by_clicking(transactional_db, asgi_live_server, browser,
                                                                   screenshot_dir):
    from game.models import Game

    person = make_player("Клик")
    table, game = start_table([person], bots=("heuristic", "lowest", "random"))
    context, page = open_table(browser, asgi_live_server, person, table)
    page.wait_for_timeout(500)
    page.screenshot(path=str(screenshot_dir / "table_ui_live_start.png"))
    assert page.locator("#g-seats .pod").count() == 3
    assert sorted(page.eval_on_selector_all("#g-hand .card", "els => els.map(e => e.dataset.card)")) == \
        sorted(view(page)["hand"])

    moves = play_until_over(page, screenshot_dir, "table_ui_live_")
    page.wait_for_selector("#g-result:not([hidden])", timeout=10000)
    page.wait_for_timeout(500)
    page.screenshot(path=str(screenshot_dir / "table_ui_live_result.png"))
    text = page.inner_text("#g-result-main")
    assert text, "the result says who lost"
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert moves > 0
    r = game.result
    if r.get("draw"):
        assert text == "Ничья!"
    elif 1 in (r.get("losers") or [r.get("loser")]):
        assert text == "Вы — дурак!"
    else:
        loser = r.get("loser") or r["losers"][0]
        nick = game.seats.get(number=loser).player
        assert text.startswith("Дурак — ") and (nick is None or nick.nick in text)
    assert not page.errors, page.errors
    close(context)


def test_two_people_at_one_table_see_each_others_moves_and_a_reload_restores_the_view(
        transactional_db, asgi_live_server, browser, screenshot_dir):
    anna, boris = make_player("Анна"), make_player("Борис")
    table, game = start_table([anna, boris])
    ctx_a, page_a = open_table(browser, asgi_live_server, anna, table)
    ctx_b, page_b = open_table(browser, asgi_live_server, boris, table, mobile=True)
    pages = {1: page_a, 2: page_b}
    # each sees only its own hand; both see the same public table
    va, vb = view(page_a), view(page_b)
    assert va["seat"] == 1 and vb["seat"] == 2
    assert set(va["hand"]).isdisjoint(vb["hand"])
    assert page_b.locator("#g-seats .pod .pod-nick").inner_text() == "Анна"

    for step in range(4):
        settle(page_a, page_b)
        v = view(page_a)
        mover = v["turn"][0]
        page, other = pages[mover], pages[3 - mover]
        action = choose(view(page))
        before = version(other)
        click_move(page, action)
        wait_change(other, before)
        if version(other) == before and page.evaluate("window.__table.inflight") is None:
            # the tap met a socket that was down (a reconnect under load): the page said so and kept
            # the card; a person taps again once the table is back. (The mover's own page is no
            # witness: its ack clears the pending move a moment before its frame moves the version.)
            toast = page.inner_text("#g-toast") if page.is_visible("#g-toast") else ""
            page.wait_for_function("!document.getElementById('game').classList.contains('offline')", timeout=15000)
            click_move(page, action)
            wait_change(other, before)
            assert version(other) != before, ("the move went nowhere twice", toast)
        seen = view(other)
        assert seen["last"], (step, mover, action, before, version(page), version(other), view(page)["last"],
                              page.inner_text("#g-toast") if page.is_visible("#g-toast") else "",
                              page.inner_text("#g-banner") if page.is_visible("#g-banner") else "")
        assert seen["last"]["seat"] == mover and seen["last"]["type"] == action["type"]
        if "card" in action:
            assert seen["last"]["card"] == action["card"]
            if seen["table"]:
                on_table = other.eval_on_selector_all("#g-battle .card", "els => els.map(e => e.dataset.card)")
                assert action["card"] in on_table
        settle(page_a, page_b)
        if step == 1:
            page_a.screenshot(path=str(screenshot_dir / "table_ui_live_two_people_a.png"))
            page_b.screenshot(path=str(screenshot_dir / "table_ui_live_two_people_b_phone.png"))

    # reload mid-game: the same view comes back (no bots, so nothing moves meanwhile)
    snapshot = view(page_a)
    page_a.reload()
    wait_for_view(page_a)
    again = view(page_a)
    for key in ("hand", "table", "trump", "stock", "hand_counts", "turn", "legal"):
        assert again[key] == snapshot[key], key
    assert sorted(page_a.eval_on_selector_all("#g-hand .card", "els => els.map(e => e.dataset.card)")) == \
        sorted(snapshot["hand"])
    assert not page_a.errors and not page_b.errors, page_a.errors + page_b.errors
    close(ctx_a, ctx_b)


def test_a_spectator_sees_the_table_but_no_hand_and_no_controls(transactional_db, asgi_live_server, browser):
    person, watcher = make_player("Игрок"), make_player("Зритель")
    table, game = start_table([person], bots=("lowest",))
    context, page = open_table(browser, asgi_live_server, watcher, table)
    v = view(page)
    assert v["seat"] is None and v["hand"] == []
    assert page.locator("#g-hand .card").count() == 0
    assert page.locator("#g-controls button").count() == 0
    assert page.locator("#g-seats .pod").count() == 2
    close(context)


def config_game_id(page):
    try:
        return page.evaluate("JSON.parse(document.getElementById('table-config').textContent).game_id")
    except Exception:  # navigating
        return None


def test_connection_loss_is_shown_and_the_view_comes_back_and_rematch_ready_reaches_the_lobby(
        transactional_db, asgi_live_server, browser, screenshot_dir):
    person = make_player("Реванш")
    table, game = start_table([person], bots=("lowest",), rules={"deck_size": 24})
    context, page = open_table(browser, asgi_live_server, person, table)
    before = view(page)
    page.evaluate("window.__table.dropSocket()")
    # «Связь потеряна…» then «Связь восстановлена» (the banner keeps its last text when it hides)
    page.wait_for_function("document.getElementById('g-banner').textContent === 'Связь восстановлена'",
                           timeout=20000)
    assert not page.locator("#game.offline").count()
    assert view(page)["hand"] == before["hand"] or version(page) > before.get("moves", 0)

    play_until_over(page)
    page.wait_for_selector("#g-rematch:not([hidden])", timeout=10000)
    page.click("#g-rematch")
    page.wait_for_selector("#g-rematch-info:has-text('ждём остальных')", timeout=10000)
    # «Готово» reached the lobby (its ready endpoint): the seat is ready, or the table already
    # moved on to the countdown / a new game
    from lobby.models import Seat, Table

    end = time.monotonic() + 15
    while time.monotonic() < end:
        t = Table.objects.get(pk=table.pk)
        if Seat.objects.filter(table=t, player=person, ready=True).exists() or \
                t.status in (Table.Status.COUNTDOWN, Table.Status.PLAYING):
            break
        time.sleep(0.2)
    else:
        raise AssertionError("the rematch «Готово» did not reach the lobby")
    page.screenshot(path=str(screenshot_dir / "table_ui_live_rematch_ready.png"))
    assert not page.errors, page.errors
    close(context)


def test_a_person_plays_a_whole_game_against_two_master_bots_by_clicking(transactional_db, asgi_live_server,
                                                                        browser, screenshot_dir):
    """The searching level ("master", the expert bot) plays whole live games: its moves are
    legal, it never stalls the table, and the game ends with a result."""
    from game.models import Game, GameEvent

    person = make_player("Мастерский")
    table, game = start_table([person], bots=("master", "master"), rules={"deck_size": 24})
    context, page = open_table(browser, asgi_live_server, person, table)
    moves = play_until_over(page, screenshot_dir, "table_ui_master_")
    page.wait_for_selector("#g-result:not([hidden])", timeout=15000)
    page.screenshot(path=str(screenshot_dir / "table_ui_master_result.png"))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and moves > 0
    assert GameEvent.objects.filter(game=game, source="bot").count() > 0
    assert not page.errors, page.errors
    close(context)


def test_a_move_lost_on_its_way_is_sent_again_when_the_socket_reopens(transactional_db, asgi_live_server, browser):
    """The move reached a process that died (or was stopping) before it answered: the page keeps it
    and sends it again, under the same id, as soon as its socket is back; it is applied once."""
    from game.models import Game, GameEvent

    anna, boris = make_player("Потеря"), make_player("Возврат")
    table, game = start_table([anna, boris])
    mover = game.deadline_seats[0]
    context, page = open_table(browser, asgi_live_server, [anna, boris][mover - 1], table)
    action = choose(view(page))
    page.evaluate("""() => {  // count the moves that leave the page (the lost one never reaches a socket)
        window.__moves = [];
        const real = WebSocket.prototype.send;
        WebSocket.prototype.send = function (data) {
            const msg = JSON.parse(data);
            if (msg.action) window.__moves.push(msg.id);
            return real.call(this, data);
        };
    }""")
    page.evaluate("window.__table.loseNextSend()")
    click_move(page, action)
    page.wait_for_function("window.__table.inflight !== null", timeout=5000)
    msg_id = page.evaluate("window.__table.inflight")
    time.sleep(0.5)
    assert Game.objects.get(pk=game.pk).version == 0  # it never arrived
    page.evaluate("window.__table.dropSocket()")
    page.wait_for_function("window.__table.version === 1", timeout=15000)
    page.wait_for_function("window.__table.inflight === null", timeout=5000)
    assert page.evaluate("window.__moves") == [msg_id]  # resent once on the reopened socket, never twice
    assert GameEvent.objects.filter(game=game, source="player").count() == 1
    assert not page.errors, page.errors
    close(context)
