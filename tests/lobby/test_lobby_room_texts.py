"""What a visitor of a waiting room is told: pick a free seat, or that the table is full."""

from __future__ import annotations

import re

from django.urls import reverse
from django.utils import translation

from lobby import services


def test_a_visitor_at_a_full_table_is_told_he_can_watch(client, host, make_player):
    table = services.create_table(host, seats_count=2)
    visitor = make_player("visitor")
    client.force_login(visitor)
    url = reverse("lobby:table", args=[table.pk])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Выберите свободное место или просто смотрите." in html and "Стол заполнен" not in html
    services.add_bot(table.pk, host, 2, "random")
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Стол заполнен — можно смотреть." in html
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The table is full — you can watch." in html


def test_a_bot_is_named_in_the_room_as_in_the_game(client, host):
    """A bot has one name in the waiting room and at the table: «Бот 2»."""
    table = services.create_table(host, seats_count=3)
    services.add_bot(table.pk, host, 2, "random")
    client.force_login(host)
    for lang, name in (("ru", "Бот 2"), ("en", "Bot 2")):
        html = client.get(reverse("lobby:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        nick = re.search(r'data-seat="2".*?class="seat-nick">(.*?)</span>', html, re.S).group(1)
        assert " ".join(re.sub(r"<[^>]+>", " ", nick).split()) == name, nick
        with translation.override(lang):
            assert translation.gettext("Bot {n}").format(n=2) == name  # what the table's client shows


def test_a_pairs_table_says_pairs_once_in_the_room_and_the_list(client, host):
    """The preset's name already says «Пара на пару»: the rules line and the table card do not repeat it."""
    table = services.create_table(host, preset="pairs")
    client.force_login(host)
    room = client.get(reverse("lobby:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    rules = re.search(r'<p class="room-rules">(.*?)</p>', room, re.S).group(1)
    assert rules.lower().count("пара на пару") == 1, rules
    listing = client.get(reverse("lobby:index"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    card = re.search(r'<h2 class="tcard-name">.*?<p class="tcard-rules">(.*?)</p>', listing, re.S).group(0)
    assert card.lower().count("пара на пару") == 1, card


def _seat_tags(html: str) -> list[str]:
    seats = re.search(r'<ol class="seats.*?</ol>', html, re.S).group(0)
    return [" ".join(re.sub(r"<[^>]+>", " ", t).split())
            for t in re.findall(r'<span class="tag"[^>]*>(.*?)</span>', seats, re.S)]


def test_a_table_the_search_made_names_no_host(client, make_player):
    """The search made the table (as social.matcher does: created for its first player, the others
    seated, locked as matched): its seat 1 is no creator, in the room or in a notice."""
    first, second, third = make_player(), make_player(), make_player()
    table = services.create_table(first, seats_count=3, rules_setter="lowest_seat")
    services.sit(table.pk, second, 2)
    services.sit(table.pk, third, 3)
    services.lock_as_matched(table.pk)
    url = reverse("lobby:table", args=[table.pk])
    client.force_login(second)
    for lang, host_word, setter in (("ru", "создатель", "выбирает правила"), ("en", "host", "sets the rules")):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        tags = _seat_tags(html)
        assert host_word not in tags and setter not in tags, tags
    services.stand(table.pk, first)  # a dodge: nobody is named creator in his place
    table.refresh_from_db()
    assert "создатель" not in table.notice_texts["ru"] and "host" not in table.notice_texts["en"], table.notice_texts
