"""The chat in the browser against the real stack: two players chat and react at a live table while
a moderator deletes a message and mutes a player in the admin."""

from __future__ import annotations

import pytest

from tests.conftest import login_browser_context
from tests.game.test_table_ui_live import close, make_player, open_table, start_table

pytestmark = [pytest.mark.timeout(300)]


def wait_chat(page) -> None:
    page.wait_for_function("window.__chat && window.__chat.state.read", timeout=20000)


def run_admin_action(page, changelist: str, pk: int, action: str) -> None:
    page.goto(changelist)
    page.check(f"input[name=_selected_action][value='{pk}']")
    page.select_option("select[name=action]", action)
    page.click("button[name=index]")


def test_two_players_chat_and_react_and_a_moderator_deletes_and_mutes_while_the_table_watches(
        asgi_live_server, transactional_db, browser, screenshot_dir):
    from chat.models import Message, ModerationLog, Report

    a, b, watcher = make_player("Анна"), make_player("Борис"), make_player("Watcher")
    moderator = make_player("Модератор")
    moderator.is_staff = True
    moderator.save()
    table, _game = start_table([a, b])
    ctx_a, page_a = open_table(browser, asgi_live_server, a, table)
    ctx_b, page_b = open_table(browser, asgi_live_server, b, table, mobile=True)
    ctx_w = None
    ctx_m = login_browser_context(browser, asgi_live_server, moderator)
    page_m = ctx_m.new_page()
    try:
        wait_chat(page_a)
        wait_chat(page_b)
        # desktop: the chat is open beside the game; phone: a drawer behind a button
        assert page_a.locator("#chat-drawer").is_visible()
        assert not page_b.locator("#chat-drawer").is_visible()
        page_b.screenshot(path=str(screenshot_dir / "chat-phone-closed.png"))

        page_a.fill("#chat-input", "Привет! <b>жирный</b> <script>alert(1)</script>")
        page_a.press("#chat-input", "Enter")
        page_b.wait_for_function("window.__chat.state.messages.length === 1")
        page_b.wait_for_selector("#chat-unread:not([hidden])")
        page_b.click("#chat-toggle")
        assert page_b.evaluate("document.activeElement.id") == "chat-input"
        # keyboard: Escape closes the phone drawer and gives the focus back to its button; Enter reopens it
        page_b.keyboard.press("Escape")
        assert not page_b.locator("#chat-drawer").is_visible()
        assert page_b.evaluate("document.activeElement.id") == "chat-toggle"
        page_b.keyboard.press("Enter")
        assert page_b.locator("#chat-drawer").is_visible()
        text_b = page_b.locator(".chat-msg .chat-text").first
        assert text_b.inner_text() == "Привет! <b>жирный</b> <script>alert(1)</script>"
        assert page_b.locator(".chat-msg b.chat-nick").count() == 1  # the nick is the only bold there
        assert page_b.locator(".chat-text *").count() == 0  # markup arrives as text

        page_b.fill("#chat-input", "Удачи всем")
        page_b.press("#chat-input", "Enter")
        page_a.wait_for_function("window.__chat.state.messages.length === 2")
        # a spectator reading in English sees the same conversation
        ctx_w, page_w = open_table(browser, asgi_live_server, watcher, table, locale="en-US")
        wait_chat(page_w)
        assert page_w.locator(".chat-text").all_inner_texts() == [
            "Привет! <b>жирный</b> <script>alert(1)</script>", "Удачи всем"]
        assert page_w.get_by_role("button", name="Good game!").count() == 1
        # "hide this player" lasts for the browser: still hidden after a reload
        page_b.locator(".chat-msg").first.locator(".chat-menu-btn").click()  # hide and report: in its «⋯» menu
        page_b.locator(".chat-msg").first.get_by_role("button", name="Скрыть сообщения игрока").click()
        assert page_b.locator(".chat-msg.hidden-author").count() == 1
        page_b.reload()
        wait_chat(page_b)
        assert page_b.locator(".chat-msg.hidden-author .chat-text").inner_text() == "Сообщение скрытого вами игрока"
        page_b.click("#chat-toggle")
        page_b.locator(".chat-msg").first.locator(".chat-menu-btn").click()
        page_b.locator(".chat-msg").first.get_by_role("button", name="Снова показывать сообщения игрока").click()
        assert page_b.locator(".chat-msg.hidden-author").count() == 0
        # a socket that blinks resyncs: what was written meanwhile is there after the reconnect
        page_a.evaluate("window.__table.dropSocket()")
        page_b.fill("#chat-input", "пока тебя не было")
        page_b.press("#chat-input", "Enter")
        page_a.wait_for_function("window.__chat.state.messages.length === 3", timeout=20000)
        # a quick phrase floats over the sender's seat on the other screen
        page_b.get_by_role("button", name="Хорошая игра!").click()
        floating = page_a.locator(".chat-float", has_text="Хорошая игра!")
        floating.wait_for(timeout=5000)
        page_w.locator(".chat-float", has_text="Good game!").wait_for(timeout=5000)
        pod = page_a.locator(".pod[data-seat='2']").bounding_box()
        box = floating.bounding_box()
        assert pod and box and abs((box["x"] + box["width"] / 2) - (pod["x"] + pod["width"] / 2)) < 5
        page_a.screenshot(path=str(screenshot_dir / "chat-desktop-reaction.png"))
        page_b.screenshot(path=str(screenshot_dir / "chat-phone-drawer.png"))

        page_a.fill("#chat-input", "ты сука")
        page_a.press("#chat-input", "Enter")
        page_b.wait_for_function("window.__chat.state.messages.length === 4")
        rude = Message.objects.filter(author=a).latest("pk")
        assert page_b.locator(".chat-msg .chat-text").last.inner_text() == "ты с***"  # masked by default
        # Борис reports it with a reason
        last = page_b.locator(".chat-msg").last
        last.locator(".chat-menu-btn").click()
        last.get_by_role("button", name="Пожаловаться").click()
        last.locator(".chat-report-form input").fill("оскорбление")
        last.get_by_role("button", name="Отправить жалобу").click()
        page_b.wait_for_selector(".chat-error[data-kind='ok']:not([hidden])")
        report = Report.objects.get(message=rude)

        # the moderator's queue: the message, the conversation and the table
        page_m.goto("/admin/chat/report/")
        row = page_m.locator("#result_list tbody tr").first
        assert "ты сука" in row.inner_text() and "Удачи всем" in row.inner_text() and "оскорбление" in row.inner_text()
        page_m.screenshot(path=str(screenshot_dir / "chat-admin-queue.png"), full_page=True)
        run_admin_action(page_m, "/admin/chat/report/", report.pk, "delete_messages")
        page_m.wait_for_selector(".messagelist .success")
        for page in (page_a, page_b):
            page.wait_for_function("window.__chat.state.messages.length === 3")
            assert page.locator(".chat-msg").count() == 3

        # mute Анна for an hour with a reason: her table shows it and she can no longer write
        first = Message.objects.filter(author=a).earliest("pk")
        run_admin_action(page_m, "/admin/chat/message/", first.pk, "mute_authors")
        page_m.select_option("select[name=period]", "1h")
        page_m.fill("textarea[name=reason]", "грубость в чате")
        page_m.click("input[name=apply]")
        page_m.wait_for_selector(".messagelist .success")
        page_a.wait_for_selector("#chat-notice:not([hidden])")
        assert "грубость в чате" in page_a.locator("#chat-notice").inner_text()
        assert not page_a.locator("#chat-form").is_visible()
        page_a.screenshot(path=str(screenshot_dir / "chat-desktop-muted.png"))

        actions = set(ModerationLog.objects.filter(moderator=moderator).values_list("action", flat=True))
        assert actions == {"delete", "mute"}
        assert Report.objects.get(pk=report.pk).status == "closed"
        assert page_a.errors == [] and page_b.errors == [] and page_w.errors == []
    finally:
        close(*[c for c in (ctx_a, ctx_b, ctx_w, ctx_m) if c is not None])


