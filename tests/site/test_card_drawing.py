"""One way to draw a card: the table and the replay draw with game/static/game/cards.js
cardEl(); server pages (the rules, the home page) with {% playing_card %} (templates/_card.html).
These hold the two drawings equal to the character for every card of the deck, and look at the
rules page's examples on a phone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from tests.game.test_table_ui_harness import harness, new_page, open_sample  # noqa: F401

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
DECK = [r + s for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
# the module every card-drawing script must take its cards from
CARDS_JS = ROOT / "game" / "static" / "game" / "cards.js"
JS_OF_CARDS = ["game/static/game/view.js", "game/static/game/hand.js", "ratings/static/ratings/replay.js"]

COMPARE = """async ({rendered, trump}) => {
  const { cardEl } = await import("/static/game/cards.js");
  const tpl = document.createElement("template");
  const out = [];
  for (const [card, html] of Object.entries(rendered)) {
    tpl.innerHTML = html;
    const server = tpl.content.firstElementChild;
    const client = cardEl(card, { trump });
    out.push([card, server.className, client.className, server.dataset.card, client.dataset.card,
              server.innerHTML, client.innerHTML]);
  }
  return out;
}"""


def render_card(card: str, trump: str = "", lang: str = "ru") -> str:
    """The server's drawing in the language of the harness pages (ranks are printed in it: «В», «Д»)."""
    with translation.override(lang):
        return Template('{% load lobby_tags %}{% playing_card card trump=trump %}').render(
            Context({"card": card, "trump": trump}))


def assert_same_drawing(rows: list) -> None:
    for card, s_cls, c_cls, s_data, c_data, s_html, c_html in rows:
        assert (s_cls, s_data) == (c_cls, c_data), card
        assert s_html == c_html, card


def test_scripts_that_show_cards_draw_them_with_cards_js_only():
    """The table's view and hand and the replay import cardEl; no other script builds a card's DOM."""
    for rel in JS_OF_CARDS:
        text = (ROOT / rel).read_text()
        assert re.search(r"import \{[^}]*\bcardEl\b[^}]*\} from \"[./]*(game/)?cards\.js\"", text), rel
    for js in ROOT.glob("*/static/**/*.js"):
        if js != CARDS_JS and ".venv" not in js.parts:
            assert not re.search(r"className\s*=\s*[\"'`]card[\" '`]", js.read_text()), js


def test_the_server_drawing_equals_cards_js_for_every_card(browser, harness):  # noqa: F811
    context, page = new_page(browser, harness)
    try:
        page.goto(f"{harness[0]}/tables/rules/")
        for trump in ("", "S", "H"):
            rows = page.evaluate(COMPARE, {"rendered": {c: render_card(c, trump) for c in DECK},
                                           "trump": trump or None})
            assert len(rows) == 52
            assert_same_drawing(rows)
    finally:
        context.close()
    assert not page.errors, page.errors


def test_a_number_card_lays_out_each_pip_apart_inside_the_card(browser, harness):  # noqa: F811
    """The pip layout lives in cards.css: each of a 10's ten pips has its own place on the face."""
    context, page = new_page(browser, harness)
    try:
        page.goto(f"{harness[0]}/tables/rules/")
        boxes = page.evaluate("""async () => {
          const { cardEl } = await import("/static/game/cards.js");
          const out = {};
          for (const c of ["2S", "7D", "10H"]) {
            const el = cardEl(c);
            document.body.appendChild(el);
            const card = el.getBoundingClientRect();
            out[c] = {card: [card.left, card.top, card.right, card.bottom],
                      pips: [...el.querySelectorAll(".face i")].map((i) => {
                        const b = i.getBoundingClientRect();
                        return [Math.round(b.left + b.width / 2), Math.round(b.top + b.height / 2)];
                      })};
          }
          return out;
        }""")
    finally:
        context.close()
    for card, want in (("2S", 2), ("7D", 7), ("10H", 10)):
        left, top, right, bottom = boxes[card]["card"]
        pips = boxes[card]["pips"]
        assert len(set(map(tuple, pips))) == want, (card, pips)
        assert all(left < x < right and top < y < bottom for x, y in pips), (card, pips)


def test_the_table_hand_draws_the_same_card_as_the_server(browser, harness):  # noqa: F811
    context, page = new_page(browser, harness)
    try:
        open_sample(page, harness, "podkidnoy4")
        rows = page.evaluate("""() => [...document.querySelectorAll('#g-hand .card')]
            .map((e) => [e.dataset.card, e.innerHTML])""")
        trump = page.evaluate("window.__table.view.trump")
    finally:
        context.close()
    assert rows
    for card, html in rows:
        server = render_card(card, trump)
        assert server.endswith(html + "</span>"), card


def test_the_rules_page_shows_card_examples_drawn_like_the_table_on_a_phone(
        browser, harness, screenshot_dir):  # noqa: F811
    context, page = new_page(browser, harness, viewport={"width": 390, "height": 844}, device_scale_factor=2,
                             is_mobile=True, has_touch=True)
    try:
        page.goto(f"{harness[0]}/tables/rules/")
        examples = page.locator(".card-examples")
        assert examples.count() == 3
        rendered = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
            '.card-examples .card:not(.back)')].map((e) => [e.dataset.card, e.outerHTML]))""")
        assert set(rendered) == {"QS", "7H", "10H", "KC", "6S", "7C", "10D", "8D", "8C"}
        # the spades in the examples carry the trump mark, as on the table with spades trumps
        rows = page.evaluate(COMPARE, {"rendered": rendered, "trump": "S"})
        for row in rows:  # the extra layout classes (def, trump-card) are the page's, the card is cardEl's
            row[1] = " ".join(c for c in row[1].split() if c not in ("def", "trump-card"))
        assert_same_drawing(rows)
        page.locator(".card-examples").nth(0).screenshot(path=str(screenshot_dir / "rules-card-trump-phone.png"))
        page.locator(".card-examples").nth(2).screenshot(path=str(screenshot_dir / "rules-card-transfer-phone.png"))
        page.locator(".card-examples").nth(1).scroll_into_view_if_needed()
        page.screenshot(path=str(screenshot_dir / "rules-card-examples-phone.png"))
        width = page.evaluate("document.documentElement.clientWidth")
        for box in page.locator(".card-examples .card").evaluate_all(
                "els => els.map((e) => e.getBoundingClientRect().toJSON())"):
            assert box["left"] >= 0 and box["right"] <= width, box
        assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    finally:
        context.close()
    assert not page.errors, page.errors
