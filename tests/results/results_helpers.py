"""Helpers for the fair-results tests: real tables and games played through game.services.

Every move goes through the same service calls the sockets and the sweeper use (no mocks): a
person's move, a bot's move, the turn clock, presence and the absence clock.
"""

from __future__ import annotations

import random
from datetime import timedelta

from accounts import services as accounts_services
from accounts.models import Player
from durak_site.clock import db_now
from game import engine
from game import services as game_services
from game.engine.bots import choose_action
from game.models import Game, GameEvent, GameSeat
from lobby.models import Seat, Table


def player(nick: str, address: str = "") -> Player:
    p = Player.objects.create_user(nick)
    if address:
        accounts_services.record_address(p.pk, address)
        p.refresh_from_db()
    return p


def table(people, *, policy: str = "bot", rules: dict | None = None) -> Table:
    t = Table.objects.create(name="t", rules=rules or {}, seats_count=len(people), disconnect_policy=policy)
    for n, p in enumerate(people, start=1):
        Seat.objects.create(table=t, number=n, player=p)
    return t


def start(people, **kw) -> int:
    """A game at a new table of `people`, every one of them connected (their table sockets opened)."""
    game_id = game_services.start_game(table(people, **kw).pk).pk
    for p in people:
        game_services.set_connected(game_id, p, True)
    return game_id


def game(game_id: int) -> Game:
    return Game.objects.get(pk=game_id)


def state(game_id: int) -> engine.GameState:
    return engine.GameState.from_json(game(game_id).state)


def awaited(game_id: int) -> GameSeat:
    return GameSeat.objects.select_related("player").get(game_id=game_id, number=engine.whose_turn(state(game_id))[0])


def step(game_id: int, rng: random.Random, k: int) -> None:
    """The awaited seat moves: its person like the heuristic bot, or its bot if a bot plays it."""
    g, gs = game(game_id), awaited(game_id)
    if gs.bot_controlled:
        game_services.apply_bot_action(game_id, gs.number, g.version)
        return
    s = engine.GameState.from_json(g.state)
    action = choose_action("heuristic", engine.view_for(s, gs.number), rng) or engine.timeout_action(s, gs.number)
    game_services.apply_player_action(game_id, gs.player, g.version, f"m{k}", action)


def playing(game_id: int) -> bool:
    return game(game_id).status == Game.Status.PLAYING


def play_until(game_id: int, rng: random.Random, done, limit: int = 3000) -> None:
    for k in range(limit):
        if not playing(game_id) or done():
            return
        if state(game_id).phase == "check":
            game_services.fire_check_deadline(game_id, game(game_id).version)
            continue
        step(game_id, rng, k + rng.randrange(10**9))
    raise AssertionError("the game went on too long")


def time_out(game_id: int) -> None:
    """The turn clock runs out now for the awaited seats (the sweeper's call)."""
    game_services.fire_turn_deadline(game_id, game(game_id).version)


def timed_out_seats(game_id: int) -> set[int]:
    return set(GameEvent.objects.filter(game_id=game_id, source="timeout").values_list("seat", flat=True))


def away_since(game_id: int, who: Player, seconds: float) -> None:
    """His socket closed `seconds` ago (the heartbeat sweep's call with his last sign of life)."""
    game_services.set_connected(game_id, who, False, since=db_now() - timedelta(seconds=seconds))


def seat_of(game_id: int, who: Player) -> int:
    return GameSeat.objects.get(game_id=game_id, player=who).number


def outcomes(game_id: int) -> dict[int, dict]:
    return {row["seat"]: row for row in game(game_id).result["outcomes"]}
