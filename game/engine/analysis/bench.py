"""Seeded bot games with their event logs, for the analysis benchmark and tests.

``record_game`` plays a game the way the server logs it: the seats' actions, and ``end_check``
as a server event (no seat) when a cheater-mode check window closes with no catch.
"""
from __future__ import annotations

import random
from collections.abc import Mapping

from game.engine.actions import apply_action, legal_actions
from game.engine.bots import choose_action
from game.engine.cheater import end_check
from game.engine.deal import new_game
from game.engine.rules import Rules
from game.engine.state import GameState
from game.engine.views import view_for, whose_turn

Log = list[tuple[int | None, dict]]


def record_game(rules: Rules, players: int, seed: int, levels: Mapping[int, str]) -> tuple[GameState, Log]:
    """(the deal, the log) of one game where seat k is played by bot ``levels[k]``."""
    rng = random.Random(seed)
    initial = new_game(rules, players, seed=seed)
    s = initial
    log: Log = []
    while s.phase != "over":
        if s.phase == "check":
            for k in range(1, players + 1):
                if legal_actions(s, k):
                    a = choose_action(levels[k], view_for(s, k), rng)
                    if a is not None:
                        s = apply_action(s, k, a)
                        log.append((k, a))
                        break
            else:
                s = end_check(s)
                log.append((None, {"type": "end_check"}))
            continue
        turn = whose_turn(s)
        seat = turn[rng.randrange(len(turn))] if len(turn) > 1 else turn[0]
        a = choose_action(levels[seat], view_for(s, seat), rng)
        if a is None:
            raise RuntimeError(f"{levels[seat]} at awaited seat {seat} returned None")
        s = apply_action(s, seat, a)
        log.append((seat, a))
    return initial, log
