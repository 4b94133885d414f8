"""Post-game analysis (game/engine/analysis): judged from the seat's view only, seeded, exact where
the endgame solver settles a position, and never marking a forced move."""
from __future__ import annotations

import random

from scenario_kit import act
from scenario_kit import game as scenario_game

from game.engine import Rules, legal_actions, view_for
from game.engine.analysis import Budget, analyse, judge_decision, mark_of, plan
from game.engine.analysis.bench import record_game
from game.engine.analysis.review import Decision
from game.engine.bots.endgame import Solver, solvable
from game.engine.bots.sample import Sampler
from game.engine.cards import bits

SMALL = Budget(min_worlds=8, max_worlds=16, batch=8, max_nodes=20000)


def _game(seed: int = 3, rules: Rules | None = None, players: int = 2, levels=None):
    levels = levels or {k: ("lowest" if k % 2 else "heuristic") for k in range(1, players + 1)}
    return record_game(rules or Rules(), players, seed, levels)


def _solved_decision():
    """A heads-up endgame decision where one move wins for sure and another loses for sure."""
    for seed in range(40):
        initial, log = _game(seed)
        for d in plan(initial, log).decisions:
            view = view_for(d.state, d.seat)
            world = Sampler(view).deal(random.Random(0))
            if not solvable(world):
                continue
            moves = view["legal"]
            values = Solver(d.seat, SMALL.max_nodes).values(world, moves)
            if values and 1.0 in values and 0.0 in values:
                return d, moves, values
    raise AssertionError("no solved endgame with a winning and a losing move in 40 games")


def test_an_endgame_the_solver_settles_names_its_move_best_and_marks_the_losing_one():
    d, moves, values = _solved_decision()
    losing = moves[values.index(0.0)]
    record = judge_decision(Decision(d.step, d.seat, losing, d.state, False), "t", SMALL)
    assert record["exact"] is True and record["kind"] == "judged"
    world = Sampler(view_for(d.state, d.seat)).deal(random.Random(0))
    best_move, best_value = Solver(d.seat, 30000).best(world, moves)
    assert best_value == 1.0
    assert record["best_chance"] == 1.0 and record["chance"] == 0.0
    assert values[moves.index(record["best"])] == 1.0
    assert record["mark"] == "??" and record["drop"] == 1.0 and record["drop_half_width"] == 0.0
    winning = judge_decision(Decision(d.step, d.seat, moves[values.index(1.0)], d.state, False), "t", SMALL)
    assert winning["mark"] == "" and winning["drop"] == 0.0 and winning["kept"] == 1.0


def test_a_forced_move_is_never_judged_or_marked():
    initial, log = _game(5)
    judged_steps = {d.step for d in plan(initial, log).decisions}
    state, forced = initial, []
    from game.engine.log import apply_event
    for step, (seat, action) in enumerate(log, start=1):
        if seat is not None and len(legal_actions(state, seat)) == 1:
            forced.append(step)
        state = apply_event(state, seat, action)
    assert forced, "the game had no forced move to check"
    assert not judged_steps & set(forced)
    result = analyse(initial, log, seed="t", budget=SMALL)
    assert not {r["step"] for r in result["decisions"]} & set(forced)


def test_marks_need_a_drop_beyond_its_own_uncertainty():
    assert mark_of(0.25, 0.05) == "??" and mark_of(0.12, 0.05) == "?" and mark_of(0.06, 0.05) == "?!"
    assert mark_of(0.25, 0.30) == "" and mark_of(0.04, 0.0) == ""


def _hide_differently(state, seat: int, rng: random.Random):
    """The same position with the cards ``seat`` cannot see dealt again: the other hands' unknown
    cards and the stock below the face-up trump, counts kept."""
    s = state.copy()
    me = seat - 1
    hidden = []
    for j, h in enumerate(s.hands):
        if j != me:
            hidden += list(bits(h & ~s.known))
    stock_hidden = list(s.stock[:-1])
    pool = hidden + stock_hidden
    rng.shuffle(pool)
    k = 0
    hands = s.hands[:]
    for j, h in enumerate(s.hands):
        if j == me:
            continue
        n = (h & ~s.known).bit_count()
        hands[j] = h & s.known
        for c in pool[k:k + n]:
            hands[j] |= 1 << c
        k += n
    s.hands = hands
    if s.stock:
        s.stock = (*pool[k:], s.stock[-1])
    return s


def test_no_hidden_card_changes_any_estimate_of_the_seat():
    initial, log = _game(7)
    rng = random.Random(1)
    checked = 0
    for d in plan(initial, log, seats=[1]).decisions[:10]:
        other = _hide_differently(d.state, 1, rng)
        assert other.hands != d.state.hands or other.stock != d.state.stock or not d.state.stock
        a = judge_decision(d, "t", SMALL)
        # the same public reads (replayed from the log): only the hidden cards differ
        assert d.reading is not None
        b = judge_decision(Decision(d.step, d.seat, d.action, other, False, d.reading), "t", SMALL)
        assert a == b, d.step
        checked += a["kind"] == "judged"
    assert checked >= 5


