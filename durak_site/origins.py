"""The table socket's Origin check: the whole origin (scheme, host and port), not the host alone.

A browser names the page that opened a socket in its Origin header. The socket opens only when that
is the site itself: the configured scheme (https when SECURE_SSL_REDIRECT is on, http otherwise) with
the host and port the socket was opened on (its Host header, which must be an allowed host), or
exactly one of CSRF_TRUSTED_ORIGINS. Channels' AllowedHostsOriginValidator compares the host only,
so another port or scheme on an allowed host (another local service, a plain-http twin) passed.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def site_scheme() -> str:
    """The scheme the site's pages are served with."""
    return "https" if settings.SECURE_SSL_REDIRECT else "http"


def _origin_tuple(value: str, default_scheme: str | None = None) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, or None for anything that is not a bare http(s) origin."""
    try:
        parts = urlsplit(value if default_scheme is None else f"{default_scheme}://{value}")
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/") or parts.query \
            or parts.fragment or parts.username or parts.password:
        return None
    return scheme, parts.hostname.lower(), port if port is not None else DEFAULT_PORTS[scheme]


def origin_allowed(origin: str | None, host: str | None) -> bool:
    """Whether a socket whose Origin header is `origin`, opened on `host`, comes from the site."""
    if not origin:
        return False
    theirs = _origin_tuple(origin)
    if theirs is None:
        return False
    trusted = (_origin_tuple(item) for item in settings.CSRF_TRUSTED_ORIGINS)
    if theirs in trusted:
        return True
    scheme = site_scheme()
    if host is None:  # no Host header (an in-process client): the allowed hosts on the default port
        domain, port = theirs[1], DEFAULT_PORTS[scheme]
    else:
        own = _origin_tuple(host, default_scheme=scheme)
        if own is None:
            return False
        _, domain, port = own
    if not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    return theirs == (scheme, domain, port)


class SiteOriginValidator:
    """ASGI middleware for sockets: refuses the handshake of any other origin (before the consumer)."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        origin = host = None
        for name, value in scope.get("headers", []):
            if name == b"origin":
                origin = value.decode("latin1")
            elif name == b"host":
                host = value.decode("latin1")
        if origin_allowed(origin, host):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
