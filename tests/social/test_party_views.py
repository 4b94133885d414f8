"""The party's endpoints: signed-out and GET requests are refused, a refusal is the catalogue's sentence
(JSON to a script, a message on the page), answering goes to the search page, and inviting is
rate-limited; nothing changes when refused."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.social.test_party import _state, friends

pytestmark = pytest.mark.django_db

POSTS = ["/play/party/invite/{id}/", "/play/party/invitations/1/", "/play/party/leave/"]


def _client(player) -> Client:
    c = Client()
    c.force_login(player)
    return c


def test_signed_out_and_get_requests_are_refused_and_change_nothing(make_player):
    me, other = make_player(), make_player()
    before = _state()
    for url in POSTS:
        response = Client().post(url.format(id=other.pk))
        assert response.status_code == 302 and "/accounts/" in response["Location"], url
        assert _client(me).get(url.format(id=other.pk)).status_code == 405, url
    assert _state() == before


@pytest.mark.parametrize("url, data, code", [
    ("/play/party/invite/{id}/", {}, "party_not_friend"),
    ("/play/party/invite/{me}/", {}, "social_self"),
    ("/play/party/invite/999999/", {}, "player_not_found"),
    ("/play/party/invitations/77/", {"op": "accept"}, "invitation_not_found"),
    ("/play/party/invitations/77/", {"op": "maybe"}, "bad_action"),
    ("/play/party/leave/", {}, "party_none"),
])
def test_bad_input_gets_the_catalogues_sentence_and_changes_nothing(make_player, url, data, code):
    from durak_site.errors import message_for

    me, other = make_player(), make_player()
    before = _state()
    response = _client(me).post(url.format(id=other.pk, me=me.pk), data, HTTP_ACCEPT="application/json",
                                HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    body = response.json()
    assert body["ok"] is False and body["code"] == code and body["message"]
    assert _state() == before
    assert message_for(code)  # a sentence of the catalogue


def test_a_friend_invites_from_a_page_and_the_guest_accepts_to_the_search_page(make_player, online):
    from social.models import PartyInvitation

    a, b = make_player(), make_player()
    online(a, b)
    friends(a, b)
    page = _client(a).post(f"/play/party/invite/{b.pk}/", {"back": "/play/search/"})
    assert page.status_code == 302 and page["Location"] == "/play/search/"
    invitation = PartyInvitation.objects.get(host=a, guest=b)
    listed = _client(b).get("/people/").content.decode()  # the friends page's invitations list it too
    assert f'action="/play/party/invitations/{invitation.pk}/"' in listed
    answer = _client(b).post(f"/play/party/invitations/{invitation.pk}/", {"op": "accept"},
                             HTTP_ACCEPT="application/json")
    assert answer.json() == {"ok": True, "url": "/play/search/"}
    left = _client(b).post("/play/party/leave/", HTTP_ACCEPT="application/json")
    assert left.json() == {"ok": True}


def test_party_invitations_are_rate_limited(make_player, online, monkeypatch):
    import time
    from types import SimpleNamespace

    from durak_site import ratelimit
    from social import party
    from social.models import PartyInvitation

    now = time.time()  # one window for the whole test: a minute turning over midway would reset it
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: now))

    host = make_player()
    guests = [make_player() for _ in range(party.INVITES_PER_MINUTE + 1)]
    online(host, *guests)
    friends(host, *guests)
    client = _client(host)
    codes = [client.post(f"/play/party/invite/{g.pk}/", HTTP_ACCEPT="application/json").json().get("code")
             for g in guests]
    assert codes[:-1] == [None] * party.INVITES_PER_MINUTE and codes[-1] == "social_too_many"
    assert PartyInvitation.objects.filter(host=host).count() == party.INVITES_PER_MINUTE


@pytest.mark.parametrize("lang, words", [
    ("ru", "Поиск завершён: вашего напарника по группе больше нет в поиске."),
    ("en", "Your party partner left the search: the search has ended."),
])
def test_the_site_news_words_say_the_partner_left_the_search(make_player, lang, words):
    """site.js shows this sentence, not the generic one, for a `search_ended` frame whose reason is
    "partner" (social/queue.py): the page carries it in the player's language."""
    import json
    import re

    page = _client(make_player()).get("/people/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    found = re.search(r'<script id="site-i18n" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    strings = json.loads(found.group(1))
    assert strings["partner_left_search"] == words
    assert strings["partner_left_search"] != strings["search_ended"]
