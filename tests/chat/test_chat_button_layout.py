"""The chat button on the game table never covers a control: on a phone in portrait
and landscape, with 2 to 6 players, while attacking («Бито»), defending («Беру») and in cheater mode
(«Поймать!»), and over the game-over dialog. On the DEBUG harness (no server): the chat's own state
arrives on a stand-in socket, as the table's socket would bring it."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from game.views import load_samples
from tests.game.test_table_ui_harness import harness, new_page, open_sample  # noqa: F401

SAMPLES = load_samples()
DECK = [r + s for s in "SDCH" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
NICKS = ["Вася", "Маша", "Бот Петрович", "Бот Сёма", "Константин Константинопольский", "Оля"]
PHONES = {"portrait": {"width": 390, "height": 844}, "landscape": {"width": 844, "height": 390}}
SCREENS = PHONES | {"tablet": {"width": 1024, "height": 768}}  # the button shows its label there
# mode: (sample, the button it shows)
MODES = {"attack": ("bito", "Бито"), "defend": ("podkidnoy4", "Беру"), "cheater": ("cheater_check", "Поймать!")}
HAND = {2: 6, 3: 10, 4: 14, 5: 20, 6: 8}

CHAT_STATE = {"type": "chat_state", "read": True, "write": True, "manage": False, "me": 2, "version": 0,
              "messages": [], "settings": {"spectators": "write", "profanity_filter": True}}


def table_frame(mode: str, players: int) -> dict:
    """The mode's sample at a table of `players`, the viewer holding HAND[players] cards."""
    sample, _label = MODES[mode]
    f = copy.deepcopy(SAMPLES[sample]["frame"])
    v = f["view"]
    seat = {"attack": 1, "defend": 2, "cheater": 3 if players >= 3 else 1}[mode]
    on_table = {c for p in v["table"] for c in (p["attack"], p["defense"]) if c}
    v["hand"] = [c for c in DECK if c not in on_table and c != v["trump_card"]][:HAND[players]]
    v["seat"] = seat
    v["players"] = players
    v["hand_counts"] = {str(n): 6 for n in range(1, players + 1)} | {str(seat): len(v["hand"])}
    v["legal"] = {"attack": [{"type": "pass"}], "defend": [{"type": "take"}], "cheater": v["legal"]}[mode]
    v["turn"] = [] if mode == "cheater" else [seat]
    f["seats"] = [{"number": n, "nick": NICKS[n - 1], "bot": "Бот" in NICKS[n - 1], "connected": True,
                   "left": False} for n in range(1, players + 1)]
    f["version"] = 100
    f.pop("deadline_in", None)
    return f


def open_chat(page, wide: bool = False) -> None:
    """Hands the page a stand-in socket (static/site/socket.js `adopt`, as the table client's own is)
    and the chat's state on it, then one message from another player, so the unread count shows (on a
    phone: the chat is closed)."""
    page.evaluate("""state => {
        window.__socket.adopt({ path: '/ws/tables/0/', isOpen: () => true, send: () => true });
        const say = (m) => window.__socket.deliver(m);
        say(state);
        say({ type: 'chat', version: 1, message: { id: 1, author_id: 1, nick: 'Вася', text: 'Привет',
              at: new Date().toISOString() } });
    }""", CHAT_STATE)
    if not wide:
        page.wait_for_selector("#chat-toggle:visible")
        page.wait_for_selector("#chat-unread:visible")


# every control of the table and the page around it, and the cards, seats, deck and discard
OVERLAPS = """() => {
    const toggle = document.getElementById('chat-toggle');
    const boxes = [toggle, document.getElementById('chat-unread')].map(e => e.getBoundingClientRect());
    const visible = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
        return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
    const cut = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
        && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
    const others = [...document.querySelectorAll(
        '#game button, #game a, #game .card, #game .pod, #g-deck, #g-discard, #g-hand, .site-header a, .site-header button')]
        .filter(e => !toggle.contains(e) && visible(e));
    return others.filter(e => boxes.some(b => cut(b, e.getBoundingClientRect())))
        .map(e => (e.id || e.className || e.tagName) + ' ' + (e.dataset.card || e.innerText || '').trim().slice(0, 20));
}"""

