"""A waiting-room change is told: the table's version moves, its notice is written in every language,
and the table's channel-layer group ``table-<id>`` hears ``{"type": "lobby.changed", "version": n,
...}`` after the commit, with who holds which role at the table then (its host, its seated players,
whether it is private): a socket whose player's role did not change needs no database to know it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils import translation

from durak_site import realtime
from lobby.models import Seat, Table
from lobby.services.selectors import table_version

Notice = Callable[[], str]  # the notice's text in the active language (rendered once per language)


def in_every_language(notice: Notice) -> dict[str, str]:
    """The notice written in every language of the site, so each reader sees his own."""
    texts = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            texts[code] = str(notice())[:200]
    return texts


def bump(table: Table, notice: Notice | None = None, fields: list[str] | None = None) -> None:
    """A waiting-room change: the table's version moves and its sockets hear of it. `fields`: the only
    columns the change touched (else the whole row is saved)."""
    table.version += 1
    if notice is not None:
        table.notice_texts = in_every_language(notice)
        table.notice = table.notice_texts.get(settings.LANGUAGE_CODE, "")
    table.save(update_fields=None if fields is None else [*fields, "version", "notice", "notice_texts", "updated_at"])
    seated = list(Seat.objects.filter(table_id=table.pk, player__isnull=False).values_list("player_id", flat=True))
    roles = {"host": table.host_id, "seated": seated, "private": table.private}
    realtime.send_on_commit([changed_message(table.pk, table.version, roles)])


def changed_message(table_id: int, version: int, roles: dict[str, Any] | None = None) -> realtime.Message:
    """The event a table's sockets hear; without `roles` each socket reads its player's role anew."""
    return realtime.table_group(table_id), {"type": "lobby.changed", "version": version, **(roles or {})}


def then(first: Notice, second: Notice) -> Notice:
    return lambda: f"{first()} {second()}"


def broadcast_table(table_id: int, version: int | None = None) -> None:
    """Tell everyone on the table page that the waiting room changed (they re-fetch the fragment)."""
    if version is None:
        version = table_version(table_id) or 0
    realtime.send([changed_message(table_id, version)])
