"""The only writer of Game, GameSeat and GameEvent, one module per job (callers use this package's
names: ``from game import services; services.apply_player_action(...)``).

Every change is one transaction with the game row locked: check, apply the engine through the event
log (game.event_log.append: one event, one version), set the next deadline column, save. The frames
of the change are built under the lock and leave after the commit; the next bot move is queued
after the commit too. Deadlines are columns only: the one sweep (durak_site.deadlines, the game's
kinds registered by game.timers) fires the due ones by calling the ``fire_*`` functions, exactly as
a view would.

- ``start``: the countdown's end and the deal;
- ``moves``: a person's move (its checks), a bot's, the turn clock's and the check window's;
- ``presence``: leaving, bans, connect/disconnect, heartbeat, the absence clock, takeover;
- ``finish``: every end of a game (the board, abandoned, a moderator's abort), one path;
- ``changes``: a change saved (next deadline, then the one UPDATE or the end) and ``sending`` its
  frames sent after the commit;
- ``locking``: the hot path's SQL (the move's lock and UPDATE, the heartbeat) and the row locks;
- ``selectors``: reads for sockets and pages.

Direction: game calls down into lobby (lock a table for a start, "the game finished") and
accounts; it tells the apps above it through game.signals.
"""

from game.services.finish import abort_game, on_table_closed, record_void
from game.services.locking import SessionMoved
from game.services.moves import (
    ACTION_TYPES,
    LATE_CODES,
    MAX_ACTION_KEYS,
    MAX_MSG_ID,
    Applied,
    apply_bot_action,
    apply_player_action,
    bot_view,
    fire_check_deadline,
    fire_turn_deadline,
    move_bot,
    validate_action,
    validate_msg_id,
)
from game.services.presence import (
    TAKEOVER_LEVEL,
    fire_disconnect_deadline,
    hand_back,
    heartbeat,
    leave_game,
    on_player_banned,
    set_connected,
    takeover,
)
from game.services.selectors import connect_info, current_game, game_version, viewer_seat
from game.services.sending import republish
from game.services.start import fire_countdown, start_game
from game.services.turn_clock import halve_turn_clock

__all__ = [
    "ACTION_TYPES", "LATE_CODES", "MAX_ACTION_KEYS", "MAX_MSG_ID", "TAKEOVER_LEVEL", "Applied", "SessionMoved",
    "abort_game", "apply_bot_action", "apply_player_action", "bot_view", "connect_info", "current_game",
    "fire_check_deadline", "fire_countdown", "fire_disconnect_deadline", "fire_turn_deadline", "game_version",
    "halve_turn_clock", "hand_back", "heartbeat", "leave_game", "move_bot", "on_player_banned", "on_table_closed", "record_void",
    "republish", "set_connected", "start_game", "takeover", "validate_action", "validate_msg_id", "viewer_seat",
]
