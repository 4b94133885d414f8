"""The benchmark's analysis load: finished games' analyses queued as a player of each asks for them."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from analysis.models import Analysis
from tests.ratings.ratings_factories import make_player, make_table, play_finished_game

pytestmark = pytest.mark.django_db


def test_the_latest_finished_games_without_an_analysis_are_queued_once(capsys):
    games = [play_finished_game(make_table(seats_count=2), [make_player(), make_player()],
                                rules={"variant": "podkidnoy"}, seed=seed) for seed in (4, 5, 6)]
    unfinished = play_finished_game(make_table(seats_count=2), [make_player(), make_player()], seed=7,
                                    stop_after_moves=5)

    call_command("bench_analysis_load", "--queue", "2")
    call_command("bench_analysis_load", "--queue", "5", "--status")

    out = capsys.readouterr().out
    assert "analyses queued: 2" in out and "analyses queued: 1" in out
    assert set(Analysis.objects.values_list("game_id", flat=True)) == {g.pk for g in games}
    assert not Analysis.objects.filter(game=unfinished).exists()
    assert "analyses: queued 3 (0 decisions)" in out
