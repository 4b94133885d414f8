"""Scoring: wins, draws, losses, «в ударе» streaks, berserk, Swiss tie-breaks."""

from __future__ import annotations

from tournaments import scoring
from tournaments.scoring import BYE, DRAW, LOSS, WIN, SwissGame


def _run(results, berserk=False, moves=20):
    streak, total = 0, 0
    for r in results:
        s = scoring.arena(r, streak, berserk, moves)
        streak, total = s.streak, total + s.points
    return total, streak


def test_win_draw_loss_are_two_one_nothing():
    assert scoring.arena(WIN, 0).points == 2
    assert scoring.arena(DRAW, 0).points == 1
    assert scoring.arena(LOSS, 0).points == 0


def test_two_wins_in_a_row_make_the_third_count_double_until_a_non_win():
    assert _run([WIN, WIN, WIN]) == (2 + 2 + 4, 3)
    assert _run([WIN, WIN, WIN, WIN]) == (2 + 2 + 4 + 4, 4)
    assert _run([WIN, WIN, DRAW, WIN]) == (2 + 2 + 1 + 2, 1)  # the draw ends the streak (and is not doubled)
    assert _run([WIN, WIN, LOSS, WIN, WIN, WIN]) == (2 + 2 + 0 + 2 + 2 + 4, 3)


def test_berserk_adds_one_to_a_win_of_enough_moves_only():
    assert scoring.arena(WIN, 0, berserk=True, moves=scoring.BERSERK_MIN_MOVES).points == 3
    assert scoring.arena(WIN, 0, berserk=True, moves=scoring.BERSERK_MIN_MOVES - 1).points == 2
    assert scoring.arena(LOSS, 0, berserk=True, moves=50).points == 0
    assert scoring.arena(WIN, 2, berserk=True, moves=50).points == 5  # on fire: 4, the bonus not doubled


def test_performance_breaks_ties_by_opponents_and_results():
    assert scoring.performance(0, 0, 0, 0) == 0
    assert scoring.performance(3000, 2, 2, 0) == 1500 + 400
    assert scoring.performance(3000, 2, 1, 0) == 1500
    assert scoring.performance(3000, 2, 0, 2) == 1500


def test_swiss_points_and_bye():
    assert [scoring.swiss(r) for r in (WIN, DRAW, LOSS, BYE)] == [2, 1, 0, 2]
    assert scoring.display(5) == "2½" and scoring.display(1) == "½" and scoring.display(4) == "2"


def test_buchholz_and_sonneborn_berger():
    games = [SwissGame(1, 2, WIN), SwissGame(2, 1, LOSS), SwissGame(1, 3, DRAW), SwissGame(3, 1, DRAW),
             SwissGame(1, None, BYE)]
    scores = {1: 5, 2: 4, 3: 3}
    assert scoring.buchholz(1, games, scores) == 4 + 3
    assert scoring.sonneborn_berger(1, games, scores) == 2 * 4 + 3