def test_the_same_game_analysed_twice_gives_identical_results():
    initial, log = _game(11)
    first = analyse(initial, log, seed="g11", budget=SMALL)
    again = analyse(initial, log, seed="g11", budget=SMALL)
    assert first == again
    assert first["seats"]["1"]["judged"] > 5 and 0 < first["seats"]["1"]["accuracy"] <= 1


def test_every_variant_is_analysed_and_bot_takeovers_count_for_nobody():
    settings = [
        (Rules(variant="perevodnoy"), 3),
        (Rules(pairs=True), 4),
        (Rules(deck_size=24), 2),
        (Rules(deck_size=52, cheater=True), 5),
    ]
    for k, (rules, players) in enumerate(settings):
        initial, log = _game(20 + k, rules, players)
        # seat 1 handed to a bot after its third event: a takeover, as the server logs it
        mine = [i for i, (s, _a) in enumerate(log) if s == 1]
        cut = mine[min(2, len(mine) - 1)] + 1
        log = [*log[:cut], (None, {"type": "set_bots", "seats": [1]}), *log[cut:]]
        result = analyse(initial, log, seed="v", budget=Budget(min_worlds=4, max_worlds=4, batch=4, max_nodes=2000))
        rows = [r for r in result["decisions"] if r["seat"] == 1]
        assert any(r["by"] == "bot" for r in rows) or len(mine) <= 3
        assert all(r["by"] == "player" for r in rows if r["step"] <= cut)
        assert result["seats"]["1"]["judged"] == sum(1 for r in rows if r["by"] == "player" and r["kind"] == "judged")
        for r in result["decisions"]:
            if r["kind"] in ("cheat", "catch", "forced"):
                assert r["mark"] == ""
            if r["kind"] == "judged":
                assert 0.0 <= r["chance"] <= r["best_chance"] + 1e-9 or r["best"] == r["played"]


def test_a_trump_ace_spent_on_a_six_that_a_seven_beats_is_marked():
    s = scenario_game([["6H", "8C", "9D", "10C", "JD", "QC"], ["7H", "AS", "6C", "7D", "8D", "9C"]], "7S", first_attacker=1)
    s = act(s, 1, "attack", "6H")
    # the judge rates the ace at about 5-8 points here: enough worlds that the mark is no coin toss
    deep = Budget(min_worlds=1600, max_worlds=1600, target=0.0)
    record = judge_decision(Decision(2, 2, {"type": "defend", "card": "AS", "target": "6H"}, s, False), "ace", deep)
    assert record["best"] == {"type": "defend", "card": "7H", "target": "6H"}
    assert record["mark"] in ("?!", "?", "??") and record["drop"] > record["drop_half_width"]
    assert record["pattern"] == "trump_spent" and record["half_width"] <= 0.05


def test_another_process_gives_the_same_analysis():
    """Two workers: a fresh interpreter (its own string hashing) analyses the same game identically."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import json\n"
        "from game.engine import Rules\n"
        "from game.engine.analysis import Budget, analyse\n"
        "from game.engine.analysis.bench import record_game\n"
        "initial, log = record_game(Rules(variant='perevodnoy'), 3, 13, {1: 'lowest', 2: 'heuristic', 3: 'lowest'})\n"
        "print(json.dumps(analyse(initial, log, seed='two', budget=Budget(min_worlds=8, max_worlds=16, batch=8,"
        " max_nodes=20000))))\n")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONHASHSEED": "12345"})
    initial, log = _game(13, Rules(variant="perevodnoy"), 3)
    here = analyse(initial, log, seed="two", budget=SMALL)
    assert json.loads(out.stdout) == json.loads(json.dumps(here))


def test_cheater_mode_a_dishonest_move_and_a_catch_are_listed_not_estimated():
    s = scenario_game([["6H", "8C", "9D", "10C", "JD", "QC"], ["7H", "AS", "6C", "7D", "8D", "9C"]], "7S",
                      first_attacker=1, cheater=True)
    s = act(s, 1, "attack", "6H")
    assert s.rules.cheater
    cheat = {"type": "defend", "card": "6C", "target": "6H"}  # a six of clubs does not beat a six of hearts
    record = judge_decision(Decision(2, 2, cheat, s, False), "c", SMALL)
    assert record["kind"] == "cheat" and record["mark"] == "" and "chance" not in record
    honest = judge_decision(Decision(2, 2, {"type": "defend", "card": "7H", "target": "6H"}, s, False), "c", SMALL)
    assert honest["kind"] == "judged"
    assert all(o["action"] != cheat for o in honest["options"])  # only honest moves are compared
    s2 = act(s, 2, "defend", "6C", target="6H")
    caught = judge_decision(Decision(3, 1, {"type": "catch", "card": "6C"}, s2, False), "c", SMALL)
    assert caught["kind"] == "catch" and caught["mark"] == ""
