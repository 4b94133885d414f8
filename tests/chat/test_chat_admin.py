"""The moderators' chat admin: only staff, the queue shows open reports with their conversation."""

from __future__ import annotations

import pytest
from django.test import Client

from chat.models import Message, Report
from tests.game.helpers import make_player, make_table

pytestmark = pytest.mark.django_db


def _client(player) -> Client:
    client = Client()
    client.force_login(player)
    return client


def test_the_queue_is_for_staff_only_and_escapes_what_players_wrote():
    a, b = make_player(), make_player()
    mod = make_player()
    mod.is_staff = True
    mod.save()
    table = make_table(humans=[a, b])
    message = Message.objects.create(table=table, author=a, text="<script>x()</script>", shown="<script>x()</script>")
    Report.objects.create(message=message, reporter=b, reason="<b>bad</b>")
    assert _client(b).get("/admin/chat/report/").status_code == 302  # to the admin login
    page = _client(mod).get("/admin/chat/report/").content.decode()
    assert "<script>x()</script>" not in page and "&lt;script&gt;x()&lt;/script&gt;" in page
    assert "<b>bad</b>" not in page


def test_the_queue_hides_closed_reports_unless_asked():
    a, b = make_player(), make_player()
    mod = make_player()
    mod.is_staff = True
    mod.save()
    table = make_table(humans=[a, b])
    open_msg = Message.objects.create(table=table, author=a, text="still open", shown="still open")
    other = make_table(humans=[a, b])  # another table: not in the open report's conversation
    done_msg = Message.objects.create(table=other, author=a, text="long done", shown="long done")
    Report.objects.create(message=open_msg, reporter=b, reason="r")
    Report.objects.create(message=done_msg, reporter=b, reason="r", status=Report.Status.CLOSED)
    client = _client(mod)
    page = client.get("/admin/chat/report/").content.decode()
    assert "still open" in page and "long done" not in page
    assert "long done" in client.get("/admin/chat/report/?state=all").content.decode()
    report = Report.objects.get(message=open_msg)
    detail = client.get(f"/admin/chat/report/{report.pk}/change/")
    assert detail.status_code == 200 and "still open" in detail.content.decode()


def test_a_mute_from_the_admin_asks_for_the_period_and_reason_then_records_it():
    a, b = make_player(), make_player()
    mod = make_player()
    mod.is_staff = True
    mod.save()
    table = make_table(humans=[a, b])
    message = Message.objects.create(table=table, author=a, text="x", shown="x")
    client = _client(mod)
    form = client.post("/admin/chat/message/", {"action": "mute_authors", "_selected_action": [message.pk]})
    assert form.status_code == 200 and b'name="period"' in form.content
    page = form.content.decode()  # the shared action page (accounts' template): who, and the selection kept
    assert f'name="_selected_action" value="{message.pk}"' in page and a.nick in page
    assert 'href="/admin/chat/message/"' in page
    done = client.post("/admin/chat/message/", {"action": "mute_authors", "_selected_action": [message.pk],
                                                "apply": "1", "period": "1d", "reason": "spam"})
    assert done.status_code == 302
    from chat.models import ChatMute

    assert ChatMute.objects.get(player=a).reason == "spam"


def test_a_refused_ban_from_the_queue_is_shown_not_raised():
    a = make_player()
    mod = make_player()
    mod.is_staff = True
    mod.save()
    table = make_table(humans=[a, mod])
    own = Message.objects.create(table=table, author=mod, text="mine", shown="mine")
    response = _client(mod).post("/admin/chat/message/", {"action": "ban_authors", "_selected_action": [own.pk],
                                                          "apply": "1", "reason": "test"}, follow=True)
    assert response.status_code == 200
    mod.refresh_from_db()
    assert not mod.is_banned
    assert any(m.level_tag == "error" for m in response.context["messages"])
