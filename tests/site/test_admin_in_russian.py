"""The moderators' admin in Russian: every app and every model of its index reads in Russian, and each
list's title «Выберите … для изменения» takes the model's name in the case the phrase needs.

Django's Russian catalogue puts the singular verbose_name into «Выберите %s для изменения»,
«Добавить %s», «Изменить %s», «Удалить %s»: all of them want the accusative, so a model whose
accusative differs from the nominative («жалоба» → «жалобу», «игрок» → «игрока») gives its singular
name in the accusative (pgettext context "model name (accusative)"); the index shows the plural.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib import admin
from django.test import Client
from django.utils import translation
from django.utils.text import capfirst

pytestmark = pytest.mark.django_db

# What the title of each model's list must say, model by model: a new model adds its line here.
TITLES = {
    "accounts.player": "игрока",
    "analysis.analysis": "разбор партии",
    "analysis.seatanalysis": "разбор игрока",
    "chat.report": "жалобу",
    "chat.message": "сообщение чата",
    "chat.chatmute": "запрет чата",
    "chat.moderationlog": "запись журнала модерации",
    "game.game": "партию",
    "letters.report": "жалобу на личное сообщение",
    "lobby.table": "стол",
    "ratings.gamerecord": "итог партии",
    "ratings.ratingchange": "изменение рейтинга",
    "ratings.rating": "рейтинг",
    "ratings.ratingvariant": "рейтинг по варианту",
    "ratings.series": "серию",
    "ratings.clubstanding": "место в клубе",
    "ratings.knownpair": "знакомую пару",
    "social.block": "блокировку",
    "social.friendship": "дружбу",
    "social.searchrequest": "заявку на поиск игры",
    "social.invitation": "приглашение",
    "social.dodge": "уклонение",
    "social.party": "группу",
    "tournaments.tournament": "турнир",
    "tournaments.entry": "участие в турнире",
    "tournaments.schedulerow": "турнир по расписанию",
    "tournaments.tournamentgame": "турнирную партию",
}
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
ROOT = Path(__file__).resolve().parents[2]


def _ours(model) -> bool:
    """A model of the project's own apps (Django's and the libraries' come with their own words)."""
    path = Path(model._meta.app_config.path)
    return path.is_relative_to(ROOT) and ".venv" not in path.parts


@pytest.fixture
def moderator_client() -> Client:
    from tests.game.helpers import make_player

    moderator = make_player("Модератор")
    moderator.is_staff = moderator.is_superuser = True
    moderator.save()
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(moderator)
    return client


def test_every_registered_model_has_a_title() -> None:
    assert sorted(TITLES) == sorted(model._meta.label_lower for model in admin.site._registry if _ours(model))


def test_the_index_names_every_app_and_model_in_russian(moderator_client: Client) -> None:
    html = moderator_client.get("/admin/").content.decode()
    for model in admin.site._registry:
        with translation.override("ru"):
            app_ru, plural_ru = str(model._meta.app_config.verbose_name), str(capfirst(model._meta.verbose_name_plural))
        with translation.override("en"):
            app_en, plural_en = str(model._meta.app_config.verbose_name), str(capfirst(model._meta.verbose_name_plural))
        assert CYRILLIC.search(plural_ru), (model, plural_ru)
        assert f">{plural_ru}<" in html, (model, plural_ru)
        assert f">{plural_en}<" not in html, (model, plural_en)
        if _ours(model):
            assert CYRILLIC.search(app_ru) and app_ru in html and f">{app_en}<" not in html, (model, app_ru)


@pytest.mark.parametrize("label", sorted(TITLES))
def test_each_list_title_reads_right(moderator_client: Client, label: str) -> None:
    app_label, model_name = label.split(".")
    html = moderator_client.get(f"/admin/{app_label}/{model_name}/").content.decode()
    title = re.search(r"<h1>(.*?)</h1>", html, re.S).group(1).strip()
    assert title in (f"Выберите {TITLES[label]} для изменения", f"Выберите {TITLES[label]} для просмотра"), title
