"""The table without sight: a whole game against a bot played in Chromium with the keyboard alone,
reading only what the live region says and finding things by their roles and names (the
accessibility tree): no clicks, no selectors of cards, no look at the page's state."""

from __future__ import annotations

import time

import pytest

from tests.conftest import login_browser_context
from tests.game.test_table_ui_live import close, make_player, start_table

pytestmark = [pytest.mark.timeout(600)]

WORDS = {
    "ru-RU": {"toggle": "Режим для незрячих", "log": "Ход игры", "field": "Ваша команда", "your_turn": "Ваш ход",
              "over": "Игра окончена", "moves": "ходы", "can": "Можно: ", "lead": "ход: ", "take": "беру",
              "done": "бито", "pass": "пас", "on": " на ", "hand": "Ваши карты:", "players": "Игроки",
              "round": "Раунд 1. Козырная карта: ", "bot_moved": ("ходит:", "отбивается:", "берёт.", ": пас.")},
    "en-US": {"toggle": "Screen reader mode", "log": "Game events", "field": "Your command", "your_turn": "Your turn",
              "over": "The game is over", "moves": "moves", "can": "You can: ", "lead": "lead ", "take": "take",
              "done": "done", "pass": "pass", "on": " on ", "hand": "Your cards:", "players": "Players",
              "round": "Round 1. The trump card is ", "bot_moved": ("leads:", "beats:", "takes.", ": pass.")},
}


class BlindPlayer:
    """Reads the live region, types into the command field; nothing else."""

    def __init__(self, page, words: dict) -> None:
        self.page, self.w = page, words
        self.log = page.get_by_role("log", name=words["log"])
        self.read = 0  # lines of the log already read

    def lines(self) -> list[str]:
        return [line for line in self.log.inner_text().split("\n") if line.strip()]

    def new_lines(self, timeout: float = 20.0) -> list[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            lines = self.lines()
            if len(lines) > self.read:
                time.sleep(0.15)  # a frame's news come together: read them whole
                lines = self.lines()
                fresh, self.read = lines[self.read:], len(lines)
                return fresh
            time.sleep(0.05)
        return []

    def command(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.page.keyboard.press("Enter")


def choose(words: dict, options: list[str]) -> str:
    """What to type for the first move offered: its words where they are a command, else its number."""
    first = options[0]
    if first in (words["take"], words["done"], words["pass"]) or words["on"] in first:
        return first
    if first.startswith(words["lead"]):
        return first[len(words["lead"]):]
    return "1"


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
def test_a_whole_game_against_a_bot_with_the_keyboard_and_the_live_region_alone(
        asgi_live_server, browser, transactional_db, screenshot_dir, locale):
    w = WORDS[locale]
    person = make_player("Слепой" if locale == "ru-RU" else "Blind")
    table, _game = start_table([person], bots=("heuristic",))
    context = login_browser_context(browser, asgi_live_server, person, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"/tables/{table.pk}/")
    toggle = page.get_by_role("button", name=w["toggle"])
    focused = lambda: toggle.evaluate("el => el === document.activeElement")  # noqa: E731
    for _attempt in range(3):  # (a key pressed while the page still loads may go nowhere: again)
        page.keyboard.press("Tab")  # the page's first stop: «skip to content»
        page.keyboard.press("Enter")
        for _ in range(3):  # the content's first control is the mode's switch
            page.keyboard.press("Tab")
            if focused():
                break
        if focused():
            break
        page.wait_for_timeout(500)
    else:
        raise AssertionError("the screen reader mode's switch is not reachable with Tab; focus on: "
                             + page.evaluate("document.activeElement.outerHTML.slice(0, 200)"))
    assert toggle.is_visible(), "a focused control shows"
    page.keyboard.press("Enter")
    player = BlindPlayer(page, w)
    field = page.get_by_role("textbox", name=w["field"])
    assert field.evaluate("el => el === document.activeElement"), "the command field has the focus"
    for heading in (w["log"], w["players"]):
        assert page.get_by_role("heading", name=heading).is_visible()
    told: list[str] = player.new_lines()  # the mode says it is on, the round, the trump card, the stock
    assert any(line.startswith(w["round"]) for line in told), told
    player.command("?")
    position = " ".join(player.new_lines())
    assert w["hand"] in position, position

    moves = 0
    deadline = time.monotonic() + float(__import__("os").environ.get("BLIND_GAME_SECONDS", "420"))
    while time.monotonic() < deadline:
        fresh = player.new_lines(timeout=8)
        told += fresh
        if any(line.startswith(w["over"]) for line in fresh):
            break
        if fresh and not fresh[-1].startswith(w["your_turn"]):
            continue  # (nothing new for a while: ask anyway, as a player would)
        player.command(w["moves"])
        reply = [line for line in player.new_lines(timeout=5) if line.startswith(w["can"])]
        if not reply:
            continue
        options = [part.split(": ", 1)[1] for part in reply[-1][len(w["can"]):].rsplit(".", 2)[0].split("; ")]
        player.command(choose(w, options))
        moves += 1
    else:
        raise AssertionError("the game did not end in time:\n" + "\n".join(player.lines()[-20:])
                             + "\nalerts: " + " | ".join(page.get_by_role("alert").all_inner_texts()))
    page.screenshot(path=str(screenshot_dir / f"blind-mode-{locale}.png"), full_page=True)
    assert moves >= 5, moves
    assert any(any(mark in line for mark in w["bot_moved"]) for line in told), "the bot's moves are spoken"
    for a, b in zip(told, told[1:], strict=False):  # in order and without repeats
        assert not (a == b and not a.startswith(w["your_turn"])), f"said twice: {a}"
    assert not errors, errors
    from tests.a11y.test_axe import violations

    dialog = page.get_by_role("dialog")  # the result, reached with Tab like the rest
    assert dialog.is_visible()
    assert violations(page) == [], "the result dialog"
    close(context)
