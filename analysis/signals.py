"""News of the analysis app for apps above it (notifications), connected in their ready()."""

from django.dispatch import Signal

# an analysis a player asked for is done and stored: kwargs game_id, player_id (who asked)
analysis_done = Signal()
