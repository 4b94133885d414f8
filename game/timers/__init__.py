"""The game's deadlines, and the waiting room's that start or end a game (docs/ARCHITECTURE.md,
"Registries"): registered with the site's one deadline registry (durak_site.deadlines) in
``GameConfig.ready()``, which sweeps, paces and drives them with every other app's.

Columns: Game.deadline (kinds "turn" and "check" by Game.deadline_kind), GameSeat.disconnect_deadline,
Table.countdown_deadline / rematch_deadline, Seat.inactive_deadline. Derived (the full sweep only):
a stale heartbeat, a waiting-room seat whose pings stopped, a bot nobody moved.

- ``firings``: firing one of them: lock, re-check, call the owning service;
- ``listers``: the overdue rows of each kind, and the pending rows the pacer watches;
- ``base``: the rules of the derived deadlines.
"""

from durak_site.deadlines import Deadline, register
from game.timers import listers
from game.timers.base import bot_grace, heartbeat_timeout, lobby_heartbeats
from game.timers.firings import FIRERS, GAME_KINDS, KINDS, TABLE_KINDS


def register_deadlines() -> None:
    """The game's kinds, in the order a sweep fires them (from ``GameConfig.ready()``)."""
    register(Deadline("turn", listers.game_deadlines("turn"), FIRERS["turn"],
                      watch=(listers.pending_games, "deadline")))
    register(Deadline("check", listers.game_deadlines("check"), FIRERS["check"]))  # "turn" watches the column
    register(Deadline("disconnect", listers.disconnects, FIRERS["disconnect"],
                      watch=(listers.pending_disconnects, "disconnect_deadline")))
    register(Deadline("countdown", listers.tables("countdown"), FIRERS["countdown"],
                      watch=(listers.pending_countdowns, "countdown_deadline")))
    register(Deadline("rematch", listers.tables("rematch"), FIRERS["rematch"],
                      watch=(listers.pending_rematches, "rematch_deadline")))
    register(Deadline("inactive", listers.seats, FIRERS["inactive"],
                      watch=(listers.pending_seats, "inactive_deadline")))
    register(Deadline("heartbeat", listers.heartbeats, FIRERS["heartbeat"], derived=True))
    register(Deadline("presence", listers.presence, FIRERS["presence"], derived=True))
    register(Deadline("bot", listers.bots, FIRERS["bot"], derived=True))


__all__ = ["GAME_KINDS", "KINDS", "TABLE_KINDS", "bot_grace", "heartbeat_timeout", "lobby_heartbeats",
           "register_deadlines"]
