"""The table's reads (reads.py) and the belief built on them (bots/belief.py).

Reads are public: every bot's view carries the same list, replayed from the game's log; the rules
never record them (a live state, its JSON and ``view_for`` carry none); and changing only the
cards a seat could not see changes neither the reads, nor the view, nor the expert's decision. The
reading check:
a defender who took a six when a seven of that suit would have covered it probably had no such
seven, and the belief says so well above the uniform chance.
"""
from __future__ import annotations

import random
from dataclasses import replace

from game.engine import GameState, Reading, Rules, apply_action, new_game, read_table, reading_view, view_for
from game.engine.analysis.bench import record_game
from game.engine.analysis.judge import Budget
from game.engine.analysis.review import judge_decision, plan
from game.engine.bots import bot_for
from game.engine.bots.belief import Belief
from game.engine.bots.expert import ExpertBot
from game.engine.bots.rollout import playout, value
from game.engine.cards import CARD_CODE, DECK_MASK, bits, from_strs
from game.engine.reads import advance, start
from tests.engine.test_analysis import _hide_differently

# seat 1 holds a lone heart (6H); seat 2 holds no heart and no trump (spades, 7S face up)
SEAT1 = ["6H", "7C", "8C", "9D", "10D", "JC"]
SEAT2 = ["6C", "6D", "7D", "8D", "QC", "KD"]


