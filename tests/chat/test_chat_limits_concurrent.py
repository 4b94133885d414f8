"""The chat's rate limits hold when messages arrive at once (each on its own connection, as sockets
on several processes send them): parallel sends cannot pass 5 per player or 20 per table in 10 s."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from chat import services
from chat.models import Message
from durak_site.errors import ServiceError
from tests.game.helpers import make_player, make_table

pytestmark = pytest.mark.django_db(transaction=True)


def _send_at_once(sends: list[tuple[int, object]]) -> list[str]:
    """Run every (table_id, player) send in its own thread, all released together; their outcomes."""
    start = threading.Barrier(len(sends), timeout=30)
    outcomes: list[str] = []
    # rights first, on this thread: a sender holds no connection while it waits for the others (the
    # connection pool may have fewer connections than there are senders)
    rights = {(t, p.pk): services.access(t, p) for t, p in sends}

    def send(table_id, player) -> None:
        start.wait()
        try:
            services.post_message(table_id, player, "gg", rights[table_id, player.pk])
            outcomes.append("sent")
        except ServiceError as exc:
            outcomes.append(exc.code)
        except Exception as exc:  # noqa: BLE001  (shown in the assertion, not lost with the thread)
            outcomes.append(f"error: {exc}")
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=args) for args in sends]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return outcomes


def test_ten_parallel_messages_of_one_player_pass_five():
    player = make_player()
    tables = [make_table(humans=[player, make_player()]) for _ in range(2)]
    outcomes = _send_at_once([(tables[k % 2].pk, player) for k in range(10)])
    assert outcomes.count("sent") == services.PLAYER_LIMIT[0]
    assert Message.objects.filter(author=player).count() == services.PLAYER_LIMIT[0]
    assert set(outcomes) == {"sent", "chat_too_often"}


def test_twenty_five_parallel_messages_at_one_table_pass_twenty():
    players = [make_player() for _ in range(5)]
    table = make_table(humans=players)
    outcomes = _send_at_once([(table.pk, players[k % 5]) for k in range(25)])
    assert Message.objects.filter(table=table).count() == services.TABLE_LIMIT[0]
    assert outcomes.count("chat_table_busy") == 5
