"""The public-bot adapter contract, with a stand-in bot module (never the external code).

The stand-in is a tiny module written to a temporary checkout: it records every input it gets
and answers from it. The contract: its input comes from the seat's view only (re-dealing the
hidden cards of the real state changes nothing), answers our rules cannot play are replaced by a
legal action and counted, and a seeded match replays exactly.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from game.engine import Rules, apply_action, legal_actions, new_game, view_for, whose_turn
from game.engine.cards import CARD_STR, bits
from game.engine.tools import public_arena
from game.engine.tools.public_bots import (
    LarsenbierHybrid,
    Move,
    PublicBot,
    Seen,
    load_module,
    to_ours,
)

STAND_IN = '''
import random

CALLS = []


def choose(seen, mode):
    """Lowest playable card, or a deliberately illegal answer in mode "illegal"."""
    CALLS.append(seen)
    if mode == "illegal":
        return ("attack", ("XX",)) if seen.role != "defend" else ("defend", ("XX",))
    cards = sorted(seen.hand)
    pick = random.choice(cards)
    if seen.role == "defend":
        return ("take", ())
    if seen.role == "lead":
        return ("attack", (pick, pick))  # a two-card lead: split to one card
    return ("pass", ())
'''


class StandIn(PublicBot):
    """Adapter for the stand-in module: ``mode`` picks its behaviour."""

    name = "standin"
    mode = "normal"

    def load(self, path: Path) -> None:
        self.mod = load_module(path, "standin_bot")

    def decide(self, seen: Seen) -> Move:
        kind, cards = self.mod.choose(seen, self.mode)
        if kind == "defend":
            return Move(kind, cards, seen.unbeaten[:1])
        return Move(kind, cards)


class Illegal(StandIn):
    name = "illegal"
    mode = "illegal"


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("standin")
    (root / "standin_bot.py").write_text(STAND_IN)
    return root


def _mid_game(seed: int = 5):
    """A heads-up state a few moves in, with the stock still large."""
    s = new_game(Rules(), 2, seed=seed)
    rng = random.Random(seed)
    for _ in range(3):
        seat = whose_turn(s)[0]
        s = apply_action(s, seat, rng.choice(legal_actions(s, seat)))
    return s


def _redeal_hidden(s, seat: int, seed: int):
    """The same state with the opponent's hand and the stock (except its face-up trump) re-dealt."""
    opp = 3 - seat
    s2 = s.copy()
    hidden = list(bits(s.hands[opp - 1] & ~s.known)) + list(s.stock[:-1])
    random.Random(seed).shuffle(hidden)
    k = len(list(bits(s.hands[opp - 1] & ~s.known)))
    hands = list(s.hands)
    mask = s.hands[opp - 1] & s.known
    for c in hidden[:k]:
        mask |= 1 << c
    hands[opp - 1] = mask
    s2.hands = hands
    s2.stock = (*hidden[k:], *s.stock[-1:])
    return s2


def test_input_is_view_only(checkout: Path) -> None:
    s = _mid_game()
    seat = whose_turn(s)[0]
    s2 = _redeal_hidden(s, seat, 99)
    assert s2.hands[2 - seat] != s.hands[2 - seat] or s2.stock != s.stock
    bot = StandIn(checkout)
    calls = bot.mod.CALLS
    calls.clear()
    a1 = bot.choose(view_for(s, seat), random.Random(1))
    a2 = bot.choose(view_for(s2, seat), random.Random(1))
    assert len(calls) == 2 and calls[0] == calls[1]
    assert a1 == a2
    hidden = {CARD_STR[c] for c in bits(s.hands[2 - seat] & ~s.known)}
    seen = calls[0]
    assert not hidden & set(seen.hand) and not hidden & set(seen.opp_known)


def test_illegal_answers_are_corrected_and_counted(checkout: Path) -> None:
    bot = Illegal(checkout)
    s = _mid_game()
    seat = whose_turn(s)[0]
    view = view_for(s, seat)
    action = bot.choose(view, random.Random(0))
    assert action in view["legal"]
    assert bot.stats.corrected == bot.stats.decisions == 1


def test_to_ours_kinds() -> None:
    legal = [{"type": "attack", "card": "6H"}, {"type": "attack", "card": "9S"}]
    assert to_ours(Move("attack", ("6H",)), legal, "S") == (legal[0], "exact")
    assert to_ours(Move("attack", ("6H", "6C")), legal, "S") == (legal[0], "split")
    assert to_ours(Move("pass"), legal, "S")[1] == "corrected"
    assert to_ours(Move("attack", ("7H",)), legal, "S") == (legal[0], "corrected")


def test_seeded_match_is_reproducible(checkout: Path) -> None:
    rules = Rules(variant="perevodnoy")

    def match() -> list:
        public_arena._BOT.clear()
        return [(res, st.decisions, st.split, st.corrected)
                for res, _, st in public_arena.run(rules, "heuristic", StandIn, str(checkout),
                                                   4, 7, 1)]

    first = match()
    assert first == match()
    assert sum(d for _, d, _, _ in first) > 0
    assert any(sp for _, _, sp, _ in first)  # two-card leads were split


LARSENBIER_PLAYER = '''
class Player:
    def defenderActions(self):
        return [("e", ()), ("t", ("6H",)), ("d", ("7H",))]
'''


def test_larsenbier_adapter_leaves_its_transfers_out_of_podkidnoy(tmp_path: Path) -> None:
    (tmp_path / "durak.py").write_text(LARSENBIER_PLAYER)
    (tmp_path / "search.py").write_text("")
    try:
        bot = LarsenbierHybrid(tmp_path)
        again = LarsenbierHybrid(tmp_path)  # wraps its own move list, not the first wrapper
        player = bot.durak.Player()
        assert [a[0] for a in player.defenderActions()] == ["e", "t", "d"]
        again.transfers = False
        assert [a[0] for a in player.defenderActions()] == ["e", "d"]
        again.transfers = True
        assert [a[0] for a in player.defenderActions()] == ["e", "t", "d"]
    finally:
        for name in ("durak", "search"):
            sys.modules.pop(name, None)
        sys.path.remove(str(tmp_path.resolve()))