def _deck() -> list[str]:
    dealt = [c for pair in zip(SEAT1, SEAT2, strict=True) for c in pair]
    rest = [r + s for s in "SHDC" for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    stock = [c for c in rest if c not in dealt and c != "7S"]
    random.Random(3).shuffle(stock)
    return dealt + stock + ["7S"]


TOOK_A_SIX = [(1, {"type": "attack", "card": "6H"}), (2, {"type": "take"})]


def _took_a_six() -> tuple[GameState, Reading]:
    """Seat 1 leads 6H, seat 2 takes it (no heart above six, no trump), seat 1 leads again: the
    state and the table's reads, replayed from the log."""
    s, reading = read_table(new_game(Rules(), 2, deck=_deck(), first_attacker=1), TOOK_A_SIX)
    assert view_for(s, 1)["turn"] == [1] and not s.atk  # the round closed: seat 1 leads
    return s, reading


def _chance_of(view, seat: int, holds, worlds: int = 3000) -> tuple[float, float]:
    """P(``holds(hand of seat)``) over uniform worlds and under the belief (importance weights)."""
    belief = Belief(view)
    rng = random.Random(5)
    uni = bel = mass = 0.0
    for _ in range(worlds):
        w = belief.uniform(rng)
        weight = belief.weight(w)
        hit = 1.0 if holds(w.hands[seat - 1]) else 0.0
        uni += hit
        bel += weight * hit
        mass += weight
    return uni / worlds, bel / mass


def test_a_take_is_read_as_no_cover_and_every_bots_view_carries_it():
    s, reading = _took_a_six()
    views = [reading_view(s, seat, reading) for seat in (1, 2, None)]
    assert all(v["reads"] == views[0]["reads"] for v in views)
    kinds = {(seat, kind): mask for seat, kind, mask, _drawn in views[0]["reads"]}
    hearts = from_strs([r + "H" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")])
    assert kinds[(2, "take")] == hearts
    assert kinds[(2, "take_trump")] & DECK_MASK[36] == from_strs([r + "S" for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")])
    assert (1, "lead") in kinds


def test_the_rules_record_no_reads_and_the_log_replays_them_move_by_move():
    """The live path pays nothing for the reads: no state field, no key in a saved state or in
    ``view_for`` (no frame can carry them); a bot's view gets them from the log, the same whether
    replayed at once or advanced move by move, and a state saved with reads still loads."""
    s, reading = _took_a_six()
    assert not hasattr(s, "reads") and not hasattr(s, "drawn")
    assert "reads" not in s.to_json() and "drawn" not in s.to_json()
    assert "reads" not in view_for(s, 1) and "drawn" not in view_for(s, 2)
    step = before = new_game(Rules(), 2, deck=_deck(), first_attacker=1)
    r = start(before)
    for seat, action in TOOK_A_SIX:
        after = apply_action(step, seat, action)
        r = advance(r, step, after, seat, action)
        step = after
    assert (r.reads, r.drawn) == (reading.reads, reading.drawn) and reading.reads
    assert reading.drawn == (1, 0)  # the refill: seat 1 drew the card it led, the taker none
    saved = {**s.to_json(), "reads": [[2, "take", ["7H"], 0]], "drawn": [1, 0]}
    assert GameState.from_json(saved) == s


def test_the_belief_puts_no_cover_for_the_six_well_above_the_uniform_chance():
    s, reading = _took_a_six()
    view = reading_view(s, 1, reading)
    hearts = from_strs([r + "H" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]) & ~s.known
    uniform, believed = _chance_of(view, 2, lambda hand: not hand & hearts)
    assert believed >= 3 * uniform and believed > 0.15, (uniform, believed)
    # the held-back seven in particular: less likely in his hand than uniform
    seven = 1 << CARD_CODE["7H"]
    if not view["hand"].count("7H"):
        u7, b7 = _chance_of(view, 2, lambda hand: bool(hand & seven))
        assert b7 < 0.75 * u7, (u7, b7)


def test_a_read_fades_as_its_seat_draws():
    """Cards drawn since the take may be the cover he lacked: the read weighs less."""
    s, reading = _took_a_six()
    view = reading_view(s, 1, reading)
    strong = Belief(view).terms
    faded = dict(view)
    faded["drawn"] = [view["drawn"][0], view["drawn"][1] + 5]
    weak = Belief(faded).terms
    assert strong and weak
    assert min(t[2][1] for t in weak) > min(t[2][1] for t in strong)


def test_a_perevodnoy_defender_who_covers_is_read_as_holding_no_card_to_transfer():
    _, reading = read_table(new_game(Rules(variant="perevodnoy"), 2, deck=_deck(), first_attacker=1),
                            TOOK_A_SIX)
    keep = [r for r in reading.reads if r[1] == "keep"]
    assert keep and keep[0][0] == 2
    assert set(bits(keep[0][2])) == {CARD_CODE[c] for c in ("6D", "6C")}  # the plain sixes


def test_changing_only_hidden_cards_keeps_every_read_and_every_expert_decision():
    """The expert's information set with the belief: every seat count and variant. A move reads
    the same in every re-deal of the cards its mover could not see that shows the table the same
    (who is awaited included: with 3+ seats it depends on the throwers' cards), and the expert
    decides the same on the re-dealt position with the same reads."""
    settings = [(Rules(), 2), (Rules(variant="perevodnoy"), 2), (Rules(variant="perevodnoy"), 3),
                (Rules(), 4), (Rules(pairs=True), 4)]
    bot = ExpertBot(iterations=48, pimc_worlds=3, pimc_tree=40, tree=40)
    checked = compared = 0
    for k, (rules, players) in enumerate(settings):
        s = new_game(rules, players, seed=40 + k)
        reading = start(s)
        rng = random.Random(k)
        steps = 0
        while not s.over and steps < 60:
            seat = view_for(s, None)["turn"][0]
            view = reading_view(s, seat, reading)
            redeals = [_hide_differently(s, seat, random.Random(r)) for r in range(8)]
            if steps % 9 == 8 and len(view["legal"]) >= 2 and view["reads"]:
                # a re-deal the seat could tell apart is not the same information set: try another
                same = [o for o in redeals if reading_view(o, seat, reading) == view
                        and (o.hands != s.hands or o.stock != s.stock)]
                for other in same[:1]:
                    a = bot.choose(view, random.Random(f"{k}:{steps}"))
                    b = bot.choose(reading_view(other, seat, reading), random.Random(f"{k}:{steps}"))
                    assert a == b
                    checked += 1
            action = bot_for("heuristic").choose(view, rng)
            after = apply_action(s, seat, action)
            nxt = advance(reading, s, after, seat, action)
            mover = view_for(s, seat)
            for o in redeals:
                if view_for(o, seat) != mover:  # its legal moves are worked out afresh
                    continue
                o_after = apply_action(o, seat, action)
                if view_for(o_after, None) == view_for(after, None):
                    again = advance(reading, o, o_after, seat, action)
                    assert (again.reads, again.drawn) == (nxt.reads, nxt.drawn)
                    compared += 1
            s, reading = after, nxt
            steps += 1
    assert checked >= 10 and compared >= 1000


def test_a_thrower_the_rules_do_not_await_is_read_as_holding_none_of_the_ranks():
    """Seat 1 leads 6H and has no other six: the take closes the round at once, so everyone saw
    that seat 1 held no six; the belief gives a world where it does now only the weight of the
    six having been drawn since (seat 1 drew one card after the round)."""
    s, reading = _took_a_six()
    none = [r for r in reading.reads if r[1] == "none"]
    assert none and none[0][0] == 1 and set(bits(none[0][2])) >= {CARD_CODE[c] for c in ("6S", "6D", "6C")}
    # seen from seat 2, a world giving seat 1 a six is (almost) impossible
    view = reading_view(s, 2, reading)
    sixes = from_strs(["6S"]) & ~s.known
    uniform, believed = _chance_of(view, 1, lambda hand: bool(hand & sixes), worlds=2000)
    assert uniform > 0.1 and believed < 0.4 * uniform, (uniform, believed)


def _decision(game: int, step: int):
    initial, log = record_game(Rules(), 2, game, {1: "heuristic", 2: "heuristic"})
    return next(d for d in plan(initial, log, seats=[1]).decisions if d.step == step)


def _true_chance(d, action, deals: int = 200) -> float:
    """The move's chance in the true deal (every hand as it was; the stock order, which nobody
    knows, shuffled), played out with the expert's habits."""
    total = 0.0
    for k in range(deals):
        w = d.state.copy()
        stock = list(w.stock[:-1])
        random.Random(k).shuffle(stock)
        w.stock = (*stock, w.stock[-1])
        total += value(playout(apply_action(w, d.seat, action), random.Random(k)), d.seat)
    return total / deals


def test_the_judge_reading_the_table_no_longer_marks_a_pass_the_true_deal_favours():
    """Seeded heuristic games where seat 1 kept its trump (passed) on a covered table: judged on
    uniform worlds the pass is a mistake (throw the trump in), judged on the belief's worlds (the
    opponent's covers, leads and the ranks he could not throw in) it is not, and in the true deal
    the pass is indeed at least as good."""
    for game, step, trump in ((5, 22, "6S"), (7, 28, "8S")):
        d = _decision(game, step)
        assert d.action == {"type": "pass"}
        uniform = judge_decision(d, "find", replace(Budget(), belief=1))
        believed = judge_decision(d, "find", Budget())
        assert uniform["mark"] and not believed["mark"], (game, uniform, believed)
        throw = {"type": "attack", "card": trump}
        assert _true_chance(d, d.action) >= _true_chance(d, throw)
