"""What the table tells the others about an absent seat: nothing for a socket
blink, «нет связи» from 15 s on (docs/RULES.md#disconnect), and the moment a bot takes over (15 + 60 s) or the loss
(30 s) for the countdown. seat_facts is what every frame carries; the browser half is
tests/game/test_table_ui_phone.py::test_an_away_seat_is_marked_after_the_server_says_so_with_a_takeover_countdown."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from game.frames import SeatRow, seat_facts
from game.models import Game

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def facts_after(seconds: float, policy: str) -> dict:
    game = Game(status=Game.Status.PLAYING, disconnect_policy=policy)
    gone = NOW - timedelta(seconds=seconds)
    seats = [SeatRow(1, 7, "Вася", "", "", False, gone, None), SeatRow(2, 8, "Маша", "", "", True, None, None)]
    first, second = seat_facts(game, seats, now=NOW)
    assert second["away"] is False and second["takeover_at"] is None and second["lose_at"] is None
    return first


@pytest.mark.parametrize("seconds, away", [(0, False), (4, False), (14.9, False), (15, True), (40, True)])
def test_a_seat_is_away_only_after_15_seconds(seconds, away):
    assert facts_after(seconds, Game.DisconnectPolicy.BOT)["away"] is away
    assert facts_after(seconds, Game.DisconnectPolicy.LOSE)["away"] is away


def test_the_countdown_names_the_takeover_or_the_loss():
    bot = facts_after(20, Game.DisconnectPolicy.BOT)
    assert bot["takeover_at"] == (NOW - timedelta(seconds=20) + timedelta(seconds=75)).isoformat()
    assert bot["lose_at"] is None
    lose = facts_after(20, Game.DisconnectPolicy.LOSE)
    assert lose["lose_at"] == (NOW - timedelta(seconds=20) + timedelta(seconds=30)).isoformat()
    assert lose["takeover_at"] is None
