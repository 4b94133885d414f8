"""The home page's sign-up steps are for newcomers: a logged-in player is not told to pick a nick."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.game.helpers import make_player

pytestmark = pytest.mark.django_db


def test_the_sign_up_steps_show_to_a_newcomer_only(client):
    assert 'id="steps-title"' in client.get(reverse("home")).content.decode()
    client.force_login(make_player())
    page = client.get(reverse("home")).content.decode()
    assert 'id="steps-title"' not in page and "Save your recovery key" not in page
