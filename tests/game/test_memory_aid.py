"""The memory aid (docs/RULES.md#seat-memory): a table rule, off by default, that the frames carry to the table page;
and the seat memory it draws (view["known"]) reaches people's frames without an unseen card."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from game import engine, frames, services
from game.models import Game
from lobby import services as lobby_services
from tests.game.helpers import close_quietly, make_player, make_table, open_socket, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_auto_bots(settings):
    settings.BOT_SCHEDULER = "off"


def test_the_memory_aid_is_off_by_default_and_the_frame_follows_the_table_rule():
    host, guest = make_player(), make_player()
    table = lobby_services.create_table(host)
    assert table.rules["memory_aid"] is False  # a new table stores the rule, switched off
    lobby_services.sit(table.pk, guest, 2)
    lobby_services.update_rules(table.pk, host, memory_aid=True)
    table.refresh_from_db()
    assert table.rules["memory_aid"] is True
    assert "Подсказка памяти: вкл." in table.notice  # everyone reads that the rules changed
    c = Client()
    c.force_login(guest)
    room = c.get(reverse("lobby:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "подсказка памяти" in room  # the room's rules summary
    settings_page = c.get(reverse("lobby:table_rules", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "Memory aid" in settings_page.content.decode()

    plain = make_table(humans=[make_player(), make_player()])
    aided = make_table(humans=[make_player(), make_player()], rules={"memory_aid": True})
    for t, on in ((plain, False), (aided, True)):
        game = services.start_game(t.pk)
        for seat in (1, 2, None):
            assert frames.view_frame(game, seat)["view"]["rules"]["memory_aid"] is on


async def test_a_take_puts_the_taken_cards_in_every_socket_frame_and_nothing_unseen():
    """Seat memory over the real socket: after a take every player and a spectator read the cards
    at the taker's seat; each frame's known cards were all seen on the table."""
    def setup():
        players = [make_player(), make_player()]
        table = make_table(humans=players, rules={"memory_aid": True})
        game = services.start_game(table.pk)
        return players, table, Game.objects.get(pk=game.pk)

    players, table, game = await database_sync_to_async(setup)()
    watcher = await database_sync_to_async(make_player)()
    comms = []
    for p in [*players, watcher]:
        comm, ok, _code = await open_socket(table.pk, p)
        assert ok
        comms.append([comm, await receive_until(comm, lambda f: f["type"] == "state")])
    assert all(f["view"]["known"] == {} for _c, f in comms)

    seen: set[str] = set()  # every card that has been face up on the table
    version = 0
    attacker = game.deadline_seats[0]
    defender = 3 - attacker

    async def move(seat: int, pick) -> None:
        nonlocal version
        comm, last = comms[seat - 1]
        action = pick(last["view"]["legal"])
        await comm.send_json_to({"id": f"m{version}", "version": version, "action": action})
        version += 1
        for entry in comms:
            entry[1] = await receive_until(entry[0], lambda f, v=version: f["type"] == "state" and f["version"] == v)
            for pair in entry[1]["view"]["table"]:
                seen.update(c for c in pair.values() if c)

    await move(attacker, lambda legal: next(a for a in legal if a["type"] == "attack"))
    led = comms[0][1]["view"]["table"][0]["attack"]
    await move(defender, lambda legal: {"type": "take"})
    while comms[0][1]["view"]["took"]:  # the attacker passes: the round closes, the cards go to the taker
        await move(attacker, lambda legal: {"type": "pass"})

    for i, (_comm, f) in enumerate(comms):
        known = f["view"]["known"]
        assert list(known) == [str(defender)], (i, known)
        assert led in known[str(defender)]
        assert set(known[str(defender)]) <= seen  # never a card nobody saw
        assert f["view"]["rules"]["memory_aid"] is True
    assert set(comms[defender - 1][1]["view"]["hand"]) >= set(comms[0][1]["view"]["known"][str(defender)])
    for comm, _f in comms:
        await close_quietly(comm)


@pytest.mark.parametrize("memory_aid", [False, True])
def test_what_the_memory_aid_shows_is_sent_only_when_the_table_rule_is_on(memory_aid):
    """A table rule that turns the aid off keeps its facts off the wire, not only off the screen."""
    table = make_table(humans=[make_player(), make_player()], rules={"memory_aid": memory_aid})
    game = services.start_game(table.pk)
    state = engine.GameState.from_json(game.state)
    state.known = state.hands[1]  # seat 2 was seen picking up every card it holds
    state.gone = 1  # and a card has gone to the discard
    facts = frames.seat_facts(game, frames.game_seats(game))
    for seat in (1, 2, None):
        view = frames.frame(game, state, seat, facts)["view"]
        assert bool(view["known"]) is memory_aid
        assert bool(view["gone"]) is memory_aid
