"""Post-game analysis: every decision of a finished game judged from the deciding seat's view.

Typical use (the site's analysis app does this in a Celery worker)::

    result = analyse(GameState.from_json(initial), [(seat, action), ...], seats=[1], seed="game-7")
    result["decisions"]   # one record per decision: chance played / best, drop, interval, mark
    result["seats"]       # per seat: accuracy, mark counts, patterns, turning point

How a move is judged: judge.py; what counts as a decision, marks and accuracy: review.py.
"""
from game.engine.analysis.judge import Budget, Estimate, Judgement, judge
from game.engine.analysis.patterns import PATTERNS, pattern_of
from game.engine.analysis.review import FORMAT, MARKS, analyse, judge_decision, mark_of, plan

__all__ = [
    "FORMAT",
    "MARKS",
    "PATTERNS",
    "Budget",
    "Estimate",
    "Judgement",
    "analyse",
    "judge",
    "judge_decision",
    "mark_of",
    "pattern_of",
    "plan",
]
