"""Exact endgame search for two players: once the stock is down to the face-up trump (or empty)
and only two seats are left, every card is known to both (the discard memory tells the rest), so
the game is one of perfect information and a bounded alpha-beta search plays it perfectly.

Values are from one seat's side: 1 it is not the durak, 0 it is, ½ a draw. The search gives up
(returns None) past ``max_nodes`` positions, or when a position comes back on its own line (in
perevodnoy a transfer and a take can undo each other, so the tree has cycles and the values in the
table would depend on the path), and the expert falls back to sampling.
"""
from __future__ import annotations

from typing import Any

from game.engine.actions import apply_action, legal_actions
from game.engine.bots.rollout import policy, value
from game.engine.seats import TURN_OF
from game.engine.state import GameState
from game.engine.types import Action


class _Budget(Exception):
    """The node budget ran out, or the line repeated a position: no exact answer here."""


def heads_up_honest(s: GameState) -> bool:
    """Two seats left, no cheating, a play phase."""
    return s.phase == "play" and s.n - s.out_mask.bit_count() == 2 and not s.rules.cheater


def solvable(s: GameState) -> bool:
    """Heads-up and honest (``heads_up_honest``) with at most the face-up trump in the stock."""
    return len(s.stock) <= 1 and heads_up_honest(s)


class Solver:
    """Alpha-beta over engine states with a transposition table of bounds."""

    def __init__(self, seat: int, max_nodes: int) -> None:
        self.seat = seat
        self.max_nodes = max_nodes
        self.nodes = 0
        self.table: dict[tuple[Any, ...], tuple[float, float]] = {}
        self.line: set[tuple[Any, ...]] = set()  # the positions on the path being searched

    def best(self, s: GameState, moves: list[Action]) -> tuple[Action, float] | None:
        """The best of ``moves`` for ``self.seat`` at ``s`` and its value; None past the budget."""
        try:
            best, best_v = None, -1.0
            for a in self._order(s, self.seat, moves):
                v = self._value(apply_action(s, self.seat, a), best_v, 1.0)
                if v > best_v:
                    best, best_v = a, v
                    if v >= 1.0:
                        break
            return (best, best_v) if best is not None else None
        except _Budget:
            return None

    def values(self, s: GameState, moves: list[Action]) -> list[float] | None:
        """The exact value of each of ``moves`` for ``self.seat`` at ``s`` (the analysis compares
        every move, not just the best); None past the budget."""
        try:
            return [self._value(apply_action(s, self.seat, a), -1.0, 2.0) for a in moves]
        except _Budget:
            return None

    def _order(self, s: GameState, seat: int, moves: list[Action]) -> list[Action]:
        """The playout habit's move first: a good first guess makes alpha-beta cut early."""
        first = policy(s, seat, moves)
        return [first] + [a for a in moves if a is not first]

    def _key(self, s: GameState) -> tuple[Any, ...]:
        return (tuple(s.hands), s.atk, s.dfn, s.defender, s.starter, s.took, s.passed, s.limit,
                s.turn, s.round == 1, s.shown, s.stock, s.out_mask)

    def _value(self, s: GameState, alpha: float, beta: float) -> float:
        if s.phase != "play":
            return value(s.result, self.seat)
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _Budget
        key = self._key(s)
        lo, hi = self.table.get(key, (0.0, 1.0))
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        if key in self.line:
            raise _Budget
        self.line.add(key)
        seat = TURN_OF[s.turn][0]
        moves = self._order(s, seat, legal_actions(s, seat))
        try:
            if seat == self.seat:
                v = -1.0
                for a in moves:
                    v = max(v, self._value(apply_action(s, seat, a), alpha, beta))
                    alpha = max(alpha, v)
                    if v >= beta:
                        break
            else:
                v = 2.0
                for a in moves:
                    v = min(v, self._value(apply_action(s, seat, a), alpha, beta))
                    beta = min(beta, v)
                    if v <= alpha:
                        break
        finally:
            self.line.discard(key)
        if v <= a0:
            self.table[key] = (lo, v)  # an upper bound
        elif v >= b0:
            self.table[key] = (v, hi)  # a lower bound
        else:
            self.table[key] = (v, v)
        return v
