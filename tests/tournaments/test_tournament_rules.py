"""The rules page's tournament section states the table arenas (pods of 3 or 4, pairs 2×2, points by
the order of going out, the durak 0) and the pause rule, in Russian and English, and nowhere calls
the arena heads-up only; docs/TOURNAMENTS.md states the same."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

DOCS = Path(__file__).resolve().parents[2] / "docs" / "TOURNAMENTS.md"


def _section(client, lang: str) -> str:
    page = client.get(reverse("lobby:rules"), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    return page.split('<section id="tournaments"', 1)[1].split("</section>", 1)[0]


@pytest.mark.parametrize(("lang", "said"), [
    ("en", ("tables seat 3 or 4 players", "two pairs 2×2", "the order of going out, the durak 0",
            "at a table of 3, 2 for the first out and 1 for the second", "at a table of 4, 3, 2 and 1",
            "Pause, in every arena (heads-up or at tables of 3 or 4",
            "each later return waits 20 seconds more")),
    ("ru", ("3 или 4 игрока", "две пары 2×2", "по порядку выхода из игры, дураку 0",
            "за столом на троих 2 очка", "за столом на четверых 3, 2 и 1",
            "Пауза — в любой арене (один на один или за столами на 3 или 4",
            "на 20 секунд позже")),
])
def test_the_rules_page_states_table_arenas_and_the_pause(client, lang, said):
    section = _section(client, lang)
    for words in said:
        assert words in section, words
    assert not re.search(r"heads-up only|only heads-up|только один на один", section, re.I)


def test_the_docs_state_table_arenas_and_their_pause():
    text = DOCS.read_text(encoding="utf-8")
    tables = text.split("## Table arenas", 1)[1].split("\n## ", 1)[0]
    for words in ("3 or 4 players", "two pairs", "Points by the order of going out", "the durak 0",
                  "| 3 | 2 | 1 | – | 0 |", "| 4 | 3 | 2 | 1 | 0 |", "pause and return"):
        assert words in tables, words
    assert "**20 s more**" in text.split("## Arena", 1)[1].split("\n## ", 1)[0]
    assert not re.search(r"heads-up only|only heads-up", text, re.I)
