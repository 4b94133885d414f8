"""The analysis app: who may ask for an analysis, idempotent requests, the worker's run, the page
with its chart and marks, the progress fragment and bad input on every endpoint."""

from __future__ import annotations

import pytest
from django.urls import reverse

from analysis import services
from analysis.models import Analysis, SeatAnalysis
from durak_site.errors import ServiceError
from game.models import Game
from tests.ratings.ratings_factories import make_player, make_table, play_finished_game

pytestmark = pytest.mark.django_db


def _game(*lineup, private: bool = False, **kw) -> Game:
    table = make_table(seats_count=len(lineup), private=private)
    return play_finished_game(table, list(lineup), rules={"variant": "podkidnoy"}, seed=kw.pop("seed", 4), **kw)


def test_a_player_asks_once_and_the_run_stores_figures_for_the_human_seats():
    vera, ivan = make_player("vera"), make_player("ivan")
    game = _game(vera, ivan)
    a = services.request_analysis(game.pk, vera)
    assert a.status == Analysis.Status.QUEUED
    assert services.request_analysis(game.pk, ivan).pk == a.pk  # idempotent: the same analysis
    assert Analysis.objects.count() == 1
    assert services.run(a.pk) is True
    assert services.run(a.pk) is False  # a duplicate delivery does nothing
    a.refresh_from_db()
    assert a.status == Analysis.Status.DONE and a.done == a.total > 0
    rows = {r.seat: r for r in SeatAnalysis.objects.filter(analysis=a)}
    assert set(rows) == {1, 2} and rows[1].player == vera and 0 < rows[1].accuracy <= 1
    assert services.request_analysis(game.pk, vera).status == Analysis.Status.DONE


def test_bot_seats_are_not_judged_and_a_takeover_counts_for_the_bot():
    vera = make_player("vera")
    game = _game(vera, "heuristic", takeover={1: 12})
    a = services.request_analysis(game.pk, vera)
    services.run(a.pk)
    a.refresh_from_db()
    assert set(a.result["seats"]) == {"1"}
    assert a.result["seats"]["1"]["bot_moves"] > 0
    assert all(r["by"] == "bot" for r in a.result["decisions"] if r["step"] > 13)


def test_who_may_ask():
    vera, ivan, stranger = make_player("vera"), make_player("ivan"), make_player("someone")
    public = _game(vera, ivan)
    private = _game(vera, ivan, private=True, seed=5)
    services.request_analysis(public.pk, stranger)  # anyone signed in, for a public finished game
    with pytest.raises(ServiceError) as e:
        services.request_analysis(private.pk, stranger)
    assert e.value.code == "analysis_private"
    services.request_analysis(private.pk, ivan)
    unfinished = play_finished_game(make_table(seats_count=2), [vera, ivan], seed=6, stop_after_moves=5)
    with pytest.raises(ServiceError) as e:
        services.request_analysis(unfinished.pk, vera)
    assert e.value.code == "analysis_not_over"
    for bad in ("x", None, -1, 10**30):
        with pytest.raises(ServiceError) as e:
            services.request_analysis(bad, vera)
        assert e.value.code == "game_not_found"
    assert not Analysis.objects.filter(game__in=[private.pk, unfinished.pk]).exclude(requested_by=ivan).exists()


def test_new_analyses_are_rate_limited_per_player(settings):
    settings.ANALYSIS_PER_HOUR = 1
    vera, ivan = make_player("vera"), make_player("ivan")
    first, second = _game(vera, ivan), _game(vera, ivan, seed=7)
    services.request_analysis(first.pk, vera)
    services.request_analysis(first.pk, vera)  # asking again for the same one costs nothing
    with pytest.raises(ServiceError) as e:
        services.request_analysis(second.pk, vera)
    assert e.value.code == "analysis_too_often"
    assert not Analysis.objects.filter(game=second).exists()


def test_the_endpoints_refuse_bad_input_clearly(client):
    vera, ivan = make_player("vera"), make_player("ivan")
    game = _game(vera, ivan)
    url = reverse("analysis:request", args=[game.pk])
    response = client.post(url)
    assert response.status_code == 403
    assert "Войдите, чтобы заказать разбор партии." in response.content.decode()
    assert not Analysis.objects.exists()
    client.force_login(vera)
    assert client.get(url).status_code == 405
    assert client.post(reverse("analysis:request", args=[999999])).status_code == 404
    assert client.get("/analysis/games/99999999999999999999999/").status_code == 404
    assert client.get(reverse("analysis:progress", args=[999999])).status_code == 404
    private = _game(vera, ivan, private=True, seed=8)
    client.force_login(make_player("someone"))
    # a private table's game is as missing to a stranger as one that does not exist
    assert client.post(reverse("analysis:request", args=[private.pk])).status_code == 404
    assert client.get(reverse("analysis:page", args=[private.pk])).status_code == 404
    assert not Analysis.objects.exists()