def test_two_players_chat_in_the_waiting_room_and_the_game_keeps_the_conversation(
        asgi_live_server, transactional_db, browser, screenshot_dir):
    from lobby import services as lobby_services
    from tests.conftest import login_browser_context

    a, b = make_player("Вера"), make_player("Глеб")
    table = lobby_services.create_table(a, seats_count=2)
    lobby_services.sit(table.pk, b, 2)
    contexts, pages = [], []
    for player, mobile in ((a, False), (b, True)):
        ctx = login_browser_context(browser, asgi_live_server, player, mobile=mobile)
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda e, errors=page.errors: errors.append(str(e)))
        page.goto(f"/tables/{table.pk}/")
        contexts.append(ctx)
        pages.append(page)
    page_a, page_b = pages
    try:
        for page in pages:
            page.wait_for_selector("#room")
            wait_chat(page)
        # the waiting room has the chat: a column beside the seats on a desktop, a drawer on a phone
        assert page_a.locator("#chat-drawer").is_visible() and not page_b.locator("#chat-drawer").is_visible()
        page_a.fill("#chat-input", "Привет! Сыграем?")
        page_a.press("#chat-input", "Enter")
        page_b.wait_for_function("window.__chat.state.messages.length === 1")
        page_b.wait_for_selector("#chat-unread:not([hidden])")
        page_b.click("#chat-toggle")
        page_b.fill("#chat-input", "Давай, я готов")
        page_b.press("#chat-input", "Enter")
        page_a.wait_for_function("window.__chat.state.messages.length === 2")
        # a quick phrase floats over the sender's seat in the room (he has no game seat yet)
        page_b.get_by_role("button", name="Удачи", exact=True).click()
        floating = page_a.locator(".chat-float", has_text="Удачи")
        floating.wait_for(timeout=5000)
        seat = page_a.locator(f"#room .seat[data-player='{b.pk}']").bounding_box()
        box = floating.bounding_box()
        assert seat and box and abs((box["x"] + box["width"] / 2) - (seat["x"] + seat["width"] / 2)) < 5
        page_a.screenshot(path=str(screenshot_dir / "chat-room-desktop.png"))
        page_b.screenshot(path=str(screenshot_dir / "chat-room-phone-drawer.png"))

        # the room's fragment is refreshed under the chat (htmx): the conversation stays
        page_b.keyboard.press("Escape")
        page_b.wait_for_timeout(3300)  # the reaction has floated away
        page_b.screenshot(path=str(screenshot_dir / "chat-room-phone-closed.png"))
        page_b.get_by_role("button", name="Готово", exact=True).click()
        page_a.wait_for_selector(f"#room .seat[data-player='{b.pk}'] .ready.yes")
        assert page_a.locator(".chat-msg").count() == 2
        page_a.get_by_role("button", name="Готово", exact=True).click()

        # 3-2-1, the game: each page reloads into the game table with the same conversation
        for page in pages:
            page.wait_for_selector("#game", state="attached", timeout=20000)
            wait_chat(page)
            assert page.locator(".chat-text").all_inner_texts() == ["Привет! Сыграем?", "Давай, я готов"]
        page_a.wait_for_timeout(1000)  # the first frame drawn for the screenshot
        page_a.screenshot(path=str(screenshot_dir / "chat-room-then-game-desktop.png"))
        assert page_a.errors == [] and page_b.errors == []
    finally:
        close(*contexts)
