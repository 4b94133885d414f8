"""The chat client on the DEBUG harness table (a stand-in socket brings the chat's frames): a refused
message stays in the box, the counter, safe links that show their domain, the per-message menu,
reactions that float clear of each other and of the cards and leave a line in the log, and reaction
emoji drawn as images (no colour-emoji font needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.chat.test_chat_button_layout import CHAT_STATE, table_frame
from tests.game.test_table_ui_harness import harness, new_page, open_sample  # noqa: F401

pytestmark = [pytest.mark.browser]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def open_chat(page) -> None:
    """The page gets a stand-in socket (static/site/socket.js `adopt`) that records what chat.js sends;
    `window.say(frame)` plays a frame on it."""
    page.evaluate("""state => {
        window.sentChat = [];
        window.__socket.adopt({ path: '/ws/tables/0/', isOpen: () => true,
                                send: (m) => { window.sentChat.push(m); return true; } });
        window.say = (m) => window.__socket.deliver(m);
        window.say(state);
    }""", CHAT_STATE)
    page.wait_for_function("window.__chat && window.__chat.state.read")


def message(page, id_: int, author: int, nick: str, text: str) -> None:
    page.evaluate("([id, author, nick, text]) => window.say({type: 'chat', version: id, message: {id, "
                  "author_id: author, nick, text, at: new Date().toISOString()}})", [id_, author, nick, text])


def start(browser, harness, **options):  # noqa: F811
    context, page = new_page(browser, harness, **options)
    open_sample(page, harness, "podkidnoy4")
    page.evaluate("(f) => window.__table.receive(f)", table_frame("defend", 4))
    open_chat(page)
    return context, page


def test_a_refused_message_stays_in_the_box_and_the_counter_shows(browser, harness):  # noqa: F811
    context, page = start(browser, harness, viewport={"width": 1280, "height": 860})
    try:
        page.fill("#chat-input", "Сыграем ещё?")
        assert page.inner_text("#chat-count") == "12/200"
        page.press("#chat-input", "Enter")
        assert page.evaluate("window.sentChat.pop()") == {"type": "chat_send", "text": "Сыграем ещё?"}
        assert page.input_value("#chat-input") == ""
        page.evaluate("window.say({type: 'chat_error', code: 'chat_rate_limited', message: 'Слишком часто'})")
        assert page.input_value("#chat-input") == "Сыграем ещё?"  # not lost: he can send it again
        page.fill("#chat-input", "x" * 185)
        assert page.inner_text("#chat-count").startswith("185/200")
        assert "15" in page.inner_text("#chat-count")
        # an accepted message clears the box for good
        page.fill("#chat-input", "Привет")
        page.press("#chat-input", "Enter")
        message(page, 1, 2, "Маша", "Привет")
        page.evaluate("window.say({type: 'chat_error', code: 'chat_rate_limited', message: 'Слишком часто'})")
        assert page.input_value("#chat-input") == ""
    finally:
        context.close()
    assert not page.errors, page.errors


def test_links_are_clickable_safe_and_show_their_domain(browser, harness):  # noqa: F811
    context, page = start(browser, harness, viewport={"width": 1280, "height": 860})
    try:
        message(page, 1, 1, "Вася", "правила тут: https://example.com/durak/rules?x=1. <b>и</b> javascript:alert(1)")
        links = page.locator(".chat-msg .chat-text a")
        assert links.count() == 1
        link = links.first
        assert link.get_attribute("href") == "https://example.com/durak/rules?x=1"
        assert link.get_attribute("rel") == "nofollow noopener ugc"
        assert link.inner_text().startswith("example.com/")
        text = page.inner_text(".chat-msg .chat-text")
        assert text.endswith(". <b>и</b> javascript:alert(1)")  # markup stays text, no other link
        assert page.locator(".chat-msg .chat-text b").count() == 0
    finally:
        context.close()
    assert not page.errors, page.errors


def test_hide_and_report_live_in_a_menu_per_message(browser, harness, screenshot_dir: Path):  # noqa: F811
    context, page = start(browser, harness, viewport={"width": 1280, "height": 860})
    try:
        message(page, 1, 1, "Вася", "Привет")
        message(page, 2, 3, "Оля", "Удачи")
        row = page.locator(".chat-msg").first
        assert row.get_by_role("button", name="Пожаловаться").count() == 0 or not row.get_by_role(
            "button", name="Пожаловаться").is_visible()
        height = row.bounding_box()["height"]
        assert height < 64, height  # two lines: the name and the text
        row.locator(".chat-menu-btn").click()
        assert row.get_by_role("button", name="Пожаловаться").is_visible()
        page.screenshot(path=str(screenshot_dir / "chat-message-menu-desktop.png"))
        row.get_by_role("button", name="Скрыть сообщения игрока").click()
        assert page.locator(".chat-msg.hidden-author").count() == 1
    finally:
        context.close()
    assert not page.errors, page.errors


def test_reactions_float_apart_clear_of_the_cards_and_leave_a_line(browser, harness,  # noqa: F811
                                                                    screenshot_dir: Path):
    context, page = start(browser, harness, **PHONE)
    try:
        for author, seat, key in ((1, 1, "good_game"), (3, 3, "emoji_like"), (1, 1, "emoji_clap")):
            page.evaluate("([a, s, k, n]) => window.say({type: 'chat_reaction', key: k, author_id: a, seat: s, nick: n})",
                          [author, seat, key, {1: "Вася", 3: "Бот Петрович"}[author]])
        floats = page.locator(".chat-float")
        assert floats.count() == 3
        boxes = [floats.nth(i).bounding_box() for i in range(3)]
        for i in range(3):
            for j in range(i + 1, 3):
                a, b = boxes[i], boxes[j]
                apart = (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                         or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])
                assert apart, (a, b)
        cards = [page.locator(f".pod[data-seat='{n}'] .pod-cards").bounding_box() for n in (1, 3)]
        for box in boxes:
            for c in cards:
                assert (box["y"] >= c["y"] + c["height"] - 1 or box["y"] + box["height"] <= c["y"]
                        or box["x"] >= c["x"] + c["width"] or box["x"] + box["width"] <= c["x"]), (box, c)
        # the emoji are images the site ships: they draw without an emoji font
        img = page.locator(".chat-float img.chat-emoji-img").first
        page.wait_for_function("[...document.querySelectorAll('.chat-float img')].every(i => i.complete && i.naturalWidth > 0)")
        assert img.get_attribute("alt") == "👍"
        page.screenshot(path=str(screenshot_dir / "chat-reactions-phone.png"))
        lines = page.locator("#chat-log .chat-reaction")
        assert lines.count() == 3 and lines.first.inner_text().startswith("Вася: ")
        assert page.locator("#chat-quick .chat-emoji img").count() == 6
    finally:
        context.close()
    assert not page.errors, page.errors


def test_on_a_phone_the_open_chat_closes_when_the_players_turn_comes(browser, harness):  # noqa: F811
    context, page = new_page(browser, harness, **PHONE)
    try:
        open_sample(page, harness, "podkidnoy4")
        f = table_frame("defend", 4)
        f["view"]["turn"] = [1]  # not his turn yet
        page.evaluate("(f) => window.__table.receive(f)", f)
        open_chat(page)
        page.click("#chat-toggle")
        assert page.locator("#chat-drawer").is_visible()
        f["version"] += 1
        f["view"]["turn"] = [2]  # his turn: the sheet must not hide his hand and clock
        page.evaluate("(f) => window.__table.receive(f)", f)
        page.wait_for_function("!window.__chat.state.open")
        assert not page.locator("#chat-drawer").is_visible()
        assert page.locator("#g-hand").is_visible()
    finally:
        context.close()
    assert not page.errors, page.errors
