"""Notices read right in both languages: a table's name in quotes, plurals agree with their count."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import gettext, ngettext


@pytest.mark.parametrize("lang, one, many", [
    ("ru", "Место освобождено: Аня — слишком долго без связи.",
     "Места освобождены: Аня, Боря — слишком долго без связи."),
    ("en", "Seat freed: Аня was away too long.", "Seats freed: Аня, Боря were away too long."),
])
def test_freed_seats_agree_with_how_many_players_were_away(lang, one, many):
    with translation.override(lang):
        for nicks, text in ((["Аня"], one), (["Аня", "Боря"], many)):
            said = ngettext("Seat freed: %(nicks)s was away too long.",
                            "Seats freed: %(nicks)s were away too long.", len(nicks)) % {"nicks": ", ".join(nicks)}
            assert said == text


@pytest.mark.parametrize("lang, text", [
    ("ru", "Аня приглашает вас за стол «Стол Ани»"),
    ("en", "Аня invites you to the table “Стол Ани”"),
])
def test_an_invitation_quotes_the_tables_name(lang, text):
    with translation.override(lang):
        assert gettext("%(nick)s invites you to the table “%(table)s”") % {"nick": "Аня", "table": "Стол Ани"} == text
