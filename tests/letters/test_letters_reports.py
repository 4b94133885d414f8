"""A reported letter reaches the moderators with the conversation around it, in the Russian admin;
their actions (delete for both, mute, ban, close) go through letters.services."""

from __future__ import annotations

import pytest
from django.test import Client

from chat.models import ChatMute
from durak_site.errors import ServiceError
from letters import services
from letters.models import Letter, Report
from social import people
from tests.letters.conftest import age_letters, make_player

pytestmark = pytest.mark.django_db


def _conversation(a, b, texts):
    """Letters alternately from a and b; returns them in order."""
    out = []
    for k, text in enumerate(texts):
        author, other = (a, b) if k % 2 == 0 else (b, a)
        out.append(services.send(author, other.pk, text))
        age_letters(author, 11)
    return out


def _moderator():
    moderator = make_player("Модератор")
    moderator.is_staff = moderator.is_superuser = True
    moderator.save()
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(moderator)
    return moderator, client


def test_a_report_copies_the_conversation_around_the_letter_as_written(friends):
    a, b = friends
    letters = _conversation(a, b, ["привет", "иди ты, сука", "сам такой", "ну ладно"])
    found = services.report(a, letters[1].pk, "  оскорбление  ")
    assert found.author_id == b.pk and found.reporter_id == a.pk and found.reason == "оскорбление"
    assert found.text == "иди ты, сука"  # as written, not masked
    assert [m["text"] for m in found.context] == ["привет", "иди ты, сука", "сам такой", "ну ладно"]
    assert services.report(a, letters[1].pk, "again") == found  # once per letter and reader


@pytest.mark.parametrize(("letter", "reason", "code"), [
    (0, "spam", "letter_own"), (1, "", "letter_bad_reason"), (1, "x" * 301, "letter_bad_reason"),
    (1, None, "letter_bad_reason"), ("1", "spam", "letter_not_found"), (10**9, "spam", "letter_not_found"),
])
def test_a_bad_report_is_refused_and_changes_nothing(friends, letter, reason, code):
    a, b = friends
    letters = _conversation(a, b, ["mine", "theirs"])
    letter_id = letters[letter].pk if isinstance(letter, int) and letter < 2 else letter
    with pytest.raises(ServiceError) as refused:
        services.report(a, letter_id, reason)
    assert refused.value.code == code
    assert not Report.objects.exists()


def test_nobody_reports_a_letter_of_a_conversation_not_his(friends):
    a, b = friends
    letter = services.send(a, b.pk, "hello")
    with pytest.raises(ServiceError) as refused:
        services.report(make_player(), letter.pk, "spam")
    assert refused.value.code == "letter_not_found"  # as if it did not exist


def test_reports_are_rate_limited(friends):
    a, b = friends
    letters = _conversation(a, b, [f"m{k}" for k in range(14)])
    theirs = [m for m in letters if m.author_id == b.pk]
    for m in theirs[:services.REPORT_LIMIT[0]]:
        services.report(a, m.pk, "spam")
    with pytest.raises(ServiceError) as refused:
        services.report(a, theirs[services.REPORT_LIMIT[0]].pk, "spam")
    assert refused.value.code == "letter_report_too_often"
    assert Report.objects.count() == services.REPORT_LIMIT[0]


def test_report_and_block_in_one_press_ends_the_friendship(friends):
    a, b = friends
    letter = _conversation(a, b, ["hi", "spam spam"])[1]
    services.report(a, letter.pk, "spam", block=True)
    assert people.relation(a.pk, b.pk) == "blocked" and not people.are_friends(a.pk, b.pk)
    assert [m["author_id"] for m in services.history(a.pk, b.pk)] == [a.pk]  # the blocked one's are hidden


def test_the_moderators_read_the_reported_conversation_in_russian(friends):
    a, b = friends
    letter = _conversation(a, b, ["привет", "гадость номер один"])[1]
    services.report(a, letter.pk, "оскорбление")
    _moderator_row, client = _moderator()
    html = client.get("/admin/letters/report/").content.decode()
    assert "Выберите жалобу на личное сообщение для просмотра" in html
    assert "гадость номер один" in html and "привет" in html and "оскорбление" in html
    assert "Удалить сообщение у обоих игроков" in html
    index = client.get("/admin/").content.decode()
    assert "Сообщения между друзьями" in index and "Жалобы на личные сообщения" in index


def test_a_moderator_deletes_the_letter_for_both_and_closes_its_reports(friends):
    a, b = friends
    letter = _conversation(a, b, ["hi", "bad"])[1]
    report = services.report(a, letter.pk, "spam")
    _moderator_row, client = _moderator()
    answer = client.post("/admin/letters/report/", {"action": "delete_letters", "_selected_action": [report.pk]})
    assert answer.status_code == 302
    assert not Letter.objects.filter(pk=letter.pk).exists()
    report.refresh_from_db()
    assert report.status == Report.Status.CLOSED and report.context[1]["text"] == "bad"  # the copy stays


def test_a_moderator_mutes_the_writer_who_then_cannot_write(friends):
    a, b = friends
    letter = _conversation(a, b, ["hi", "bad"])[1]
    report = services.report(a, letter.pk, "spam")
    moderator, client = _moderator()
    client.post("/admin/letters/report/", {"action": "mute_authors", "_selected_action": [report.pk], "apply": "1",
                                           "period": "1h", "reason": "оскорбления"})
    assert ChatMute.objects.filter(player=b, reason="оскорбления").exists()
    report.refresh_from_db()
    assert report.status == Report.Status.CLOSED
    with pytest.raises(ServiceError) as refused:
        services.send(b, a.pk, "still here")
    assert refused.value.code == "chat_muted"


def test_a_moderator_bans_the_writer(friends):
    a, b = friends
    letter = _conversation(a, b, ["hi", "bad"])[1]
    report = services.report(a, letter.pk, "spam")
    _moderator_row, client = _moderator()
    client.post("/admin/letters/report/", {"action": "ban_authors", "_selected_action": [report.pk], "apply": "1",
                                           "reason": "оскорбления"})
    b.refresh_from_db()
    assert b.banned_at is not None
    report.refresh_from_db()
    assert report.status == Report.Status.CLOSED
