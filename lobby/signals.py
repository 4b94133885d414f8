"""What the lobby tells the apps above it (game): they subscribe in their ready()."""

from django.dispatch import Signal

# A moderator closed a table that had a game running or just finished (inside the closing
# transaction). kwargs: ``table_id``, ``reason``. The game app stops the running game.
table_closed = Signal()
