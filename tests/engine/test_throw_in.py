"""The throw-in right (docs/RULES.md#throw-in-order) is one predicate, flow.throw_mask: legal_actions lists
exactly its cards, and whenever the defender is done the awaited throwers are exactly the seats it
lets throw (defender_done inlines it for speed, and throw_mask answers an awaited thrower from
that cache; this holds them to the rule written out below)."""
import random

from game.engine import apply_action, end_check, legal_actions, new_game, whose_turn
from game.engine.cards import CARD_CODE
from game.engine.flow import throw_mask
from game.engine.tools.selfplay import random_setup


def _throws(s, seat):
    m = 0
    for a in legal_actions(s, seat):
        if a["type"] == "attack":
            m |= 1 << CARD_CODE[a["card"]]
    return m


def _right(s, j):
    """The rule in words, the oracle: the cards seat j (0-based) may throw in now."""
    if j == s.defender or not s.elig >> j & 1:  # elig: not the defender's partner, not out
        return 0
    room = len(s.atk) < s.limit and s.dfn.count(-1) < s.hands[s.defender].bit_count()
    ranks = -1 if s.rules.cheater else s.rmask  # cheater mode: any card may be laid
    cards = s.hands[j] & ranks
    if not room or not cards:
        return 0
    if s.rules.throw_in == "anyone":  # anyone: a pass does not stop a later throw
        return cards
    if s.passed >> j & 1:  # starter_first: a pass is final, and the starter throws first
        return 0
    st = s.starter
    if j != st and s.elig >> st & 1 and not s.passed >> st & 1 and s.hands[st] & ranks:
        return 0
    return cards


def test_listed_throw_ins_and_awaited_throwers_follow_throw_mask():
    rng = random.Random(21)
    checked = 0
    for g in range(120):
        rules, n = random_setup(rng)
        s = new_game(rules, n, seed=g)
        while s.phase != "over":
            if s.phase == "check":
                s = end_check(s)
                continue
            if s.atk:
                for seat in range(1, n + 1):
                    if seat - 1 != s.defender:
                        assert _throws(s, seat) == throw_mask(s, seat - 1) == _right(s, seat - 1), (g, seat)
                if s.took or -1 not in s.dfn:  # the defender is done: throwers are awaited
                    want = [j + 1 for j in range(n)
                            if not s.passed >> j & 1 and _right(s, j)]
                    assert whose_turn(s) == want, (g, want)
                    checked += 1
            turn = whose_turn(s)
            seat = turn[rng.randrange(len(turn))]
            acts = legal_actions(s, seat)
            s = apply_action(s, seat, acts[rng.randrange(len(acts))])
    assert checked > 500
