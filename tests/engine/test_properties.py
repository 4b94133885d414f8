"""Property tests: random legal play under every rule combination keeps the engine's invariants.

After every action (``game.engine.tools.selfplay.Checker``): each card in exactly one place; view hand
counts match; every defence beats its attack (except cheater mode); throw-in ranks were on the
table; attack cards within the round limit; turn order (awaited seats can act, others only as
``legal`` allows, out-of-turn and garbage actions raise IllegalAction and change nothing); pairs
never attack or throw in on a partner; secrecy of every seat's and the spectator's view; JSON
round-trip of the state; termination. HYPOTHESIS_PROFILE=long runs a longer search.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.engine import (
    RULE_CHOICES,
    GameState,
    IllegalAction,
    Rules,
    apply_action,
    legal_actions,
    new_game,
    resign,
    view_for,
)
from tests.engine.invariants import (
    PROFILE,
    Checker,
    InvariantError,
    card_places,
    deck_of,
    play_checked_game,
    setups,
)


def _chooser(data: st.DataObject):
    """Let Hypothesis make every choice of the game (so a failure shrinks to a short game)."""

    def pick(rng, k: int) -> int:
        return 0 if k <= 1 else data.draw(st.integers(0, k - 1))

    return pick


@PROFILE
@given(setup=setups(), seed=st.integers(0, 2**31), data=st.data())
def test_random_legal_play_keeps_every_invariant(setup, seed, data):
    rules, players = setup
    rep = play_checked_game(
        seed, rules, players, roundtrip_every=1, refuse_every=3, chooser=_chooser(data)
    )
    assert rep.error is None, f"seed {seed} players {players} {rules.to_dict()}: {rep.error}"


@PROFILE
@given(setup=setups(), seed=st.integers(0, 2**31))
def test_bot_and_random_play_keeps_every_invariant(setup, seed):
    rules, players = setup
    rep = play_checked_game(seed, rules, players, roundtrip_every=3, refuse_every=5)
    assert rep.error is None, f"seed {seed} players {players} {rules.to_dict()}: {rep.error}"


@pytest.mark.parametrize("name", sorted(RULE_CHOICES))
def test_every_setting_value_is_played_to_the_end(name):
    """Each value of each setting, otherwise defaults: 2 seeded games with all checks."""
    for value in RULE_CHOICES[name]:
        rules = Rules(**{name: value})
        players = 4 if rules.pairs else 3
        for seed in range(2):
            rep = play_checked_game(seed, rules, players, roundtrip_every=2, refuse_every=4)
            assert rep.error is None, f"{name}={value!r} seed {seed}: {rep.error}"
            assert rep.result is not None


def test_cards_are_kept_when_a_game_ends_mid_round():
    """Engine bug #1 (.notes/engine-bugs.md): a resign with cards on the table loses them."""
    s = new_game(Rules(), 2, seed=1)
    lead = view_for(s, None)["attacker"]
    s = apply_action(s, lead, legal_actions(s, lead)[0])
    ended = resign(s, lead)
    cards = [c for place in card_places(ended).values() for c in place]
    assert sorted(cards) == sorted(deck_of(36))


def test_checker_catches_a_broken_state():
    """The invariant checker is not vacuous: a duplicated card and a leaked hand are reported."""
    s = new_game(Rules(), 3, seed=5)
    chk = Checker(Rules(), 3)
    chk.check(s)
    d = s.to_json()
    d["hands"][0].append(d["hands"][1][0])
    with pytest.raises(InvariantError, match="more than one place"):
        chk.check(GameState.from_json(d))

    leaky = Checker(Rules(), 3)
    v = view_for(s, 1)
    v["gone"] = view_for(s, 2)["hand"][:1]
    with pytest.raises(InvariantError, match="leaks"):
        leaky._check_views(s, [view_for(s, None), v, view_for(s, 2), view_for(s, 3)])


def test_out_of_turn_action_is_refused_and_changes_nothing():
    s = new_game(Rules(), 4, seed=11)
    lead = view_for(s, None)["attacker"]
    other = 1 + lead % 4
    card = view_for(s, other)["hand"][0]
    before = json.dumps(s.to_json())
    with pytest.raises(IllegalAction):
        apply_action(s, other, {"type": "attack", "card": card})
    assert json.dumps(s.to_json()) == before
