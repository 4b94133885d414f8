"""The load generators open their sockets as a page of the server would: the site's origin check
(the whole origin, port included) lets them in."""

from __future__ import annotations

from durak_site.origins import origin_allowed
from game.management.commands.bench_ws import page_origin


def test_the_benchmarks_socket_origin_passes_the_sites_origin_check(settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    settings.SECURE_SSL_REDIRECT = False
    for port in (8000, 49533):
        assert page_origin(f"ws://127.0.0.1:{port}") == f"http://127.0.0.1:{port}"
        assert origin_allowed(page_origin(f"ws://127.0.0.1:{port}"), f"127.0.0.1:{port}")
    assert not origin_allowed("http://127.0.0.1", "127.0.0.1:49533")  # what it used to send
