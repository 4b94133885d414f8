"""The only writer of the ratings models: game results, rating changes, voiding and series, one
module per job (callers use this package's names: ``from ratings import services``).

- ``results``: a finished game's record and rating changes (on game.signals.game_finished), voiding;
- ``series``: a series game scored (docs/RULES.md#series), the winners' choice of the next leader;
- ``club``: the club's membership rule and its lock;
- ``selectors``: reads for pages (labels, outcomes, standings, the club, suspicious pairs).
"""

from ratings.services.club import CLUB_SIZE
from ratings.services.results import COUNTERS, RATING_DELTA, on_game_finished, record_game_result, void_game
from ratings.services.selectors import (
    OUTCOME_LABELS,
    UNRATED_REASONS,
    SuspiciousPair,
    board_outcome,
    club_tables,
    game_outcomes,
    next_first_attacker,
    outcome_label,
    seat_outcomes,
    series_standings,
    suspicious_pairs,
    unrated_label,
)
from ratings.services.series import SERIES_DELTA, choose_series_leader, on_choose_first_attacker

__all__ = [
    "CLUB_SIZE", "COUNTERS", "OUTCOME_LABELS", "RATING_DELTA", "SERIES_DELTA", "UNRATED_REASONS", "SuspiciousPair",
    "board_outcome", "choose_series_leader", "club_tables", "game_outcomes", "next_first_attacker",
    "on_choose_first_attacker", "on_game_finished", "outcome_label", "record_game_result", "seat_outcomes",
    "series_standings", "suspicious_pairs", "unrated_label", "void_game",
]
