"""Letters arrive live on the site socket (real sockets, the real channel layer): the recipient's
tabs hear `letter`, the writer's other tabs hear their own, reading is told to every tab; a refused
letter (a blocked writer) reaches nobody, and the HTTP answer says why in the catalogue's words."""

from __future__ import annotations

import pytest

from tests.letters.conftest import befriend, make_player
from tests.security.kit import signed_in, socket_for, sync

pytestmark = pytest.mark.django_db(transaction=True)


async def _site(player):
    client = await sync(signed_in)(player)
    comm, ok = await socket_for(client, "/ws/site/")
    assert ok
    assert (await comm.receive_json_from(timeout=5))["type"] == "hello"
    return client, comm


async def _next(comm, *kinds, timeout=5.0):
    """The next frame of one of `kinds` (the socket's other news passes by)."""
    while True:
        frame = await comm.receive_json_from(timeout=timeout)
        if frame.get("type") in kinds:
            return frame


def _people():
    a, b, c = make_player("Аня"), make_player("Боря"), make_player("Вика")
    befriend(a, b)
    befriend(c, b)
    return a, b, c


def _post(client, path, data):
    return client.post(path, data, HTTP_ACCEPT="application/json")


async def test_a_letter_reaches_the_friend_and_the_writers_other_tab():
    a, b, _c = await sync(_people)()
    client_a, tab_a = await _site(a)
    _client_b, tab_b = await _site(b)
    answer = await sync(_post)(client_a, f"/messages/{b.pk}/", {"text": "привет, сука"})
    assert answer.status_code == 200 and answer.json()["letter"]["text"] == "привет, с***"
    got = await _next(tab_b, "letter")
    assert got["partner"] == a.pk and got["unread"] == 1 and got["url"] == f"/messages/{a.pk}/"
    assert got["letter"] == answer.json()["letter"] and got["letter"]["nick"] == "Аня"
    assert "mine" not in got
    echo = await _next(tab_a, "letter")
    assert echo["mine"] is True and echo["partner"] == b.pk and echo["letter"]["id"] == got["letter"]["id"]
    for tab in (tab_a, tab_b):
        await tab.disconnect()


async def test_reading_on_one_tab_clears_the_count_on_the_others():
    a, b, _c = await sync(_people)()
    client_a, _tab_a = await _site(a)
    client_b, tab_b = await _site(b)
    await sync(_post)(client_a, f"/messages/{b.pk}/", {"text": "one"})
    assert (await _next(tab_b, "letter"))["unread"] == 1
    answer = await sync(_post)(client_b, f"/messages/{a.pk}/read/", {})
    assert answer.json() == {"ok": True, "unread": 0}
    read = await _next(tab_b, "letters_read")
    assert read == {"type": "letters_read", "partner": a.pk, "unread": 0}
    await tab_b.disconnect()


async def test_a_blocked_players_letter_never_arrives():
    a, b, c = await sync(_people)()
    client_a, _tab_a = await _site(a)
    client_b, tab_b = await _site(b)
    client_c = await sync(signed_in)(c)
    blocked = await sync(client_b.post)(f"/people/{a.pk}/block/", {"op": "block"})
    assert blocked.status_code == 302
    refused = await sync(_post)(client_a, f"/messages/{b.pk}/", {"text": "why?"})
    assert refused.status_code == 400
    assert refused.json() == {"ok": False, "code": "letter_not_friend",
                              "message": "Писать можно только друзьям."}
    # another friend's letter comes next: the refused one never reached the socket before it
    await sync(_post)(client_c, f"/messages/{b.pk}/", {"text": "я тут"})
    got = await _next(tab_b, "letter")
    assert got["partner"] == c.pk and got["letter"]["text"] == "я тут"
    await tab_b.disconnect()


async def test_bad_letters_over_http_are_refused_in_the_catalogues_words():
    a, b, _c = await sync(_people)()
    client_a = await sync(signed_in)(a)
    client_a.cookies["django_language"] = "en"
    for text, code, message in [
        ("", "letter_empty", "Write something first."),
        ("x" * 501, "letter_too_long", "A message may be at most 500 characters long."),
    ]:
        answer = await sync(_post)(client_a, f"/messages/{b.pk}/", {"text": text})
        assert answer.status_code == 400 and answer.json() == {"ok": False, "code": code, "message": message}
    stranger = await sync(make_player)()
    answer = await sync(_post)(client_a, f"/messages/{stranger.pk}/", {"text": "hi"})
    assert answer.json()["message"] == "You can write only to your friends."
    for _k in range(5):
        assert (await sync(_post)(client_a, f"/messages/{b.pk}/", {"text": "hi"})).status_code == 200
    flood = await sync(_post)(client_a, f"/messages/{b.pk}/", {"text": "hi"})
    assert flood.json()["code"] == "letter_too_often"


async def test_a_letter_reaches_a_friend_who_watches_a_table_on_its_one_socket():
    from tests.game.helpers import close_quietly, make_table, open_socket, receive_until

    a, b, _c = await sync(_people)()
    client_a = await sync(signed_in)(a)
    watched = await sync(make_table)(bots=["random", "random"])
    comm, connected, _ = await open_socket(watched.pk, b)  # a table page: the table socket, no site socket
    assert connected
    await receive_until(comm, lambda f: f["type"] in ("state", "lobby"))
    await sync(_post)(client_a, f"/messages/{b.pk}/", {"text": "ты за столом?"})
    got = await receive_until(comm, lambda f: f["type"] == "letter")
    assert got["partner"] == a.pk and got["letter"]["text"] == "ты за столом?"
    await close_quietly(comm)
