"""What a player reads at the table, on the harness's sample frames: card names in the page's
language, the move log, cheater mode's notices, moves the clock or a bot made, the phone layout.
"""

from __future__ import annotations

import copy

import pytest

from tests.game.test_table_ui_harness import SAMPLES, harness, new_page, open_sample  # noqa: F401

pytestmark = [pytest.mark.browser]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def receive(page, frame: dict) -> None:
    page.evaluate("(f) => window.__table.receive(f)", frame)


def sample_frame(page) -> dict:
    return copy.deepcopy(page.evaluate("window.__table.frame || null") or {})


@pytest.mark.parametrize("lang, face, spoken, short", [
    ("ru", "Д", "дама треф", "Д♣"),
    ("en", "Q", "queen of clubs", "Q♣"),
])
def test_cards_are_named_in_the_pages_language(browser, harness, lang, face, spoken, short):  # noqa: F811
    context, page = new_page(browser, harness, locale="ru-RU" if lang == "ru" else "en-US",
                             extra_http_headers={"Accept-Language": lang})
    try:
        open_sample(page, harness, "podkidnoy4")
        queen = page.locator("#g-hand .card[data-card='QC']")
        assert queen.get_attribute("aria-label") == spoken
        assert queen.locator(".corner.tl b").inner_text() == face
        labels = page.evaluate("""async () => {
            const c = await import("/static/game/cards.js");
            return [c.label("QC"), c.cardName("AH"), c.cardName("10S"), c.label("JD"), c.label("KS")];
        }""")
        if lang == "ru":
            assert labels == [short, "туз червей", "10 пик", "В♦", "К♠"]
        else:
            assert labels == [short, "ace of hearts", "10 of spades", "J♦", "K♠"]
    finally:
        context.close()
    assert not page.errors, page.errors
