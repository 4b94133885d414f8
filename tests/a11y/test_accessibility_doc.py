"""The keys and commands of the table without sight: documented, linked from the help page."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "section"), [("ru", "Игра без зрения"), ("en", "Playing without sight")])
def test_the_help_page_links_the_accessibility_document(client, language, section):
    page = client.get("/help/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert section in page and 'href="/help/accessibility/"' in page
    doc = client.get("/help/accessibility/").content.decode()
    for words in ("Screen reader mode", "`ходы` / `moves`", "| ? |", "prefers-reduced-motion"):
        assert words in doc, words
