"""Fixtures for the security tests: the live-play ones (fast bots, a channel layer per test loop)."""

from tests.game.conftest import _fast_bots, _fresh_channel_layer  # noqa: F401  (autouse fixtures)
