"""Is an error Redis (the cache, the channel layer, the broker) not answering? Such an error is an
outage the client should wait out, not a bug: pages answer 503 with Retry-After (durak_site.views
.server_error) and socket handshakes 503 (durak_site.serve), never 500. No Django imports: the web
server's protocol imports this before Django is set up."""

from __future__ import annotations

RETRY_AFTER_SECONDS = 10


def _outage_types() -> tuple[type[BaseException], ...]:
    import redis.exceptions
    from kombu.exceptions import OperationalError

    return (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OperationalError)


def redis_outage(exc: BaseException | None) -> bool:
    """True when ``exc``, or an error it was raised from or during, is Redis or the broker not answering."""
    types = _outage_types()
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, types):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False
