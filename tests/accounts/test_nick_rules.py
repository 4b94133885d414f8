"""Nick validation: every rule refuses with its own clear message, and nothing is created."""

from __future__ import annotations

import pytest

from accounts import services
from accounts.models import Player
from durak_site.errors import ServiceError


def refused(nick: str) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        services.sign_up(nick)
    return info.value


@pytest.mark.django_db
@pytest.mark.parametrize("nick", ["Вася", "Ёжик_2000", "player-one", "abc", "Twenty_chars_exactly", "Ковбой-Mike", "ЇжакUA"])
def test_valid_nicks_are_accepted_including_cyrillic(nick):
    player, _ = services.sign_up(nick)
    assert Player.objects.get(pk=player.pk).nick == nick


@pytest.mark.django_db
def test_surrounding_spaces_are_dropped():
    player, _ = services.sign_up("  Петя  ")
    assert player.nick == "Петя"


@pytest.mark.django_db
@pytest.mark.parametrize("nick", ["ab", "Я", "x" * 21, "Очень_длинный_ник_123"])
def test_too_short_or_too_long_is_refused(nick):
    error = refused(nick)
    assert error.code == "nick_length"
    assert "3" in error.message and "20" in error.message


@pytest.mark.django_db
def test_empty_nick_is_refused():
    assert refused("   ").code == "nick_required"


@pytest.mark.django_db
@pytest.mark.parametrize("nick", ["two words", "dot.dot", "mail@x", "emoji😀", "tab\there", "日本語名前", "Ωmega"])
def test_other_characters_are_refused(nick):
    assert refused(nick).code == "nick_chars"


@pytest.mark.django_db
@pytest.mark.parametrize("nick", ["123", "___", "1-2-3"])
def test_a_nick_needs_a_letter(nick):
    assert refused(nick).code == "nick_letters"


@pytest.mark.django_db
@pytest.mark.parametrize("nick", [
    "admin", "Admin", "ADMIN", "adm1n", "Аdmin",  # Cyrillic А
    "a_d-min", "SuperAdmin", "admin_2", "bot", "B0T", "бот", "Bot42", "moderator", "M0derat0r",
    "модератор", "system", "SYST3M", "durak", "Дурак", "durak_1", "root", "support_team", "админ",
])
def test_reserved_names_and_look_alikes_are_refused(nick):
    error = refused(nick)
    assert error.code == "nick_reserved"
    assert "зарезервирован" in error.message  # Russian is the default language
    assert not Player.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("nick", ["Robot_Vasya", "Botanik", "Systematic", "Durakov"])
def test_words_merely_containing_a_short_reserved_name_are_fine(nick):
    services.sign_up(nick)


@pytest.mark.django_db
@pytest.mark.parametrize(("first", "second"), [("Vasya", "vasya"), ("Вася", "ВАСЯ"), ("Ёлка", "ёлка"), ("Kot_1", "KOT_1")])
def test_a_nick_is_unique_whatever_the_letter_case(first, second):
    services.sign_up(first)
    error = refused(second)
    assert error.code == "nick_taken"
    assert Player.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(("first", "second"), [("Vasya", "Vasуa"), ("Oleg", "0leg"), ("Kot_1", "Kot-1"), ("Mike", "Мike")])
def test_a_look_alike_of_an_existing_nick_is_refused(first, second):
    services.sign_up(first)
    error = refused(second)
    assert error.code == "nick_lookalike"
    assert Player.objects.count() == 1


@pytest.mark.django_db
def test_the_database_refuses_a_case_variant_even_past_the_service():
    from django.db import IntegrityError, transaction

    Player.objects.create_user("Pasha")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create_user("PASHA")


@pytest.mark.django_db
def test_nick_errors_are_shown_on_the_form_in_russian_by_default(client):
    response = client.post("/accounts/signup/", {"nick": "admin"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "зарезервирован" in html
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_nick_errors_are_shown_in_english_when_chosen(client):
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    response = client.post("/accounts/signup/", {"nick": "a b"})
    assert response.status_code == 400
    assert "Use only Russian or Latin letters" in response.content.decode()
    response = client.post("/accounts/signup/", {"nick": ""})
    assert "Choose a nick." in response.content.decode()


@pytest.mark.django_db
def test_an_empty_form_post_is_refused_with_a_message(client):
    response = client.post("/accounts/signup/")
    assert response.status_code == 400
    assert "Придумайте ник." in response.content.decode()
    response = client.post("/accounts/restore/")
    assert response.status_code == 400
    assert "Введите свой ник." in response.content.decode()
