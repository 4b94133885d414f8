"""What the lobby tells the apps above it (game): they subscribe in their ready()."""

from django.dispatch import Signal

# A moderator is closing a table that had a game running or just finished (inside the closing
# transaction, before the table row is locked: a game's end takes its game row, then the table's).
# kwargs: ``table_id``, ``reason``. The game app stops the running game.
table_closed = Signal()

# A person stood up (or was stood up) at a table the search made, before its first game (after the
# commit of his stand when there is no outer transaction). kwargs: ``table_id``, ``player_id``. The
# social app records a dodge and sends the others back to the head of the queue.
matched_seat_left = Signal()
