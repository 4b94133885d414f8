"""Bot-only games: the driver the benchmark and the bot tests use to pit bot levels.

It plays the way the server does: the awaited seat's bot acts on ``view_for(state, seat)`` (with the
table's reads, reads.py, when a bot of the game reads them); at a round start every seat that may
swap the trump is asked; in cheater mode's check phase every seat that may catch is asked before
``end_check`` closes the round.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from game.engine import (
    GameState,
    IllegalAction,
    Rules,
    apply_action,
    end_check,
    legal_actions,
    new_game,
    view_for,
    whose_turn,
)
from game.engine.bots import bot_for, choose_action
from game.engine.bots.base import Bot
from game.engine.reads import Reading, advance, reading_view, start
from game.engine.types import Action, View


class BotError(AssertionError):
    """A bot chose an action outside its legal list (or none while awaited)."""


@dataclass
class BotGame:
    """Outcome of one bot game: the result, and timing of the bots' decisions (view excluded)."""

    result: dict[str, Any]
    actions: int = 0
    decisions: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    times: dict[str, list[float]] = field(default_factory=dict)  # CPU seconds of each decision


def play_bot_game(
    rules: Rules,
    players: int,
    seed: int,
    levels: Mapping[int, str],
    *,
    strict: bool = True,
    on_action: Callable[[GameState, int, Action], None] | None = None,
    bots: Mapping[str, Bot] | None = None,
) -> BotGame:
    """Play one seeded game where seat k is played by bot ``levels[k]``; ``strict`` raises
    BotError if a bot ever picks an action not in its view's legal list; ``on_action(state_after,
    seat, action)`` sees every applied action (tests)."""
    rng = random.Random(seed)
    s: GameState = new_game(rules, players, seed=seed, bot_seats=list(levels))
    out = BotGame(result={})
    decisions = out.decisions
    seconds = out.seconds
    reads = any((bots[lv] if bots and lv in bots else bot_for(lv)).reads_table
                for lv in levels.values())
    reading: Reading | None = start(s) if reads else None

    def see(seat: int) -> View:
        return view_for(s, seat) if reading is None else reading_view(s, seat, reading)

    def act(seat: int | None, a: Action) -> None:
        nonlocal s, reading
        before = s
        s = end_check(s) if seat is None else apply_action(s, seat, a)
        if reading is not None:
            reading = advance(reading, before, s, seat, a)

    def ask(seat: int, view: View | None = None) -> Action | None:
        if view is None:
            view = see(seat)
        level = levels[seat]
        t0 = time.process_time()
        action = bots[level].choose(view, rng) if bots and level in bots else choose_action(
            level, view, rng
        )
        dt = time.process_time() - t0
        seconds[level] = seconds.get(level, 0.0) + dt
        out.times.setdefault(level, []).append(dt)
        decisions[level] = decisions.get(level, 0) + 1
        if strict and action is not None and action not in view["legal"]:
            raise BotError(f"{level} at seat {seat} chose {action}, legal {view['legal']}")
        return action

    n = players
    while s.phase != "over":
        if s.phase == "check":
            caught = False
            for k in range(1, n + 1):
                if legal_actions(s, k):
                    a = ask(k)
                    if a is not None:
                        act(k, a)
                        out.actions += 1
                        if on_action:
                            on_action(s, k, a)
                        caught = True
                        break
            if not caught and s.phase == "check":
                act(None, {"type": "end_check"})
            continue
        turn = whose_turn(s)
        seat = turn[rng.randrange(len(turn))] if len(turn) > 1 else turn[0]
        view = see(seat)
        if not view["table"] and s.rules.trump_swap != "nobody":
            # менка: at a round start anyone holding the lowest trump may swap it
            for k in range(1, n + 1):
                if k != seat and any(a["type"] == "swap_trump" for a in legal_actions(s, k)):
                    a = ask(k)
                    if a is not None and a["type"] == "swap_trump":
                        act(k, a)
                        out.actions += 1
                        if on_action:
                            on_action(s, k, a)
                        view = see(seat)
        a = ask(seat, view)
        if a is None:
            raise BotError(f"{levels[seat]} at awaited seat {seat} returned None")
        try:
            act(seat, a)
        except IllegalAction as e:
            raise BotError(f"{levels[seat]} at seat {seat}: {a} refused: {e}") from e
        out.actions += 1
        if on_action:
            on_action(s, seat, a)
    out.result = s.result or {}
    return out
