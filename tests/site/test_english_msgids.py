"""The msgids are the English text: English quotes (“Ready”, not «Ready») and words that fit any
player («free-for-all», «their own rating»), since English readers see them as they are."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.site.test_gender_neutral_texts import ROOT

APPS = ("accounts", "analysis", "chat", "game", "lobby", "ratings", "social", "notifications", "tournaments",
        "letters", ".")
GENDERED = re.compile(r"\b(?:he|him|his|himself|she|her|herself)\b", re.I)


def _msgids(path: Path) -> list[str]:
    """Every msgid and msgid_plural of a .po file, joined over continuation lines."""
    text = path.read_text(encoding="utf-8")
    blocks = re.findall(r'^msgid(?:_plural)? ("(?:.*)"\n(?:".*"\n)*)', text, re.M)
    return ["".join(re.findall(r'"(.*)"', block)) for block in blocks]


def english_faults(msgid: str) -> list[str]:
    return (["«»"] if "«" in msgid or "»" in msgid else []) + GENDERED.findall(msgid)


def test_the_check_catches_russian_quotes_and_his() -> None:
    assert english_faults("Press «Ready» again.") == ["«»"]
    assert english_faults("then he takes everything") == ["he"]
    assert english_faults("Press “Ready”; the cards are theirs.") == []


@pytest.mark.parametrize("app", APPS)
def test_english_msgids_read_right(app: str) -> None:
    path = ROOT / app / "locale" / "en" / "LC_MESSAGES" / "django.po"
    bad = [msgid for msgid in _msgids(path) if english_faults(msgid)]
    assert bad == [], bad
