"""What the game app tells the apps above it (ratings, chat …): they subscribe in their ready().

Game never imports them; they import game. Sent inside the game's transaction where noted, so a
receiver's writes commit or roll back with the game.
"""

from django.dispatch import Signal

# A game ended (finished or aborted). Sent inside the finishing transaction, with the game row
# locked; kwargs: ``game`` (status, finished_at and result set on the object; the row is saved after
# the receivers, once) and ``seats`` (its GameSeat rows with their players, in seat order). A receiver
# may return an object with ``rated`` (bool) and ``unrated_reason`` (str): game.services copies them
# onto the Game.
game_finished = Signal()

# A game is about to be dealt at a table. kwargs: ``table_id``, ``players`` (seat count). A receiver
# may return the seat (1-based) that must lead, or None; the first seat returned wins, else the
# engine's own first-move rule decides (the winning pair of a series picks its leader: docs/RULES.md#series).
choose_first_attacker = Signal()
