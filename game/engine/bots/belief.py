"""A belief over the hidden cards: worlds dealt in proportion to how well they explain the table.

The uniform sampler (sample.py) deals every unseen card at random. A strong player does better: one
who took a six when a seven of that suit would have covered it probably had no such seven. The view
carries the table's reads (reads.py): for each past move of a seat, the cards a habit player making
that move would probably not have held. A world is weighed by the likelihood of all the other
seats' reads under a softened model of how they play: a move that a habit player holding ``k`` of
the read's cards would make anyway has probability ``p`` (the kind's ``MODEL`` value, the floor that
keeps every world possible: players err, bluff or plan), and 1 when the seat held none of them.
A seat that has drawn cards since the move may have drawn those cards since: with a share ``f`` of
its unseen cards drawn after the move, the chance that ``k`` given cards all came later is
``f ** k``, so a read fades as its seat draws. Per read the likelihood is
``f ** k + (1 - f ** k) * p``, and a world's weight is their product over the reads.

Worlds are drawn by sampling-importance-resampling: ``pool`` uniform worlds are dealt and one is
kept with a chance proportional to its weight (``deal``). Only the view is read, so the belief, like
the sampler, never knows more than the seat.
"""
from __future__ import annotations

import math
import random

from game.engine.bots.sample import Sampler
from game.engine.cards import DECK_MASK
from game.engine.state import GameState
from game.engine.types import View

# The chance that a habit player makes the move although it held ``k >= 1`` of the read's cards
# (calibrated on seeded games by the hidden cards' log-likelihood: tools/belief_check.py).
MODEL: dict[str, float] = {
    "lead": 0.15,
    "throw": 0.2,
    "pass": 0.3,
    "cover": 0.1,
    "take": 0.15,
    "take_trump": 0.4,
    "keep": 0.4,
    "none": 0.01,  # a fact of the rules; the floor only covers a state saved mid-round
}
POOL = 6  # uniform worlds dealt for each world kept


class Belief(Sampler):
    """The sampler's worlds, weighed by the other seats' reads (module docstring)."""

    def __init__(
        self, view: View, honest: bool = True, model: dict[str, float] | None = None, pool: int = POOL,
        temper: float = 1.0,
    ) -> None:
        """``temper`` scales every read's log-likelihood (1: as the model says; 0: uniform)."""
        super().__init__(view, honest)
        self.draws = pool
        model = MODEL if model is None else model
        drawn = view.get("drawn") or []
        out = {int(x) - 1 for x in view["out"]}
        counts = view["hand_counts"]
        # per read: (seat index, mask of hidden cards it is about, log-likelihood by k)
        terms: list[tuple[int, int, tuple[float, ...]]] = []
        deck = DECK_MASK[self.rules.deck_size]
        for seat, kind, mask, at in view.get("reads") or []:
            j = int(seat) - 1
            p = model.get(kind)
            if j == self.me or j in out or p is None or not 0 <= j < self.n or p >= 1.0:
                continue
            hidden = int(mask) & deck & ~self.known[j] & ~self.held & ~self.gone
            if not hidden:
                continue
            unseen = int(counts[str(j + 1)]) - self.known[j].bit_count()
            since = (int(drawn[j]) if j < len(drawn) else 0) - int(at)
            f = min(1.0, since / unseen) if unseen > 0 else 1.0
            logs = tuple(
                0.0 if k == 0 else temper * math.log(f ** k + (1.0 - f ** k) * max(p, 1e-6))
                for k in range(min(unseen, hidden.bit_count()) + 1)
            )
            if any(logs):
                terms.append((j, hidden, logs))
        self.terms = terms

    def log_weight(self, world: GameState) -> float:
        """The log-likelihood of the other seats' reads in ``world`` (0 with no reads)."""
        hands = world.hands
        total = 0.0
        for j, mask, logs in self.terms:
            k = (hands[j] & mask).bit_count()
            total += logs[k] if k < len(logs) else logs[-1]
        return total

    def weight(self, world: GameState) -> float:
        """The likelihood of the reads in ``world`` (importance weight; 1 with no reads)."""
        return math.exp(max(self.log_weight(world), -700.0))

    def uniform(self, rng: random.Random) -> GameState:
        """A world of the uniform sampler, not weighed."""
        return Sampler.deal(self, rng)

    def deal(self, rng: random.Random) -> GameState:
        """One world, kept from ``pool`` uniform ones with a chance proportional to its weight."""
        if not self.terms or self.draws <= 1:
            return super().deal(rng)
        worlds = [Sampler.deal(self, rng) for _ in range(self.draws)]
        logs = [self.log_weight(w) for w in worlds]
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
        pick = rng.random() * sum(weights)
        for w, x in zip(worlds, weights, strict=True):
            pick -= x
            if pick <= 0:
                return w
        return worlds[-1]
