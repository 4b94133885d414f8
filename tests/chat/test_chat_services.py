"""Chat services without a socket: retention, moderation records, access, the profanity mask."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from chat import services
from chat.models import ChatMute, Message, ModerationLog, Report
from chat.tasks import purge_old_messages
from durak_site import profanity
from durak_site.errors import ServiceError
from tests.game.helpers import make_player, make_table

pytestmark = pytest.mark.django_db


def _message(table, author, days_old: int = 0, text: str = "hi") -> Message:
    message = Message.objects.create(table=table, author=author, text=text, shown=text)
    Message.objects.filter(pk=message.pk).update(created_at=timezone.now() - timedelta(days=days_old))
    return message


def test_retention_deletes_old_messages_but_keeps_those_with_an_open_report(settings):
    settings.CHAT_RETENTION_DAYS = 30
    a, b, mod = make_player(), make_player(), make_player()
    table = make_table(humans=[a, b])
    _old, reported, closed, fresh = (_message(table, a, 40), _message(table, a, 40), _message(table, a, 40),
                                    _message(table, a, 1))
    Report.objects.create(message=reported, reporter=b, reason="rude")
    done = Report.objects.create(message=closed, reporter=b, reason="rude")
    services.close_report(done.pk, mod)
    assert purge_old_messages() == 2
    assert set(Message.objects.values_list("pk", flat=True)) == {reported.pk, fresh.pk}
    services.close_report(Report.objects.get(message=reported).pk, mod)
    assert purge_old_messages() == 1


def test_every_moderator_action_is_logged_with_who_and_when():
    a, b, mod = make_player(), make_player(), make_player()
    table = make_table(humans=[a, b])
    message = _message(table, a)
    Report.objects.create(message=message, reporter=b, reason="rude")
    services.delete_message(message.pk, mod)
    services.mute(a.pk, mod, "1d", "insults", message)
    services.ban(a.pk, mod, "again", message)
    entries = list(ModerationLog.objects.order_by("pk").values_list("moderator", "action", "player"))
    assert entries == [(mod.pk, "delete", a.pk), (mod.pk, "mute", a.pk), (mod.pk, "ban", a.pk)]
    assert all(e.created_at for e in ModerationLog.objects.all())
    assert Report.objects.get().status == "closed" and Report.objects.get().closed_by == mod
    a.refresh_from_db()
    assert a.is_banned and message.author.pk == a.pk
    assert Message.objects.get(pk=message.pk).deleted_by == mod


def test_a_mute_needs_a_known_period_and_a_reason_and_ends():
    a, mod = make_player(), make_player()
    with pytest.raises(ServiceError) as exc:
        services.mute(a.pk, mod, "forever", "x")
    assert exc.value.code == "chat_bad_period"
    with pytest.raises(ServiceError):
        services.mute(a.pk, mod, "1h", "   ")
    mute = services.mute(a.pk, mod, "15m", "spam")
    assert services.active_mute(a.pk) == mute
    ChatMute.objects.filter(pk=mute.pk).update(until=timezone.now() - timedelta(seconds=1))
    assert services.active_mute(a.pk) is None


def test_private_table_access_is_for_host_players_invitees_and_staff():
    host, player, stranger, invitee = make_player(), make_player(), make_player(), make_player()
    staff = make_player()
    staff.is_staff = True
    staff.save()
    table = make_table(humans=[player], bots=["random"])
    table.private, table.host = True, host
    table.save()
    assert services.access(table.pk, stranger) == services.NO_ACCESS
    assert services.access(table.pk, invitee, invited=True).read
    assert services.access(table.pk, host).manage
    assert services.access(table.pk, player).write and services.access(table.pk, player).player
    assert services.access(table.pk, staff).read and not services.access(table.pk, staff).manage


def test_clean_text_strips_control_characters_and_folds_whitespace():
    assert services.clean_text("a\u200b\u0000b \t\n c\u202e") == "ab c"


@pytest.mark.parametrize(("text", "shown"), [
    ("ну ты сука", "ну ты с***"),
    ("what the shit", "what the *"),
    ("пиздец, опять козырь", "п*****, опять козырь"),
    ("корабля требую себе оскорбление", "корабля требую себе оскорбление"),
    ("Хорошая игра!", "Хорошая игра!"),
])
def test_profanity_is_masked_in_russian_and_english_and_ordinary_words_stay(text, shown):
    assert profanity.mask(text) == shown


def test_a_message_costs_one_query_and_a_two_statement_transaction(django_assert_max_num_queries):
    """The chat's hot path (bench_chat): the writer's standing and both rate counts in one query,
    then the version bump and the INSERT; the table's first message makes its settings row."""
    from chat.models import ChatSettings

    a, b = make_player(), make_player()
    table = make_table(humans=[a, b])
    rights = services.access(table.pk, a)
    first = services.post_message(table.pk, a, "привет", rights)
    assert ChatSettings.objects.get(table=table).version == 1
    # SAVEPOINT/BEGIN, UPDATE, (Postgres: the writer's advisory lock), SELECT, INSERT, RELEASE/COMMIT
    with django_assert_max_num_queries(6) as captured:
        second = services.post_message(table.pk, a, "ну ты сука", rights)
    assert sum(1 for q in captured.captured_queries if q["sql"].startswith(("SELECT", "UPDATE", "INSERT"))
               and "pg_advisory" not in q["sql"]) == 3
    assert (second.shown, second.pk > first.pk) == ("ну ты с***", True)
    assert ChatSettings.objects.get(table=table).version == 2
    services.mute(a.pk, b, "1h", "spam")
    with pytest.raises(ServiceError) as muted:
        services.post_message(table.pk, a, "ещё", rights)
    assert muted.value.code == "chat_muted" and "spam" in muted.value.message
    assert ChatSettings.objects.get(table=table).version == 2  # a refusal bumps nothing
