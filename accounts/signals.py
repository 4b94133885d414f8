"""What accounts tells the apps above it (they subscribe in their ready(); accounts imports none)."""

from django.dispatch import Signal

# A moderator banned a player (sent after the ban committed). kwargs: ``player_id``. The game app
# hands his running games' seats to bots, as for a player who left.
player_banned = Signal()
