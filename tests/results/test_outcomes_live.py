"""Each seat's outcome of games played through game.services (docs/RULES.md#outcomes)."""

from __future__ import annotations

import random

import pytest
from results_helpers import (
    away_since,
    game,
    outcomes,
    play_until,
    player,
    seat_of,
    start,
    state,
    time_out,
    timed_out_seats,
)

from game import engine, frames
from game import services as game_services
from game.models import GameSeat
from ratings.models import PlayerGame, Rating

pytestmark = pytest.mark.django_db


def _by_board(game_id: int) -> dict[int, str]:
    res = game(game_id).result
    if res["draw"]:
        return dict.fromkeys((1, 2), "draw")
    return {n: "durak" if n in res["losers"] else "won" for n in (1, 2)}


def _ratings(*people) -> list[int]:
    return [Rating.objects.get(player=p).value for p in people]


def test_a_player_back_after_a_takeover_wins_or_loses_by_the_board_and_both_are_rated():
    alisa, boris = player("alisa", "10.0.0.1"), player("boris", "10.0.0.2")
    game_id = start([alisa, boris], policy="bot")
    rng = random.Random(7)
    play_until(game_id, rng, lambda: state(game_id).round >= 2)
    for _ in range(6):  # each slow once: the clock moved for both (auto moves, docs/RULES.md#turn-timer)
        if timed_out_seats(game_id) >= {1, 2}:
            break
        time_out(game_id)
    assert timed_out_seats(game_id) == {1, 2}
    away_since(game_id, boris, 80)  # he reloaded, then closed his tab; 75 s later a bot plays for him
    game_services.fire_disconnect_deadline(game_id, seat_of(game_id, boris))
    assert GameSeat.objects.get(game_id=game_id, player=boris).takeover_level
    play_until(game_id, rng, lambda: not GameSeat.objects.get(game_id=game_id, player=boris).takeover_level
               or state(game_id).round >= 3, limit=40)
    game_services.set_connected(game_id, boris, True)  # back in a new tab: his hand is his again
    play_until(game_id, rng, lambda: False)

    board = _by_board(game_id)
    result = game(game_id).result
    assert {n: row["outcome"] for n, row in outcomes(game_id).items()} == board
    assert result["left"] == [] and result["timed_out"] == []
    assert result["rated"] is True and result["unrated_reason"] == ""
    expected = {"won": 1015, "durak": 985, "draw": 1000}
    assert _ratings(alisa, boris) == [expected[board[1]], expected[board[2]]]
    assert not PlayerGame.objects.filter(left=True).exists()
    for n, row in outcomes(game_id).items():
        assert row["rating_after"] == expected[board[n]] and row["rating_change"] == expected[board[n]] - 1000
    frame = frames.view_frame(game(game_id), 2)  # what Boris's dialog and header read
    assert frame["result"]["outcomes"] == result["outcomes"] and frame["result"]["rated"] is True


def test_under_the_lose_timeout_policy_the_slow_seat_lost_on_time_and_the_other_won():
    ann, bob = player("ann", "10.0.0.1"), player("bob", "10.0.0.2")
    game_id = start([ann, bob], rules={"timeout": "lose"})
    play_until(game_id, random.Random(3), lambda: state(game_id).round >= 2)
    slow = engine.whose_turn(state(game_id))[0]
    time_out(game_id)
    result = game(game_id).result
    assert {n: r["outcome"] for n, r in outcomes(game_id).items()} == {slow: "lost_on_time", 3 - slow: "won"}
    assert result["timed_out"] == [slow]


def test_away_past_30_s_under_the_lose_policy_did_not_return_and_did_not_resign():
    tester, other = player("tester", "10.0.0.1"), player("other", "10.0.0.2")
    game_id = start([tester, other], policy="lose")
    play_until(game_id, random.Random(5), lambda: state(game_id).round >= 2)
    away_since(game_id, tester, 40)
    game_services.fire_disconnect_deadline(game_id, seat_of(game_id, tester))
    rows = outcomes(game_id)
    assert rows[seat_of(game_id, tester)]["outcome"] == "did_not_return"
    assert rows[seat_of(game_id, other)]["outcome"] == "won"
    line = PlayerGame.objects.get(player=tester)
    assert line.reason == "did_not_return" and line.left and line.delta == -15


def test_pressing_leave_is_left_and_a_moderator_abort_is_aborted_and_unrated():
    ann, bob = player("ann", "10.0.0.1"), player("bob", "10.0.0.2")
    game_id = start([ann, bob], policy="lose")
    play_until(game_id, random.Random(9), lambda: state(game_id).round >= 2)
    game_services.leave_game(game_id, bob)
    assert {r["outcome"] for r in outcomes(game_id).values()} == {"left", "won"}
    assert outcomes(game_id)[seat_of(game_id, bob)]["outcome"] == "left"

    cat, dan = player("cat"), player("dan")
    other = start([cat, dan])
    game_services.abort_game(other, "test")
    g = game(other)
    assert [r["outcome"] for r in outcomes(other).values()] == ["aborted", "aborted"]
    assert g.result["rated"] is False and g.result["unrated_reason"] == "aborted" == g.unrated_reason
