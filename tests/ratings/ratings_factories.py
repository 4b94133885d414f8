"""Test factories for the ratings tests: players, tables and finished games.

These write lobby/game rows directly (a clearly named TEST factory, not production code): the
real engine plays whole games with the reference bots, and each applied action is stored as a
GameEvent exactly as the server logs it, so replays and results are real.
"""

from __future__ import annotations

import random
from itertools import count

from django.utils import timezone

from accounts.models import Player
from game import engine
from game.engine.bots import choose_action
from game.models import Game, GameEvent, GameSeat
from lobby.models import Table

_nicks = count(1)


def make_player(nick: str | None = None, **extra) -> Player:
    return Player.objects.create_user(nick or f"p{next(_nicks)}", **extra)


def make_table(series_length: int = 1, rules: dict | None = None, seats_count: int = 4, **extra) -> Table:
    return Table.objects.create(name=extra.pop("name", "t"), rules=rules or {}, seats_count=seats_count,
                                series_length=series_length, **extra)


def _seat_rows(game: Game, lineup: list) -> None:
    """lineup: one entry per seat, a Player (human) or a bot level string ("heuristic")."""
    for n, who in enumerate(lineup, start=1):
        if isinstance(who, str):
            GameSeat.objects.create(game=game, number=n, bot_level=who)
        else:
            GameSeat.objects.create(game=game, number=n, player=who)


def play_finished_game(table: Table, lineup: list, *, rules: dict | None = None, seed: int = 1,
                       first_attacker: int | None = None, leave: dict | None = None,
                       stop_after_moves: int | None = None, bot_level: str = "heuristic",
                       bots_at_start: list[int] | None = None, takeover: dict | None = None) -> Game:
    """Play a whole game with the engine, every seat moved by the reference bot ``bot_level``.

    ``leave={seat: move_index}`` makes that seat resign (leave) when that many moves were made.
    ``takeover={seat: move_index}`` logs a bot taking that human seat over (game.services' "set_bots" event).
    ``stop_after_moves`` leaves the game unfinished (status playing) after that many events.
    Returns the Game with its GameEvents, final state and result (status finished unless stopped).
    """
    rules = dict(table.rules if rules is None else rules)
    n = len(lineup)
    bots = bots_at_start if bots_at_start is not None else [k for k, w in enumerate(lineup, 1) if isinstance(w, str)]
    state = engine.new_game(rules, players=n, seed=seed, first_attacker=first_attacker, bot_seats=bots)
    game = Game.objects.create(table=table, rules=state.rules.to_dict(), seed=str(seed),
                               initial_state=state.to_json(), state=state.to_json())
    _seat_rows(game, lineup)
    rng = random.Random(seed)
    leave = dict(leave or {})
    left: list[int] = []
    seq = 0
    while not state.over:
        if stop_after_moves is not None and seq >= stop_after_moves:
            break
        leaver = next((s for s, at in leave.items() if at <= seq and s not in left), None)
        taker = next((s for s, at in (takeover or {}).items() if at <= seq and s not in bots), None)
        if taker is not None:
            bots = sorted([*bots, taker])
            seat, action = None, {"type": "set_bots", "seats": bots}
            state = engine.set_bot_seats(state, bots)
            seq += 1
            GameEvent.objects.create(game=game, seq=seq, seat=None, action=action, source="server")
            GameSeat.objects.filter(game=game, number=taker).update(takeover_level=bot_level)
            continue
        if leaver is not None:
            seat, action = leaver, {"type": "resign", "reason": "resign"}
            left.append(leaver)
        elif state.phase == "check":
            seat, action = None, {"type": "end_check"}
        else:
            seat = engine.whose_turn(state)[0]
            action = choose_action(bot_level, engine.view_for(state, seat), rng)
            if action is None:
                action = engine.timeout_action(state, seat)
        state = engine.end_check(state) if seat is None else engine.apply_action(state, seat, action)
        seq += 1
        GameEvent.objects.create(game=game, seq=seq, seat=seat, action=action,
                                 source=_source(seat, lineup, bots, leaver))
    game.state = state.to_json()
    game.version = seq
    if state.over:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.result = dict(state.result, left=left, timed_out=[])
    game.save()
    if left:
        GameSeat.objects.filter(game=game, number__in=left).update(left_at=timezone.now())
    return game


def _source(seat: int | None, lineup: list, bots: list[int], leaver: int | None) -> str:
    """As game.services logs it: a person's own move "player", a bot's "bot", leaving "leave"."""
    if seat is None:
        return "server"
    if seat == leaver:
        return "leave"
    return "bot" if isinstance(lineup[seat - 1], str) or seat in bots else "player"


def finished_game_row(table: Table, lineup: list, result: dict, *, rules: dict | None = None,
                      final_round: int = 5, bots_at_start: list[int] | None = None,
                      out: list[int] | None = None, finished_at=None) -> Game:
    """A finished Game row with a given result (no event log): for rating-rule tests only."""
    rules = {"variant": "podkidnoy", "pairs": False, **(rules or {})}
    bots = bots_at_start if bots_at_start is not None else [k for k, w in enumerate(lineup, 1) if isinstance(w, str)]
    res = {"loser": None, "losers": [], "winners": [], "draw": False, "reason": "normal", "left": [],
           "timed_out": [], **result}
    game = Game.objects.create(
        table=table, rules=rules, seed="0", initial_state={"bots": bots, "round": 1},
        state={"round": final_round, "out": out or [], "phase": "over"}, status=Game.Status.FINISHED,
        result=res, finished_at=finished_at or timezone.now(),
    )
    _seat_rows(game, lineup)
    for n, who in enumerate(lineup, start=1):  # every person moved (a rated game needs real play)
        GameEvent.objects.create(game=game, seq=n, seat=n, action={"type": "pass"},
                                 source="bot" if isinstance(who, str) else "player")
    return game
