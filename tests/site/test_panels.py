"""durak_site.panels: the registry behind the table pages' and the profile's panels."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from durak_site.panels import Panels


def test_panels_come_in_registration_order_once_each_and_an_unknown_place_is_refused():
    panels = Panels("a page", ("top", "bottom"))
    panels.register("b.html", "top")
    panels.register("a.html", "top")
    panels.register("b.html", "top")  # a second ready() (tests reload apps) adds nothing
    assert panels.at("top") == ("b.html", "a.html")
    assert panels.at("bottom") == ()
    with pytest.raises(ImproperlyConfigured, match="no place 'side' on a page"):
        panels.register("c.html", "side")