def test_progress_is_rate_limited(client, settings):
    settings.ANALYSIS_POLLS_PER_MINUTE = 2
    game = _game(make_player("vera"), make_player("ivan"))
    url = reverse("analysis:progress", args=[game.pk])
    assert [client.get(url).status_code for _ in range(3)] == [200, 200, 429]


def test_the_page_shows_progress_then_the_chart_marks_and_links_to_the_replay(client):
    vera, ivan = make_player("vera"), make_player("ivan")
    game = _game(vera, ivan)
    client.force_login(vera)
    page = reverse("analysis:page", args=[game.pk])
    assert 'action="{}"'.format(reverse("analysis:request", args=[game.pk])) in client.get(page).content.decode()
    response = client.post(reverse("analysis:request", args=[game.pk]))
    assert response.status_code == 302 and response["Location"] == page
    html = client.get(page).content.decode()
    assert 'hx-get="{}"'.format(reverse("analysis:progress", args=[game.pk])) in html and "<progress" in html
    progress = client.get(reverse("analysis:progress", args=[game.pk]))
    assert "HX-Refresh" not in progress
    services.run(Analysis.objects.get(game=game).pk)
    assert client.get(reverse("analysis:progress", args=[game.pk]))["HX-Refresh"] == "true"
    html = client.get(page).content.decode()
    assert "<svg" in html and "vera" in html and "ivan" in html
    # what the chance measures and how a draw counts, said on the page
    assert "шанс игрока не остаться дураком" in html and "Ничья считается за половину" in html
    assert "сохраняет 50 %" in html and "%%" not in html
    assert ("Эта партия кончилась вничью." in html) == bool(game.result.get("draw"))
    legend = [html.index(f"({sign} {n} п. п.)") for sign, n in (("≥", 20), ("≥", 10), ("≥", 5))]
    assert legend == sorted(legend)  # «??», «?», «?!» in that order (jsonb keeps no key order)
    replay = reverse("ratings:replay", args=[game.pk])
    assert f'href="{replay}#step-' in html
    result = Analysis.objects.get(game=game).result
    marked = [r for r in result["decisions"] if r["mark"]]
    for r in marked:
        assert f'href="{replay}#step-{r["step"] - 1}"' in html
    # the replay page offers the analysis (the panel registered on ratings.pages)
    assert reverse("analysis:page", args=[game.pk]) in client.get(replay).content.decode()


def test_the_replay_page_offers_the_button_before_any_analysis(client):
    vera, ivan = make_player("vera"), make_player("ivan")
    game = _game(vera, ivan)
    client.force_login(ivan)
    html = client.get(reverse("ratings:replay", args=[game.pk])).content.decode()
    assert f'action="{reverse("analysis:request", args=[game.pk])}"' in html


def test_a_lost_or_failed_analysis_is_queued_again_on_request():
    from datetime import timedelta

    from django.utils import timezone

    vera, ivan = make_player("vera"), make_player("ivan")
    game = _game(vera, ivan)
    a = services.request_analysis(game.pk, vera)
    Analysis.objects.filter(pk=a.pk).update(requested_at=timezone.now() - timedelta(hours=1))
    again = services.request_analysis(game.pk, ivan)
    assert again.pk == a.pk and again.requested_by == ivan and again.status == Analysis.Status.QUEUED
    Analysis.objects.filter(pk=a.pk).update(status=Analysis.Status.FAILED, error="boom")
    assert services.request_analysis(game.pk, vera).status == Analysis.Status.QUEUED
    assert services.run(a.pk) is True


def test_moderators_see_analyses_read_only(admin_client):
    vera, ivan = make_player("vera"), make_player("ivan")
    a = services.request_analysis(_game(vera, ivan).pk, vera)
    assert admin_client.get("/admin/analysis/analysis/").status_code == 200
    assert admin_client.get(f"/admin/analysis/analysis/{a.pk}/change/").status_code == 200
    assert admin_client.post(f"/admin/analysis/analysis/{a.pk}/delete/").status_code == 403


@pytest.mark.parametrize("lang, action, text", [
    ("ru", {"type": "defend", "card": "KS", "target": "10S"}, "отбой К♠ на 10♠"),
    ("en", {"type": "defend", "card": "KS", "target": "10S"}, "cover K♠ on 10♠"),
    ("ru", {"type": "attack", "card": "QD"}, "ход Д♦"),
    ("ru", {"type": "take"}, "взять карты"),
])
def test_a_better_move_is_worded_with_the_cards_names_never_their_codes(lang, action, text):
    from django.utils import translation

    from analysis import describe

    with translation.override(lang):
        assert describe.move_text(action) == text
