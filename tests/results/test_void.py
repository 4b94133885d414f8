"""A moderator voids a game: its rating changes are undone exactly once, also when two voids race."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from results_helpers import game, player
from test_farming import _established, _farm, _value

from durak_site.errors import ServiceError
from ratings import services
from ratings.models import GameRecord


@pytest.mark.django_db(transaction=True)
def test_two_moderators_voiding_the_same_game_at_once_undo_it_exactly_once():
    mod1, mod2 = player("mod1"), player("mod2")
    for m in (mod1, mod2):
        m.is_staff = True
        m.save()
    a, b = player("a", "192.0.2.1"), player("b", "198.51.100.2")
    _established(a, b)
    record = _farm(a, b, games=1)[0]
    assert record.rated and (_value(a), _value(b)) == (1015, 985)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def void(mod) -> None:
        barrier.wait()
        try:
            services.void_game(record.game_id, mod, "farming")
            outcomes.append("voided")
        except ServiceError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=void, args=(m,)) for m in (mod1, mod2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(outcomes) == ["already_voided", "voided"]
    assert (_value(a), _value(b)) == (1000, 1000)
    again = GameRecord.objects.get(pk=record.pk)
    assert again.voided_at is not None and again.unrated_reason == "voided"
    result = game(record.game_id).result
    assert result["rated"] is False and result["unrated_reason"] == "voided"
    assert all(row["rating_change"] is None for row in result["outcomes"])
