"""News that a person's turn has come, for apps above game (notifications), registered in ready().

After a change commits, each hook hears which people the game now awaits (their seats are not
played by a bot) and when the turn's deadline falls. Hooks run on the committing thread, so they
must only hand the news on (a queue, a task), never wait on the network.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from game import engine

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TurnNews:
    game_id: int
    table_id: int
    version: int
    player_ids: tuple[int, ...]
    deadline: datetime | None


_hooks: list[Callable[[TurnNews], None]] = []


def on_turn(hook: Callable[[TurnNews], None]) -> None:
    if hook not in _hooks:
        _hooks.append(hook)


def announce(game, state: engine.GameState, seats) -> None:
    """Under the lock of a change of a running game: tell the hooks after the commit."""
    if not _hooks or state.result is not None or state.in_check_phase():
        return
    awaited = set(engine.whose_turn(state))
    people = tuple(s.player_id for s in seats if s.number in awaited and s.player_id and not s.bot_controlled)
    if not people:
        return
    news = TurnNews(game.pk, game.table_id, game.version, people, game.deadline)
    transaction.on_commit(lambda: _tell(news))


def _tell(news: TurnNews) -> None:
    for hook in _hooks:
        try:
            hook(news)
        except Exception:
            log.exception("turn hook %r failed", hook)
