"""Deadlines: firing the overdue ones (docs/ARCHITECTURE.md, "The live path").

Every pending deadline is a column (Game.deadline + deadline_kind, GameSeat.disconnect_deadline,
Table.countdown_deadline / rematch_deadline, Seat.inactive_deadline). Setting one costs a move
nothing beyond its UPDATE: no broker message. ONE sweeper fires them: ``sweep()``. WHEN to sweep is
the ``Pacer``'s decision. Celery beat's scheduler (game/beat.py) enqueues the sweeps it asks for and
a worker runs them; the in-process ticker (the embedded default and the test live server) runs
them itself.

- ``firings``: firing one deadline (``fire``): lock, re-check, call the owning service;
- ``sweep``: listing every overdue row and firing each (``sweep``);
- ``pacer``: when to sweep (``Pacer``, ``next_deadline``, ``wait_for``);
- ``ticker``: the in-process ticker thread and where it runs;
- ``base``: what they share (the pending columns, the derived deadlines, the retry memory).

Callers use this package's names: ``from game import timers; timers.sweep()``.
"""

from game.timers.base import bot_grace, heartbeat_timeout, lobby_heartbeats
from game.timers.firings import GAME_KINDS, KINDS, TABLE_KINDS, Fired, fire
from game.timers.pacer import Pacer, next_deadline, wait_for
from game.timers.sweep import sweep
from game.timers.ticker import run_paced, start_ticker, stop_ticker

__all__ = [
    "GAME_KINDS", "KINDS", "TABLE_KINDS", "Fired", "Pacer", "bot_grace", "fire",
    "heartbeat_timeout", "lobby_heartbeats", "next_deadline",
    "run_paced", "start_ticker", "stop_ticker", "sweep", "wait_for",
]
