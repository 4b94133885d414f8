"""Letters between friends through letters.services: what is stored and shown, every refusal (which
changes nothing), the rate limits, the kept history, unread counts, and what a block hides."""

from __future__ import annotations

import pytest

from durak_site.errors import CATALOGUE, ServiceError
from letters import services
from letters.models import HISTORY, MAX_LENGTH, Conversation, Letter
from social import people
from tests.letters.conftest import age_letters, befriend, make_player

pytestmark = pytest.mark.django_db


def _state() -> tuple:
    """Everything a refused letter must leave as it was."""
    return (list(Letter.objects.order_by("pk").values_list("pk", "text")),
            list(Conversation.objects.order_by("pk").values_list("low_unread", "high_unread", "last_shown")))


def _refused(code: str, author, other_id, text) -> None:
    before = _state()
    with pytest.raises(ServiceError) as refused:
        services.send(author, other_id, text)
    assert refused.value.code == code and code in CATALOGUE
    assert _state() == before


def test_friends_write_to_each_other_and_the_reader_sees_the_mask(friends):
    a, b = friends
    services.send(a, b.pk, "  привет,\n  сука  ")
    services.send(b, a.pk, "hi")
    stored = Letter.objects.get(author=a)
    assert stored.text == "привет, сука"  # as written: what a moderator reads
    assert stored.shown == "привет, с***"  # the profanity mask, what the players read
    shown = services.history(b.pk, a.pk)
    assert [(m["author_id"], m["text"]) for m in shown] == [(a.pk, "привет, с***"), (b.pk, "hi")]
    assert services.history(a.pk, b.pk) == shown  # one conversation, whoever looks


def test_the_recipient_counts_unread_letters_until_he_reads_them(friends):
    a, b = friends
    c = make_player()
    befriend(c, b)
    services.send(a, b.pk, "one")
    services.send(a, b.pk, "two")
    services.send(c, b.pk, "three")
    assert services.unread_total(b.pk) == 3 and services.unread_total(a.pk) == 0
    assert services.unread_by_partner(b.pk) == {a.pk: 2, c.pk: 1}
    assert services.mark_read(b, a.pk) == 1
    assert services.unread_by_partner(b.pk) == {c.pk: 1}
    rows = services.conversations_of(b.pk)
    assert [(r["other"].pk, r["unread"], r["preview"]) for r in rows] == [(c.pk, 1, "three"), (a.pk, 0, "two")]


@pytest.mark.parametrize(("text", "code"), [
    ("", "letter_empty"), ("   \n\t ", "letter_empty"), ("\u200b\u2060", "letter_empty"),
    ("я" * (MAX_LENGTH + 1), "letter_too_long"), ("x" * 100_000, "letter_too_long"),
    (None, "letter_bad_text"), (["hi"], "letter_bad_text"),
])
def test_bad_text_is_refused_and_changes_nothing(friends, text, code):
    a, b = friends
    _refused(code, a, b.pk, text)


def test_a_letter_of_the_longest_length_passes(friends):
    a, b = friends
    services.send(a, b.pk, "я" * MAX_LENGTH)
    assert len(Letter.objects.get().shown) == MAX_LENGTH


def test_only_friends_write_to_each_other(db):
    a, b, stranger = make_player(), make_player(), make_player()
    _refused("letter_not_friend", stranger, a.pk, "hello")
    people.request_friend(a, b.pk)  # a request is not a friendship yet
    _refused("letter_not_friend", a, b.pk, "hello")
    _refused("letter_not_friend", b, a.pk, "hello")
    _refused("social_self", a, a.pk, "hello")
    _refused("player_not_found", a, 10**9, "hello")
    _refused("player_not_found", a, "x", "hello")


def test_neither_side_of_a_block_writes_and_the_refusal_reads_as_for_a_stranger(friends):
    a, b = friends
    services.send(a, b.pk, "before")
    people.block(b, a.pk)
    _refused("letter_not_friend", a, b.pk, "after")  # the blocked one is not told why
    _refused("letter_not_friend", b, a.pk, "after")
    assert services.history(b.pk, a.pk) == []  # the blocked player's letters never reach the blocker
    assert services.unread_total(b.pk) == 0 and services.conversations_of(b.pk) == []
    assert [m["text"] for m in services.history(a.pk, b.pk)] == ["before"]  # his own page tells nothing


def test_a_banned_or_muted_writer_is_refused(friends):
    from accounts import services as accounts_services
    from chat import services as chat_services

    a, b = friends
    moderator = make_player()
    chat_services.mute(a.pk, moderator, "1h", "spam")
    _refused("chat_muted", a, b.pk, "hello")
    accounts_services.ban(b, "cheating", by=moderator)
    _refused("banned", b, a.pk, "hello")


def test_a_burst_of_letters_stops_at_five_in_ten_seconds(friends):
    a, b = friends
    for k in range(services.BURST[0]):
        services.send(a, b.pk, f"m{k}")
    _refused("letter_too_often", a, b.pk, "one more")
    age_letters(a, services.BURST[1])
    services.send(a, b.pk, "later")


def test_an_hour_of_letters_stops_at_sixty(friends):
    a, b = friends
    while Letter.objects.filter(author=a).count() < services.HOURLY[0]:
        for k in range(services.BURST[0]):
            services.send(a, b.pk, f"m{k}")
        age_letters(a, 60)  # a minute between bursts: within the hour
    _refused("letter_too_many", a, b.pk, "one more")


def test_a_conversation_keeps_its_last_hundred_letters(friends):
    a, b = friends
    for k in range(HISTORY + 7):
        services.send(a if k % 2 else b, (b if k % 2 else a).pk, f"n{k}")
        if k % services.BURST[0] == services.BURST[0] - 1:
            age_letters(a, 3601)
            age_letters(b, 3601)
    kept = [m["text"] for m in services.history(a.pk, b.pk)]
    assert len(kept) == HISTORY == Letter.objects.count()
    assert kept[0] == "n7" and kept[-1] == f"n{HISTORY + 6}"


def test_a_page_that_was_away_gets_the_letters_after_its_last(friends):
    a, b = friends
    first = services.send(a, b.pk, "one")
    services.send(b, a.pk, "two")
    assert [m["text"] for m in services.history(a.pk, b.pk, after=first.pk)] == ["two"]
