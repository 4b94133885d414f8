"""Seeded bot games with their event logs, for the analysis benchmark and tests.

``record_game`` plays a game the way the server logs it: the seats' actions, and ``end_check``
as a server event (no seat) when a cheater-mode check window closes with no catch.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from game.engine.actions import apply_action, legal_actions
from game.engine.bots import choose_action, needs_reads
from game.engine.cheater import end_check
from game.engine.deal import new_game
from game.engine.reads import advance, reading_view, start
from game.engine.rules import Rules
from game.engine.state import GameState
from game.engine.types import Action
from game.engine.views import view_for, whose_turn

if TYPE_CHECKING:
    from game.engine.analysis.judge import Budget

Log = list[tuple[int | None, Action]]


def record_game(rules: Rules, players: int, seed: int, levels: Mapping[int, str]) -> tuple[GameState, Log]:
    """(the deal, the log) of one game where seat k is played by bot ``levels[k]``."""
    rng = random.Random(seed)
    initial = new_game(rules, players, seed=seed)
    s = initial
    log: Log = []
    reading = start(initial) if any(needs_reads(lv) for lv in levels.values()) else None

    def ask(seat: int) -> Action | None:
        view = view_for(s, seat) if reading is None else reading_view(s, seat, reading)
        return choose_action(levels[seat], view, rng)

    def act(seat: int | None, a: Action) -> None:
        nonlocal s, reading
        before = s
        s = end_check(s) if seat is None else apply_action(s, seat, a)
        if reading is not None:
            reading = advance(reading, before, s, seat, a)
        log.append((seat, a))

    while s.phase != "over":
        if s.phase == "check":
            for k in range(1, players + 1):
                if legal_actions(s, k):
                    a = ask(k)
                    if a is not None:
                        act(k, a)
                        break
            else:
                act(None, {"type": "end_check"})
            continue
        turn = whose_turn(s)
        seat = turn[rng.randrange(len(turn))] if len(turn) > 1 else turn[0]
        a = ask(seat)
        if a is None:
            raise RuntimeError(f"{levels[seat]} at awaited seat {seat} returned None")
        act(seat, a)
    return initial, log


def bench(games: int, *, rules: Rules | None = None, players: int = 2, seed: int = 1,
          levels: str = "heuristic", budget: Budget | None = None,
          out: Callable[[str], object] = print) -> dict[str, Any]:
    """Analyse ``games`` seeded bot games (every seat judged), printing a line per game and the
    figures; returns them. CPU seconds of this process, so other load on the machine does not count."""
    import statistics
    import time

    from game.engine.analysis.review import analyse

    rules = rules or Rules()
    names = levels.split(",")
    per_game, decisions, widths, exact = [], 0, [], 0
    for g in range(games):
        level_of = {k: names[(k - 1) % len(names)] for k in range(1, players + 1)}
        initial, log = record_game(rules, players, seed + g, level_of)
        t0, w0 = time.process_time(), time.perf_counter()
        result = analyse(initial, log, seed=f"bench-{seed + g}", budget=budget)
        cpu, wall = time.process_time() - t0, time.perf_counter() - w0
        judged = [r for r in result["decisions"] if r["kind"] == "judged"]
        per_game.append(cpu)
        decisions += len(judged)
        widths += [r["half_width"] for r in judged]
        exact += sum(1 for r in judged if r["exact"])
        marks = sum(1 for r in judged if r["mark"])
        out(f"game {seed + g}: {len(log)} events, {len(judged)} decisions judged ({marks} marked), "
            f"{cpu:.1f} s CPU, {wall:.1f} s wall")
    median = statistics.median(per_game)
    rate = decisions / sum(per_game) if sum(per_game) else 0.0
    within = sum(1 for w in widths if w <= 0.05)
    out(f"95% half-width of the played move's chance: max {100 * max(widths, default=0):.1f} points, "
        f"{within}/{len(widths)} within 5 points; {exact} decisions solved exactly")
    return {"games": games, "median": median, "rate": rate, "max_half_width": max(widths, default=0.0)}
