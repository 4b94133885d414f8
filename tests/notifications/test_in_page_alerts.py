"""The in-page vibration (and chime) for «Ваш ход», as the player set them on his profile."""

from __future__ import annotations

import pytest

from notifications import services
from tests.conftest import login_browser_context
from tests.game.test_table_ui_live import close, make_player, start_table

pytestmark = [pytest.mark.timeout(300)]

RECORD = """navigator.vibrate = (pattern) => { (window.__vibrations = window.__vibrations || []).push(pattern); return true; };"""


@pytest.mark.parametrize("vibrate", [True, False])
def test_his_turn_vibrates_the_phone_only_when_he_asked(asgi_live_server, browser, transactional_db, vibrate):
    person = make_player(f"Вибро{int(vibrate)}")
    services.set_switches(person, {"vibrate": vibrate})
    table, _game = start_table([person], bots=("random",))
    context = login_browser_context(browser, asgi_live_server, person, mobile=True)
    context.add_init_script(RECORD)
    page = context.new_page()
    page.goto(f"/tables/{table.pk}/")
    page.wait_for_function("window.__table && window.__table.view && window.__table.view.turn"
                           " .includes(window.__table.view.seat)", timeout=20000)
    page.wait_for_timeout(300)
    told = page.evaluate("window.__vibrations || []")
    assert told == ([[120, 60, 120]] if vibrate else []), told
    close(context)
