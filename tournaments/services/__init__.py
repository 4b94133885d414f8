"""The only writer of tournaments' models, one module per job (callers use this package's names).

- ``events``: creating an event, joining and leaving it;
- ``entries``: pause and return, berserk, a moderator removing a player;
- ``waves``: arena pairing waves (and when the next is due), seating a pairing, arriving at its
  table, reminding who has not come;
- ``rounds``: Swiss rounds (each at its stated time or when the round before ends);
- ``results``: a game's end scored, no-shows, voiding and recomputing;
- ``lifecycle``: the event's deadlines (warning, start, rounds, end; registered by
  tournaments/deadlines.py), the podium;
- ``schedule``: the standing events created ahead of time.
"""

from .entries import berserk, on_deal, pause, resume, return_wait
from .events import LATE_JOIN_CLOSES, create_private, create_scheduled, join, may_see, withdraw
from .lifecycle import (
    fire_end,
    fire_round,
    fire_start,
    fire_warn,
    remove_player,
    void_game,
    write_places,
)
from .results import fire_no_show, fire_no_shows, on_game_finished, recompute
from .rounds import ROUND_BREAK, check_round_over, stated_start, swiss_round
from .schedule import create_ahead, fire_schedule, schedule_changed
from .waves import (
    ARRIVE_SECONDS,
    arena_wave,
    arrived,
    fire_reminder,
    fire_wave,
    remind_table,
    request_wave,
    seat_pair,
)

__all__ = [
    "ARRIVE_SECONDS", "ROUND_BREAK", "stated_start", "LATE_JOIN_CLOSES", "arena_wave", "arrived", "berserk", "check_round_over", "create_ahead",
    "create_private", "create_scheduled", "fire_end", "fire_no_show", "fire_no_shows", "fire_reminder", "fire_round",
    "fire_schedule", "fire_start", "fire_warn", "fire_wave", "join", "may_see", "on_deal", "on_game_finished", "pause", "recompute",
    "remind_table", "remove_player", "request_wave", "resume", "return_wait", "schedule_changed", "seat_pair",
    "swiss_round", "void_game", "withdraw", "write_places",
]
