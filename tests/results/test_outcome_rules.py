"""game.outcomes.decide: the reasons in their order, from the engine result and the server facts."""

from __future__ import annotations

from game.outcomes import SeatFacts, decide

BOARD = {"loser": 2, "losers": [2], "winners": [1, 3], "draw": False, "reason": "normal"}


def test_the_board_decides_when_nothing_else_happened():
    assert decide(BOARD, [SeatFacts(1), SeatFacts(2), SeatFacts(3)]) == {1: "won", 2: "durak", 3: "won"}


def test_a_draw_is_a_draw_for_everyone():
    assert decide({"draw": True, "losers": [], "winners": []}, [SeatFacts(1), SeatFacts(2)]) == {1: "draw", 2: "draw"}


def test_a_ban_comes_before_leaving_and_leaving_before_the_board():
    seats = [SeatFacts(1, banned=True, left=True), SeatFacts(2), SeatFacts(3, left=True, resigned_by="leave")]
    assert decide(BOARD, seats) == {1: "banned", 2: "durak", 3: "left"}


def test_not_returning_and_losing_on_time_are_named_as_such():
    seats = [SeatFacts(1, left=True, resigned_by="disconnect"), SeatFacts(2, resigned_by="timeout")]
    assert decide({"loser": 2, "losers": [2], "winners": [1]}, seats) == {1: "did_not_return", 2: "lost_on_time"}


def test_an_aborted_game_is_aborted_except_for_those_who_left_it():
    seats = [SeatFacts(1), SeatFacts(2, left=True, resigned_by="leave")]
    assert decide({}, seats, aborted=True) == {1: "aborted", 2: "left"}


def test_a_game_recorded_before_the_outcomes_reads_its_left_list():
    assert decide({**BOARD, "left": [1]}, [SeatFacts(1), SeatFacts(2), SeatFacts(3)])[1] == "left"
