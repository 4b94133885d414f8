"""The create-table form reads as a player's page: help texts say what a setting does (no source
numbers, no doubled full stops), and a refused combination is said once, in the page's language."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

SOURCE_REF = re.compile(r"\(\d{3}[^)]*\)|\b00[0-4]\b|Источник|Source:")


@pytest.fixture
def host_client(client, host):
    client.force_login(host)
    return client


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_help_texts_name_no_sources_and_end_with_one_full_stop(host_client, lang):
    html = host_client.get(reverse("lobby:create"), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    helps = re.findall(r'class="help"[^>]*>(.*?)</', html, re.S)
    assert helps
    for text in helps:
        assert not SOURCE_REF.search(text), text
        assert ".." not in text, text


def test_pairs_with_three_seats_is_refused_once_in_russian(host_client):
    response = host_client.post(reverse("lobby:create"), {
        "preset": "pairs", "seats_count": "3", "turn_seconds": "30", "disconnect_policy": "bot",
        "rules_setter": "host", "start_policy": "all_ready", "series_length": ""},
        HTTP_ACCEPT_LANGUAGE="ru")
    html = response.content.decode()
    assert response.status_code == 200
    assert "requires" not in html
    assert html.count("4 места") == 1, html[html.find("form-errors") - 200:html.find("form-errors") + 600]


@pytest.mark.parametrize("lang, you, computer", [("ru", "всегда вы", "всегда компьютер"),
                                                 ("en", "always you", "always the computer")])
def test_the_first_move_can_be_always_you_or_always_the_computer(host_client, lang, you, computer):
    """The form offers every first-move choice, «always you» and «always the computer» included
    (docs/RULES.md#first-move)."""
    html = host_client.get(reverse("lobby:create"), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    select = re.search(r'<select[^>]*name="rule_first_move".*?</select>', html, re.S).group(0)
    options = dict(re.findall(r'<option value="([^"]+)"[^>]*>\s*([^<]*?)\s*</option>', select))
    assert options["humans_first"] == you and options["bots_first"] == computer
