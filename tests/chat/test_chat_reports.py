"""Reports: a reason as long as the report form allows is taken whole, a longer one is refused with
the reason's own error, and one reader cannot flood the moderators' queue."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from chat import services
from chat.models import Message, Report
from durak_site.errors import ServiceError
from tests.game.helpers import make_player, make_table

pytestmark = pytest.mark.django_db

FORM_MAX = 300  # the report form's maxlength (chat/static/chat/chat.js)


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def _setup(messages: int = 1):
    author, reader = make_player(), make_player()
    table = make_table(humans=[author, reader])
    rows = [Message.objects.create(table=table, author=author, text=f"m{k}", shown=f"m{k}") for k in range(messages)]
    return table, reader, rows, services.access(table.pk, reader)


@pytest.mark.parametrize("length", [201, 250, FORM_MAX])
def test_a_reason_the_form_allows_is_taken_whole(length):
    table, reader, (message,), rights = _setup()
    reason = "x" * length
    services.report(message.pk, reader, reason, table.pk, rights)
    assert Report.objects.get().reason == reason


def test_a_longer_reason_is_refused_with_the_reasons_own_error():
    table, reader, (message,), rights = _setup()
    with pytest.raises(ServiceError) as exc:
        services.report(message.pk, reader, "x" * (FORM_MAX + 1), table.pk, rights)
    assert exc.value.code == "chat_bad_reason" and "300" in exc.value.message
    assert not Report.objects.exists()


def test_reports_are_rate_limited_per_reader():
    count = services.REPORT_LIMIT[0]
    table, reader, rows, rights = _setup(count + 2)
    for message in rows[:count]:
        services.report(message.pk, reader, "spam", table.pk, rights)
    with pytest.raises(ServiceError) as exc:
        services.report(rows[count].pk, reader, "spam", table.pk, rights)
    assert exc.value.code == "chat_report_too_often"
    assert Report.objects.filter(reporter=reader).count() == count
    other = make_player()  # another reader is not held back by him
    services.report(rows[count + 1].pk, other, "spam", table.pk, services.access(table.pk, other))
