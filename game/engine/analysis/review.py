"""A finished game's log gone over decision by decision (the "Разбор партии").

A decision is an event of a seat that had two or more legal moves (a forced move is never judged).
Judged only from that seat's view at that moment (judge.py). Decisions of a seat while a bot
played it (a takeover, a bot seat) are listed as the bot's and count for nobody.

Cheater mode: the worlds are played honestly, and the moves compared are the honest ones. A catch,
and a dishonest move, is listed as such and not estimated: whether it pays depends on whether the
others notice, which no world of the seat's information set can say. It counts for no accuracy
and gets no mark.

Marks: the drop (the best move's chance minus the played move's) of at least 20 / 10 / 5
percentage points gives «??» / «?» / «?!», only when the drop is larger than its own 95 %
half-width (a move is not a mistake because of sampling noise). Accuracy of a seat: the average
share of the best move's chance that the played move kept (min(1, played / best), 1 when the best
is 0), over its judged decisions.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from game.engine.analysis.judge import Budget, Judgement, confirm, judge
from game.engine.analysis.patterns import pattern_of
from game.engine.bots.base import is_honest
from game.engine.bots.expert import candidates
from game.engine.bots.heuristic import HeuristicBot
from game.engine.log import apply_event
from game.engine.reads import Reading, advance, reading_view, start
from game.engine.state import GameState
from game.engine.types import Action, View
from game.engine.views import view_for

FORMAT = 1
MARKS = (("??", 0.20), ("?", 0.10), ("?!", 0.05))
Progress = Callable[[int, int], None]
_HABIT = HeuristicBot()


@dataclass
class Decision:
    """One event of a seat with a choice: ``step`` is the event's 1-based index in the log (the
    replay's frame after it), ``state`` the position before it, ``reading`` the table's reads so
    far (reads.py: the judge reads the table as the expert does; None: none)."""

    step: int
    seat: int
    action: Action
    state: GameState
    by_bot: bool
    reading: Reading | None = None


@dataclass
class Plan:
    """The decisions of a game and how many events it had."""

    decisions: list[Decision] = field(default_factory=list)
    events: int = 0


def plan(initial: GameState, events: Iterable[tuple[int | None, Mapping[str, Any]]], seats: Iterable[int] | None = None) -> Plan:
    """Replay the log (with the table's reads) and collect the decisions of ``seats`` (all seats
    when None)."""
    wanted = set(seats) if seats is not None else None
    state = initial
    reading = start(initial)
    out = Plan()
    for step, (seat, action) in enumerate(events, start=1):
        kind = action.get("type") if isinstance(action, dict) else None
        if seat is not None and kind != "resign" and (wanted is None or seat in wanted):
            legal = view_for(state, seat)["legal"]
            if len(legal) >= 2:
                out.decisions.append(Decision(step, seat, cast(Action, action), state,
                                              bool(state.bots >> (seat - 1) & 1), reading))
        after = apply_event(state, seat, action)
        reading = advance(reading, state, after, seat, action)
        state = after
        out.events = step
    return out


def _same(a: Action, b: Action) -> bool:
    """Whether logged action ``a`` is legal move ``b`` (the log may carry extra keys)."""
    return all(a.get(k) == v for k, v in b.items())


def moves_to_compare(view: View, played: Action, most: int) -> tuple[list[Action], int] | None:
    """(the honest moves worth comparing, the index of the played one), or None when the played
    move is a catch or dishonest, or fewer than two honest moves were open."""
    legal = view["legal"]
    match = next((a for a in legal if _same(played, a)), None)
    if match is None or match["type"] == "catch" or not is_honest(match, view):
        return None
    honest = [a for a in legal if a["type"] != "catch" and is_honest(a, view)]
    if len(honest) < 2:
        return None
    habit = _HABIT.choose(view, random.Random(0))
    moves = candidates(honest, view, match, most)
    if habit in honest and habit not in moves:
        moves.append(habit)
    return moves, moves.index(match)


def kind_of(view: View, played: Action) -> str:
    """Why a decision is not estimated: a catch, a dishonest move, or one honest move only."""
    match = next((a for a in view["legal"] if _same(played, a)), None)
    if match is None:
        return "unjudged"
    if match["type"] == "catch":
        return "catch"
    return "forced" if is_honest(match, view) else "cheat"


def mark_of(drop: float, half_width: float) -> str:
    """«??» / «?» / «?!» for a drop beyond its own uncertainty, "" otherwise."""
    if drop <= half_width:
        return ""
    for mark, at in MARKS:
        if drop >= at:
            return mark
    return ""


def judge_decision(d: Decision, seed: str, budget: Budget) -> dict[str, Any]:
    """The JSON-ready record of one decision (see ``analyse``)."""
    view = view_for(d.state, d.seat) if d.reading is None else reading_view(d.state, d.seat, d.reading)
    base = {"step": d.step, "seat": d.seat, "round": d.state.round, "played": d.action,
            "by": "bot" if d.by_bot else "player", "stock": view["stock"]}
    found = moves_to_compare(view, d.action, budget.max_moves)
    if found is None:
        return {**base, "kind": kind_of(view, d.action), "mark": ""}
    moves, played = found
    j: Judgement | None = judge(view, moves, played, f"{seed}:{d.step}:{d.seat}", budget)
    if j is None:
        return {**base, "kind": "unjudged", "mark": ""}
    mine, top = j.estimates[played], j.estimates[j.best]
    chance, half_width, best_chance, best_hw = mine.chance, mine.half_width, top.chance, top.half_width
    hw = j.drop_half_width[played]
    worlds = j.worlds
    best_action = top.action
    mark = mark_of(max(0.0, best_chance - chance), hw) if j.best != played else ""
    if mark and not j.exact:  # measured again on fresh worlds before a move is called a mistake
        again = confirm(view, moves[played], top.action, f"{seed}:{d.step}:{d.seat}:again", budget)
        if again is not None:
            (p, b) = again.estimates
            chance, half_width, best_chance, best_hw = p.chance, p.half_width, b.chance, b.half_width
            hw = again.drop_half_width[0] if again.best == 1 else again.drop_half_width[1]
            worlds += again.worlds
            mark = mark_of(max(0.0, best_chance - chance), hw)
            if best_chance <= chance:  # the second look finds the move played as good: it was the best
                best_action, best_chance, best_hw = moves[played], chance, half_width
    drop = max(0.0, best_chance - chance)
    return {
        **base, "kind": "judged", "exact": j.exact, "worlds": worlds,
        "chance": round(chance, 4), "half_width": round(half_width, 4),
        "best": best_action, "best_chance": round(best_chance, 4), "best_half_width": round(best_hw, 4),
        "drop": round(drop, 4), "drop_half_width": round(hw, 4), "mark": mark,
        "kept": 1.0 if best_chance <= 0 else round(min(1.0, chance / best_chance), 4),
        "pattern": pattern_of(view, d.action, best_action) if mark else "",
        "options": [{"action": e.action, "chance": round(e.chance, 4), "half_width": round(e.half_width, 4)}
                    for e in j.estimates],
    }


def summary(records: list[dict[str, Any]], seats: Iterable[int]) -> dict[str, Any]:
    """Per seat: accuracy, mark counts, patterns, the turning point (its biggest marked drop)."""
    out: dict[str, Any] = {}
    for seat in seats:
        mine = [r for r in records if r["seat"] == seat and r["by"] == "player" and r["kind"] == "judged"]
        marks = {m: sum(1 for r in mine if r["mark"] == m) for m, _at in MARKS}
        patterns: dict[str, int] = {}
        for r in mine:
            if r["pattern"]:
                patterns[r["pattern"]] = patterns.get(r["pattern"], 0) + 1
        marked = [r for r in mine if r["mark"]]
        turning = max(marked, key=lambda r: (r["drop"], -r["step"]), default=None)
        out[str(seat)] = {
            "judged": len(mine),
            "bot_moves": sum(1 for r in records if r["seat"] == seat and r["by"] == "bot"),
            "accuracy": round(sum(r["kept"] for r in mine) / len(mine), 4) if mine else None,
            "marks": marks, "patterns": patterns,
            "turning": turning["step"] if turning else None,
        }
    return out


def analyse(initial: GameState, events: Iterable[tuple[int | None, Mapping[str, Any]]], *, seats: Iterable[int] | None = None,
            seed: str = "analysis", budget: Budget | None = None, progress: Progress | None = None) -> dict[str, Any]:
    """Judge every decision of ``seats`` in a game: ``events`` are the log's (seat, action) pairs
    in order. ``progress(done, total)`` is told after each decision. JSON-ready result."""
    budget = budget or Budget()
    seats = sorted(set(seats)) if seats is not None else list(range(1, initial.n + 1))
    p = plan(initial, events, seats)
    total = len(p.decisions)
    records = []
    if progress:
        progress(0, total)
    for k, d in enumerate(p.decisions, start=1):
        records.append(judge_decision(d, seed, budget))
        if progress:
            progress(k, total)
    return {
        "format": FORMAT, "events": p.events, "seats": summary(records, seats), "decisions": records,
        "marks": {m: at for m, at in MARKS},
        "budget": {"target": budget.target, "max_worlds": budget.max_worlds},
    }
