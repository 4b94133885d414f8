"""A private table's socket shows nothing to a stranger: the close is the one a
missing table gets (4404), while its players, its host and invite holders are let in."""

from __future__ import annotations

import pytest

from game import services
from tests.game.helpers import make_player, make_table
from tests.security.kit import closed_with, first_frame, signed_in, socket_for, sync

pytestmark = pytest.mark.django_db(transaction=True)


def _private_game():
    a, b, host = make_player(), make_player(), make_player()
    table = make_table(humans=[a, b])
    table.private, table.host, table.invite_code = True, host, "secret-invite-code"
    table.save()
    game = services.start_game(table.pk)
    return a, host, table, game


@pytest.fixture
def no_bots(settings):
    settings.BOT_SCHEDULER = "off"


async def test_a_stranger_gets_4404_and_no_frame(no_bots):
    _a, _host, table, _game = await sync(_private_game)()
    stranger = await sync(make_player)()
    comm, ok = await socket_for(await sync(signed_in)(stranger), f"/ws/tables/{table.pk}/")
    assert ok
    frames, code = await closed_with(comm)
    assert code == 4404 and frames == []


async def test_a_missing_table_looks_the_same(no_bots):
    stranger = await sync(make_player)()
    comm, _ok = await socket_for(await sync(signed_in)(stranger), "/ws/tables/987654/")
    frames, code = await closed_with(comm)
    assert code == 4404 and frames == []


async def test_players_the_host_and_invite_holders_are_let_in(no_bots):
    a, host, table, game = await sync(_private_game)()
    invited = await sync(make_player)()
    invited_client = await sync(signed_in)(invited)
    page = await sync(invited_client.get)(f"/tables/{table.pk}/?invite=secret-invite-code")
    assert page.status_code == 200  # the table page records the invite in the session
    for client in (await sync(signed_in)(a), await sync(signed_in)(host), invited_client):
        comm, ok = await socket_for(client, f"/ws/tables/{table.pk}/")
        assert ok
        frame = await first_frame(comm)
        assert frame["type"] == "state" and frame["game_id"] == game.pk
        await comm.disconnect(timeout=10)
