"""Every page and every table state reads in one language: in English no Cyrillic outside
people's names, in Russian no English words outside names.

Server pages are fetched with Django's test client (their words are in the HTML); the game
table's words are written by its client, so its states are opened in Chromium through the DEBUG
harness and read from the rendered page."""

from __future__ import annotations

import html as htmlmod
import re

import pytest
from django.urls import reverse

from game.views import load_samples
from tests.game.test_table_ui_harness import harness, new_page, open_sample  # noqa: F401

CYRILLIC = re.compile(r"[А-Яа-яЁё]+")
LATIN_WORD = re.compile(r"\b[A-Za-z]{4,}\b")
# words that are the same in both languages (names of things, not sentences)
SHARED = {"Durak", "Telegram", "Chromium"}


# the room's last notice is stored as text in the actor's language by lobby.services (see
# test_the_room_notice_follows_the_readers_language); the sweep reads everything else
ROOM_NOTICE = re.compile(r'<p class="notice" role="status">.*?</p>', re.S)
# names of the rule pages' sources on the rules page
SOURCE_NAMES = {"VideoChess", "«Дурак-Квартет»", "Дурак-Квартет"}


def visible_text(page_html: str) -> str:
    """Text a person reads on the page: no scripts, styles, tags or comments."""
    text = ROOM_NOTICE.sub(" ", page_html)
    text = re.sub(r"<(script|style|template)\b.*?</\1>", " ", text, flags=re.S | re.I)
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    return htmlmod.unescape(re.sub(r"\s+", " ", text))


def without(text: str, names) -> str:
    for n in sorted(names, key=len, reverse=True):
        text = text.replace(n, " ")
    return text


def foreign(text: str, lang: str) -> list[str]:
    if lang == "en":
        return sorted(set(CYRILLIC.findall(text)))
    return sorted({w for w in LATIN_WORD.findall(text) if w not in SHARED})


@pytest.fixture
def club(db):
    """A player with a table (a bot in it) and a finished-looking world to walk through."""
    from accounts.models import Player
    from lobby import services

    me = Player.objects.create_user("Tester")
    other = Player.objects.create_user("Marta")
    table = services.create_table(me, seats_count=3, name="Evening")
    services.add_bot(table.pk, me, 2, "random")
    services.sit(table.pk, other, 3)
    names = {"Tester", "Marta", "Evening"} | {s.display_name for s in table.seats.all() if hasattr(s, "display_name")}
    return me, table, names


def pages(me, table) -> list[str]:
    return [
        reverse("home"), reverse("lobby:index"), reverse("lobby:create"), reverse("lobby:rules"),
        reverse("lobby:table", args=[table.pk]), reverse("lobby:table_rules", args=[table.pk]),
        reverse("lobby:edit_rules", args=[table.pk]), reverse("ratings:leaderboard"), reverse("ratings:club"),
        reverse("ratings:profile", args=[me.nick]), reverse("ratings:history", args=[me.nick]),
        reverse("accounts:profile"),
    ]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_page_is_in_one_language(client, club, lang):
    me, table, names = club
    bot_names = {"Бот", "Bot"}
    problems = {}
    for url in ["signup", "restore"]:
        text = visible_text(client.get(reverse(f"accounts:{url}"), HTTP_ACCEPT_LANGUAGE=lang).content.decode())
        bad = foreign(without(text, names), lang)
        if bad:
            problems[url] = bad
    client.force_login(me)
    for url in pages(me, table):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 200, url
        text = without(visible_text(response.content.decode()), names | bot_names | SOURCE_NAMES)
        bad = foreign(text, lang)
        if bad:
            problems[url] = bad
    assert problems == {}


SAMPLE_NAMES = {"Вася", "Маша", "Бот Петрович", "Бот Сёма", "Коля", "Петя", "Оля", "Дима", "Саша", "Лена",
                "Катя", "Миша", "Таня", "Ваня"}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_table_state_is_in_one_language(browser, harness, lang):  # noqa: F811
    context, page = new_page(browser, harness, locale=f"{lang}-{lang.upper()}", extra_http_headers={"Accept-Language": lang})
    problems = {}
    for name, sample in load_samples().items():
        open_sample(page, harness, name)
        nicks = {s.get("nick") or "" for s in sample["frame"].get("seats", [])} | SAMPLE_NAMES
        text = page.evaluate("""() => {  // the sample list and the avatars' initials are not words
            for (const el of document.querySelectorAll('.g-harness, .avatar .ini')) el.remove();
            return document.body.innerText; }""")
        bad = foreign(without(text, {n for n in nicks if n}), lang)
        if bad:
            problems[name] = bad
    context.close()
    assert problems == {}


def test_the_room_notice_follows_the_readers_language(client, club):
    me, table, _names = club
    client.force_login(me)
    page = client.get(reverse("lobby:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    notice = ROOM_NOTICE.search(page)
    assert notice and not CYRILLIC.search(notice.group(0))
