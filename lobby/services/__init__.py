"""The only writer of lobby models: tables, seats, rules, ready and the 3-2-1 countdown, one module
per job (callers use this package's names: ``from lobby import services; services.sit(...)``).

Every write runs in one transaction with the Table row locked (``locking.locked_table``), so two
players racing for the same seat are serialised: the second one finds it taken. The Seat
constraints (one player per table, human xor bot, unique number) back this up in the database.
After a committed change the table's channel-layer group hears of it (``notices``).

- ``tables``: creating a table, its rules and settings, cancelling the countdown, closing, quick play;
- ``seats``: sitting and standing, bots, «Готово», presence, seats freed after their player left;
- ``countdown``: the countdown re-judged after each change, the lineup a game is dealt from, the
  table while its game runs and the rematch window after it;
- ``locking``: the lock-and-check preamble of every change; ``notices``: telling a change;
- ``selectors``: reads (who sits where, who manages, why the game cannot start yet).
"""

from durak_site.clock import db_now
from durak_site.errors import ServiceError
from game.engine.bots import DEFAULT_LEVEL
from lobby.services.countdown import (
    COUNTDOWN_SECONDS,
    REMATCH_SECONDS,
    Lineup,
    LineupSeat,
    fire_rematch_deadline,
    game_finished,
    lineup_for_start,
    mark_playing,
    player_left_game,
    start_failed,
    take_countdown,
)
from lobby.services.notices import Notice, broadcast_table, in_every_language
from lobby.services.seats import (
    BOT_LEVELS,
    INACTIVE_SECONDS,
    add_bot,
    fire_inactive_seat,
    fire_inactive_seats,
    move_seat,
    on_player_banned,
    remove_bot,
    set_presence,
    set_ready,
    sit,
    stand,
    touch_presence,
)
from lobby.services.selectors import (
    INVITES_KEY,
    OPEN_STATUSES,
    can_manage,
    invite_code_ok,
    names_hidden,
    rules_setter_id,
    shows_last_game,
    start_blocker,
    table_version,
)
from lobby.services.tables import (
    QUICK_PLAY_LEVEL,
    cancel_countdown,
    close_table,
    create_table,
    lock_as_matched,
    quick_play,
    update_rules,
)

__all__ = [
    "BOT_LEVELS", "COUNTDOWN_SECONDS", "DEFAULT_LEVEL", "INACTIVE_SECONDS", "INVITES_KEY", "OPEN_STATUSES",
    "QUICK_PLAY_LEVEL", "REMATCH_SECONDS", "Lineup",
    "LineupSeat", "Notice", "ServiceError", "add_bot", "broadcast_table", "can_manage", "cancel_countdown",
    "close_table", "create_table", "lock_as_matched", "db_now", "fire_inactive_seat", "fire_inactive_seats", "fire_rematch_deadline",
    "game_finished", "in_every_language", "invite_code_ok", "lineup_for_start", "mark_playing", "move_seat",
    "player_left_game", "quick_play", "remove_bot", "rules_setter_id", "set_presence", "set_ready",
    "shows_last_game", "names_hidden", "sit", "stand", "on_player_banned", "start_blocker", "start_failed", "table_version", "take_countdown",
    "touch_presence", "update_rules",
]