ON_TOP = """() => ['chat-toggle', 'chat-unread'].map(id => {
    const r = document.getElementById(id).getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && !!hit.closest('#chat-toggle');
})"""


def check_button(page, vp: dict) -> None:
    for sel in ("#chat-toggle", "#chat-unread"):
        box = page.locator(sel).bounding_box()
        assert box and box["x"] >= 0 and box["y"] >= 0, (sel, box)
        assert box["x"] + box["width"] <= vp["width"] and box["y"] + box["height"] <= vp["height"], (sel, box)
    assert page.evaluate(OVERLAPS) == []
    assert page.evaluate(ON_TOP) == [True, True]  # nothing lies over the button or its count


@pytest.mark.parametrize("orientation", list(SCREENS))
@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_chat_button_covers_no_control_of_the_table(browser, harness, screenshot_dir: Path,  # noqa: F811
                                                        orientation, mode, players):
    vp = SCREENS[orientation]
    phone = orientation in PHONES
    context, page = new_page(browser, harness, viewport=vp, device_scale_factor=2, is_mobile=phone, has_touch=phone)
    open_sample(page, harness, MODES[mode][0])
    open_chat(page)
    page.evaluate("f => window.__table.receive(f)", table_frame(mode, players))
    page.wait_for_timeout(500)  # the fan's transitions
    action = page.locator("#g-controls button", has_text=MODES[mode][1])
    assert action.is_visible()
    page.screenshot(path=str(screenshot_dir / f"chat_button_{orientation}_{mode}_{players}p.png"))
    check_button(page, vp)
    label_shown = page.locator("#chat-toggle .chat-toggle-label").bounding_box()["width"] > 1
    assert label_shown == (not phone)  # a phone shows the icon; its name stays for screen readers
    assert page.get_by_role("button", name="Чат").is_visible()
    context.close()
    assert not page.errors, page.errors


def test_beside_a_wide_table_the_chat_is_a_column_and_needs_no_button(browser, harness):  # noqa: F811
    context, page = new_page(browser, harness, viewport={"width": 1280, "height": 860})
    open_sample(page, harness, "podkidnoy4")
    open_chat(page, wide=True)
    assert page.locator("#chat-drawer").is_visible()
    assert not page.locator("#chat-toggle").is_visible()
    drawer = page.locator("#chat-drawer").bounding_box()
    game = page.locator("#game").bounding_box()
    assert game["x"] + game["width"] <= drawer["x"] + 0.5  # beside the table, not over it
    context.close()
    assert not page.errors, page.errors


@pytest.mark.parametrize("orientation", list(PHONES))
def test_the_chat_button_stays_usable_over_the_game_over_dialog(browser, harness, screenshot_dir: Path,  # noqa: F811
                                                                orientation):
    vp = PHONES[orientation]
    context, page = new_page(browser, harness, viewport=vp, device_scale_factor=2, is_mobile=True, has_touch=True)
    open_sample(page, harness, "result")
    open_chat(page)
    page.wait_for_selector("#g-result:not([hidden])")
    page.wait_for_timeout(500)
    page.screenshot(path=str(screenshot_dir / f"chat_button_{orientation}_result.png"))
    check_button(page, vp)
    page.click("#chat-toggle")
    assert page.locator("#chat-drawer").is_visible()
    context.close()
    assert not page.errors, page.errors


def test_the_chat_button_is_reached_with_the_keyboard_and_opens_the_drawer(browser, harness):  # noqa: F811
    context, page = new_page(browser, harness, viewport=PHONES["portrait"], is_mobile=True, has_touch=True)
    open_sample(page, harness, "podkidnoy4")
    open_chat(page)
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "chat-toggle":
            break
    assert page.evaluate("document.activeElement.id") == "chat-toggle"
    page.keyboard.press("Enter")
    assert page.locator("#chat-drawer").is_visible()
    assert page.evaluate("document.activeElement.id") == "chat-input"
    page.keyboard.press("Escape")
    assert not page.locator("#chat-drawer").is_visible()
    assert page.evaluate("document.activeElement.id") == "chat-toggle"
    assert page.locator("#chat-toggle").get_attribute("aria-expanded") == "false"
    context.close()
    assert not page.errors, page.errors
