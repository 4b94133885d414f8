"""The reliability mark at the game table: each person's seat shows it beside the nick, with the
lobby's look and words (social/_mark.html) and a label for screen readers; a bot's seat shows none.
The table page carries the marks of its game's seats (social/seat_marks.html); the table's script
draws them at the seat pods, on a phone and on a desktop, and a seat keeps its mark when its player
leaves and a bot plays it."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tests.game.test_table_ui_live import close, open_table, start_table
from tests.game.test_table_ui_views import playing_table

# a mark's words in each language, and how a seat's label names it
RU = {"high": "надёжный игрок", "low": "часто уходит из игры", "new": "новичок",
      "title": "Надёжность: {}", "pod": "{} (надёжность: {}), карт: "}
EN = {"high": "reliable", "low": "often leaves", "new": "new player",
      "title": "Reliability: {}", "pod": "{} (reliability: {}): "}


def make_player(nick):
    from accounts.models import Player

    return Player.objects.create_user(nick)


def record_games(player, left: int, of: int) -> None:
    """`of` recorded games of his, `left` of them left («Выйти»): what ratings writes at a game's end."""
    from django.utils import timezone

    from lobby.models import Table
    from ratings.models import GameRecord, PlayerGame
    from tests.ratings.ratings_factories import finished_game_row

    table = Table.objects.create(name="old", seats_count=2, status=Table.Status.CLOSED)
    for i in range(of):
        game = finished_game_row(table, [player, "heuristic"], {})
        record = GameRecord.objects.create(game=game, table=table, variant="podkidnoy", finished_at=timezone.now())
        PlayerGame.objects.create(record=record, player=player, seat=1, outcome="loss" if i < left else "win",
                                  reason="left" if i < left else "won", finished_at=timezone.now())


def six_seats(deal=start_table):
    """A playing table of six: a new player (seat 1), a reliable one (2), one who often leaves (3), three bots."""
    viewer, steady, leaver = make_player("Новенький"), make_player("Надёжная"), make_player("Уходящий")
    record_games(steady, left=0, of=10)
    record_games(leaver, left=5, of=10)
    table, game = deal([viewer, steady, leaver], bots=("lowest", "lowest", "lowest"))
    return table, game, (viewer, steady, leaver)


@pytest.mark.django_db
def test_the_game_table_page_carries_the_marks_of_its_people_and_none_of_its_bots(client):
    from lobby.models import Table

    table, game, (viewer, _steady, _leaver) = six_seats(deal=playing_table)
    client.force_login(viewer)
    html = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    start = html.index('<template id="seat-marks"')
    marks = html[start:html.index("</template>", start)]
    assert f'data-game="{game.pk}"' in marks
    for seat, mark in ((1, "new"), (2, "high"), (3, "low")):
        assert f'<span data-seat="{seat}"><span class="rel-mark rel-{mark}" title="{RU["title"].format(RU[mark])}">' \
            in marks
    for seat in (4, 5, 6):
        assert f'data-seat="{seat}"' not in marks
    Table.objects.filter(pk=table.pk).update(status=Table.Status.WAITING)  # the waiting room: no game table
    assert "seat-marks" not in client.get(f"/tables/{table.pk}/").content.decode()


def pod_marks(page) -> dict:
    """Seat number → (the mark's class, its accessible name, the pod's label, the mark's drawn size) of
    every pod, read at one moment (the bots' moves redraw the pods)."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#game .pod')].map(p => {
        const m = p.querySelector('.pod-id .pod-mark[role=img]');
        const r = m && m.getBoundingClientRect();
        return [p.dataset.seat, m ? [m.className, m.getAttribute('aria-label'), p.getAttribute('aria-label'),
                                     [r.width, r.height]]
                                  : [null, null, p.getAttribute('aria-label'), null]];
    }))""")


def assert_marks_drawn(page, nicks: dict, words: dict) -> None:
    pods = pod_marks(page)
    assert sorted(pods) == ["1", "2", "3", "4", "5", "6"], pods
    # a labelled group: a plain div's label is not read out everywhere
    assert page.evaluate("[...document.querySelectorAll('#game .pod')].every(p => p.getAttribute('role') === 'group')")
    for seat, mark in (("1", "new"), ("2", "high"), ("3", "low")):
        cls, name, pod_label, (width, height) = pods[seat]
        assert cls is not None and f"rel-{mark}" in cls.split(), (seat, pods[seat])
        assert name == words["title"].format(words[mark]), (seat, name)
        assert pod_label.startswith(words["pod"].format(nicks[seat], words[mark])), pod_label
        assert width > 4 and height > 4, (seat, width, height)  # seen, not only read out
    for seat in ("4", "5", "6"):
        assert pods[seat][0] is None, (seat, pods[seat])
        assert "(" not in pods[seat][2], pods[seat][2]


def leave_in_thread(game_id: int, player) -> None:
    """«Выйти» for `player`, from a thread of its own (Playwright's loop runs in this one)."""
    from game import services

    worker = threading.Thread(target=services.leave_game, args=(game_id, player))
    worker.start()
    worker.join(30)


@pytest.mark.timeout(300)
def test_people_show_their_marks_at_the_table_on_a_phone_and_a_desktop_and_bots_none(
        transactional_db, asgi_live_server, browser, screenshot_dir: Path):
    table, game, (viewer, steady, leaver) = six_seats()
    nicks = {"1": viewer.nick, "2": steady.nick, "3": leaver.nick}

    phone, page = open_table(browser, asgi_live_server, viewer, table, mobile=True)
    page.wait_for_selector('#g-seats .pod[data-seat="3"] .pod-mark')
    assert_marks_drawn(page, nicks, RU)
    # the five other pods of a phone's six-seat table stay apart and on the felt
    boxes = page.evaluate("""() => [...document.querySelectorAll('#g-seats .pod .pod-id')].map(e => {
        const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })""")
    felt = page.locator("#g-felt").bounding_box()
    for i, a in enumerate(boxes):
        assert a[0] >= felt["x"] - 1 and a[2] <= felt["x"] + felt["width"] + 1, a
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    page.wait_for_timeout(1500)  # the deal's flights
    page.screenshot(path=str(screenshot_dir / "seat_marks_phone_6p.png"))
    page.screenshot(path=str(screenshot_dir / "seat_marks_phone_6p_pods.png"),  # the pods' row, up close
                    clip={"x": 0, "y": felt["y"], "width": felt["width"], "height": 150})

    # the one who often leaves leaves: a bot plays his seat, which still names him and his mark
    leave_in_thread(game.pk, leaver)
    page.wait_for_selector('#g-seats .pod[data-seat="3"] .b-left')
    assert_marks_drawn(page, nicks, RU)
    page.screenshot(path=str(screenshot_dir / "seat_marks_phone_6p_left.png"))

    desktop, wide = open_table(browser, asgi_live_server, steady, table, locale="en-US")
    wide.wait_for_selector('#g-seats .pod[data-seat="3"] .pod-mark')
    assert_marks_drawn(wide, nicks, EN)
    wide.wait_for_timeout(1500)
    wide.screenshot(path=str(screenshot_dir / "seat_marks_desktop_6p.png"))
    assert not page.errors and not wide.errors, page.errors + wide.errors
    close(phone, desktop)
