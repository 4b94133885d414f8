"""Every chat string has its Russian text; English is the source language."""

from __future__ import annotations

import re
from pathlib import Path

from django.utils import translation

from chat.templatetags.chat_tags import chat_strings

PO = Path(__file__).resolve().parents[2] / "chat" / "locale" / "ru" / "LC_MESSAGES" / "django.po"


def test_every_russian_msgstr_is_filled():
    text = PO.read_text(encoding="utf-8")
    blocks = [b for b in text.split("\n\n")[1:] if "msgid" in b and not b.lstrip().startswith("#~")]
    # an empty msgstr is "" with no continuation line (makemessages wraps long ones as "" + lines)
    empty = [b for b in blocks if re.search(r'^msgstr(\[\d\])? ""(?!\n")', b + "\n", re.M)]
    assert empty == []


def test_the_panel_strings_follow_the_language():
    with translation.override("ru"):
        ru = chat_strings()
    with translation.override("en"):
        en = chat_strings()
    assert ru["phrases"]["good_game"] == "Хорошая игра!" and en["phrases"]["good_game"] == "Good game!"
    assert ru["errors"]["chat_too_often"].lower().startswith("слишком часто")
