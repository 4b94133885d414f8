"""A web process freezes what lives on, so the collector's passes stay short, and thaws it now and
then, so cycles that died while frozen are freed."""

from __future__ import annotations

import gc
import weakref

import pytest

from durak_site import gc_pauses


class _Node:
    pass


@pytest.fixture
def _thawed_after():
    yield
    gc.unfreeze()


def test_a_frozen_cycle_survives_passes_until_the_reclaim_frees_it(_thawed_after):
    node = _Node()
    node.me = node  # a cycle: only the collector frees it
    alive = weakref.ref(node)
    since = gc_pauses.tick(0.0, every=20, reclaim_every=600)
    assert gc.get_freeze_count() > 0
    del node
    gc.collect()
    assert alive() is not None  # frozen: no pass looks at it

    assert since == 20
    gc_pauses.tick(600, every=20, reclaim_every=600)

    assert alive() is None
    assert gc.get_freeze_count() > 0  # what lives is frozen again
