"""The move log on the harness's sample frames: a move is told once, whatever frames repeat it."""

from __future__ import annotations

import copy

import pytest

from tests.game.test_table_ui_harness import SAMPLES, harness, new_page, open_sample  # noqa: F401

pytestmark = [pytest.mark.browser]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def step(page, f: dict, **view) -> dict:
    f = copy.deepcopy(f)
    f["version"] += 1
    f["view"].update(view)
    page.evaluate("(f) => window.__table.receive(f)", f)
    return f


@pytest.mark.parametrize("lang, move, closed", [
    ("ru", "Коля: 9♦ побита картой В♦", "Бито: карты ушли в отбой"),
    ("en", "Коля beat 9♦ with J♦", None),
])
def test_cheater_modes_round_closing_move_is_logged_once(browser, harness, screenshot_dir, lang, move, closed):  # noqa: F811
    """The check window's end re-sends the round's last move with how the round closed: the log tells
    the move once and then the round's end."""
    context, page = new_page(browser, harness, locale=f"{lang}-{lang.upper()}",
                             extra_http_headers={"Accept-Language": lang}, **PHONE)
    try:
        open_sample(page, harness, "cheater_check")  # seat 2 beat 9♦ with J♦, the 4 s check runs
        f = copy.deepcopy(SAMPLES["cheater_check"]["frame"])
        f.pop("deadline_in", None)
        last = f["view"]["last"]
        f = step(page, f, last={**last, "closed": "bito"}, phase="play", table=[], legal=[], turn=[2],
                 attacker=2, defender=3, cheater={**f["view"]["cheater"], "check": False})
        log = page.evaluate("window.__table.log")
        assert log.count(move) == 1, log
        assert log[-1] != move
        if closed:
            assert log[-1] == closed, log
        f = step(page, f, last={"seat": 2, "type": "attack", "card": "6S"}, turn=[3])
        f = step(page, f, last={"seat": 3, "type": "take"}, phase="check", turn=[])
        step(page, f, last={"seat": 3, "type": "take", "closed": "take"}, phase="play", table=[], turn=[1])
        log = page.evaluate("window.__table.log")
        takes = [e for e in log if e in ("Вы берёте", "You take")]
        assert len(takes) == 1, log
        assert log.count(move) == 1, log
        page.click("#g-log-toggle")
        page.screenshot(path=str(screenshot_dir / f"table_movelog_cheater_once_{lang}.png"))
    finally:
        context.close()
    assert not page.errors, page.errors
