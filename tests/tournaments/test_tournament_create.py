"""The private-event form: a table arena's seats (3 or 4) and pairs 2×2, a Swiss's rounds at stated
times, cheater mode in the lobby's words, in Russian and English; a bad choice is refused with the catalogue's sentence, nothing made,
and the form comes back with the player's choices."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from durak_site.errors import ServiceError
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _form(**extra: str) -> dict[str, str]:
    start = timezone.localtime(timezone.now() + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    return {"name": "Пятничная", "format": "arena", "variant": "podkidnoy", "deck_size": "36",
            "turn_seconds": "30", "minutes": "30", "rounds": "5", "round_minutes": "0", "seats": "2",
            "starts_at": start, **extra}


@pytest.mark.parametrize(("lang", "words"), [
    ("ru", ("Игроков за столом", "Пары 2×2", "Каждый тур начинается", "каждые 15 мин")),
    ("en", ("Players at a table", "Pairs 2×2", "Each round starts", "every 15 min")),
])
def test_the_form_offers_seats_pairs_and_stated_round_times(client, make_player, lang, words):
    client.force_login(make_player())
    page = client.get(reverse("tournaments:create"), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    for word in words:
        assert word in page
    for value in ("2", "3", "4"):
        assert f'<option value="{value}"' in page.split('name="seats"')[1].split("</select>")[0]
    assert 'type="checkbox" name="pairs"' in page
    assert '<option value="15"' in page.split('name="round_minutes"')[1].split("</select>")[0]


@pytest.mark.parametrize(("extra", "seats", "pairs"), [
    ({"seats": "3"}, 3, False),
    ({"seats": "4"}, 4, False),
    ({"seats": "4", "pairs": "1"}, 4, True),
])
def test_a_table_arena_is_created_from_the_form(client, make_player, extra, seats, pairs):
    client.force_login(make_player())
    resp = client.post(reverse("tournaments:create"), _form(**extra))
    event = Tournament.objects.get()
    assert resp.status_code == 302 and resp.url.endswith(f"?code={event.invite_code}")
    assert (event.format, event.seats, event.pairs, event.private) == ("arena", seats, pairs, True)


def test_a_swiss_with_rounds_at_stated_times_is_created_from_the_form(client, make_player):
    client.force_login(make_player())
    resp = client.post(reverse("tournaments:create"), _form(format="swiss", rounds="4", round_minutes="15"))
    assert resp.status_code == 302
    event = Tournament.objects.get()
    assert (event.format, event.rounds, event.round_minutes, event.seats) == ("swiss", 4, 15, 2)


@pytest.mark.parametrize(("extra", "code"), [
    ({"seats": "5"}, "tournament_bad_seats"),
    ({"seats": "three"}, "tournament_bad_seats"),
    ({"seats": "3", "pairs": "1"}, "pairs_need_four_seats"),
    ({"format": "swiss", "seats": "4"}, "tournament_swiss_heads_up"),
    ({"format": "swiss", "round_minutes": "7"}, "tournament_bad_round_minutes"),
    ({"format": "swiss", "round_minutes": "-15"}, "tournament_bad_round_minutes"),
])
def test_a_bad_table_or_round_choice_is_refused_and_nothing_made(client, make_player, extra, code):
    client.force_login(make_player())
    resp = client.post(reverse("tournaments:create"), _form(**extra), HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 200
    with translation.override("en"):
        sentence = html.escape(str(ServiceError(code)))
    page = resp.content.decode()
    assert 'role="alert"' in page and sentence in page
    assert not Tournament.objects.exists()
    # the form keeps what was chosen: only the bad field needs changing
    assert 'value="Пятничная"' in page
    if extra.get("format") == "swiss":
        assert '<option value="swiss" selected>' in page


@pytest.mark.parametrize("value", ["yes", "2", "да", "onn", " 1"])
@pytest.mark.parametrize(("lang", "sentence"), [
    ("ru", "Пары 2×2: поставьте галочку или оставьте поле пустым."),
    ("en", "Pairs 2×2: tick the box or leave it empty."),
], ids=["ru", "en"])
def test_a_pairs_box_with_any_other_value_is_refused_and_nothing_made(client, make_player, value, lang, sentence):
    """Not taken as «no pairs»: whoever sent it meant something, and a table of 4 without pairs is
    not what a tick would have made."""
    client.force_login(make_player())
    resp = client.post(reverse("tournaments:create"), _form(seats="4", pairs=value), HTTP_ACCEPT_LANGUAGE=lang)
    assert resp.status_code == 200
    page = resp.content.decode()
    assert 'role="alert"' in page and html.escape(sentence) in page
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(("value", "pairs"), [("on", True), ("true", True), ("1", True), (None, False), ("", False)])
def test_a_pairs_box_ticked_or_left_empty_is_taken(client, make_player, value, pairs):
    client.force_login(make_player())
    form = _form(seats="4") if value is None else _form(seats="4", pairs=value)
    assert client.post(reverse("tournaments:create"), form).status_code == 302
    assert Tournament.objects.get().pairs is pairs


@pytest.mark.parametrize("value", ["yes", "2", "да", "onn", " 1"])
@pytest.mark.parametrize(("lang", "sentence"), [
    ("ru", "Режим «Шулер»: поставьте галочку или оставьте поле пустым."),
    ("en", "Cheater mode: tick the box or leave it empty."),
], ids=["ru", "en"])
def test_a_cheater_box_with_any_other_value_is_refused_and_nothing_made(client, make_player, value, lang, sentence):
    """Not taken as «без шулера»: whoever sent it meant something, and a plain game is not what a tick
    would have made."""
    client.force_login(make_player())
    resp = client.post(reverse("tournaments:create"), _form(cheater=value), HTTP_ACCEPT_LANGUAGE=lang)
    assert resp.status_code == 200
    page = resp.content.decode()
    assert 'role="alert"' in page and html.escape(sentence) in page
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(("value", "cheater"), [
    ("on", True), ("true", True), ("1", True), (None, False), ("", False), ("0", False), ("off", False),
    ("false", False),
])
def test_a_cheater_box_ticked_or_left_empty_is_taken(client, make_player, value, cheater):
    client.force_login(make_player())
    form = _form() if value is None else _form(cheater=value)
    assert client.post(reverse("tournaments:create"), form).status_code == 302
    assert Tournament.objects.get().cheater is cheater


@pytest.mark.parametrize(("lang", "label"), [("ru", "Режим «Шулер»"), ("en", "Cheater mode")])
def test_the_form_offers_cheater_mode_in_the_lobbys_words_off_by_default(client, make_player, lang, label):
    """The same label the lobby's table form shows, so a player knows it is the same mode."""
    client.force_login(make_player())
    page = html.unescape(client.get(reverse("tournaments:create"), HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    box = page.split('type="checkbox" name="cheater"')
    assert len(box) == 2, "one cheater box"
    assert "checked" not in box[1].split(">")[0]
    assert label in box[1].split("</label>")[0]


def test_a_refused_form_keeps_the_cheater_box_ticked(client, make_player):
    client.force_login(make_player())
    page = client.post(reverse("tournaments:create"), _form(seats="5", cheater="1")).content.decode()
    assert " checked" in page.split('type="checkbox" name="cheater"')[1].split(">")[0]


def test_a_ticked_cheater_box_makes_a_cheater_event_whose_tables_carry_it(client, make_player):
    from lobby.models import Table
    from tests.tournaments.helpers import join_all, start
    from tournaments import services
    from tournaments.models import TournamentGame

    client.force_login(make_player())
    assert client.post(reverse("tournaments:create"), _form(cheater="1")).status_code == 302
    event = Tournament.objects.get()
    assert event.cheater is True
    join_all(event, [make_player(), make_player()])
    start(event)
    assert services.arena_wave(event.pk) == 1
    table = Table.objects.get(pk=TournamentGame.objects.get(tournament=event).table_id)
    assert table.rules["cheater"] is True
