"""Settings from the environment (12-factor), failing fast with a message that names the variable.

Why hand-written: four tiny parsers with precise error messages beat a dependency whose errors
talk about casting rather than about the variable the operator got wrong.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import dj_database_url


class ImproperEnv(Exception):
    """A variable in the environment has a value the site cannot run with."""


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool, environ: Mapping[str, str] = os.environ) -> bool:
    raw = environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperEnv(f"{name} must be one of 1/0, true/false, yes/no, on/off; got {raw!r}")


def env_list(name: str, default: list[str], environ: Mapping[str, str] = os.environ) -> list[str]:
    raw = environ.get(name)
    if raw is None:
        return list(default)
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if not items:
        raise ImproperEnv(f"{name} is set but lists nothing; give comma-separated values or unset it")
    return items


def env_int(name: str, default: int, environ: Mapping[str, str] = os.environ, minimum: int = 0) -> int:
    raw = environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperEnv(f"{name} must be a whole number; got {raw!r}") from None
    if value < minimum:
        raise ImproperEnv(f"{name} must be at least {minimum}; got {value}")
    return value


DEFAULT_POOL_SIZE = 10  # database connections per process (web, worker, beat)
DEFAULT_POOL_TIMEOUT = 10  # seconds a request waits for a free connection before a 503


def env_database(name: str, default: dict, environ: Mapping[str, str] = os.environ) -> dict:
    raw = environ.get(name)
    if not raw:
        return default
    if not raw.startswith(("postgres://", "postgresql://", "sqlite://")):
        raise ImproperEnv(f"{name} must be a postgres:// (or sqlite://) URL; got {raw.split('://')[0]!r}://...")
    try:
        config = dj_database_url.parse(raw, conn_max_age=60, conn_health_checks=True)
    except Exception as exc:  # dj_database_url raises several types for garbage
        raise ImproperEnv(f"{name} is not a valid database URL: {exc}") from None
    if config["ENGINE"].endswith("postgresql"):
        # psycopg 3 through Django's own backend; the server-side cursors stay off for pgbouncer safety.
        # Parameters are bound by the server (no client-side quoting), and psycopg prepares a statement
        # once it has run five times on a connection, so a move's few statements are parsed and planned
        # once. Django turns that preparation off unless OPTIONS sets prepare_threshold: with it,
        # Postgres used 32 instead of 47-50 % of a core under bench_ws at 200 tables on two processes.
        # (Behind pgbouncer in transaction mode it needs max_prepared_statements, pgbouncer ≥ 1.21.)
        options = config.setdefault("OPTIONS", {})
        options["server_side_binding"] = True
        options["prepare_threshold"] = 5
        config["DISABLE_SERVER_SIDE_CURSORS"] = True
        # A fixed bound of connections per process, whatever the concurrency: under ASGI every
        # request's sync code runs in a thread of its own, and persistent connections left one
        # behind per thread until Postgres refused everyone. Connections live in psycopg's pool
        # (kept open, prepared statements included); a request that finds all of them busy waits
        # up to DATABASE_POOL_TIMEOUT seconds, then gets a 503 (durak_site.views.server_error).
        size = env_int("DATABASE_POOL_SIZE", DEFAULT_POOL_SIZE, environ, minimum=1)
        options["pool"] = {"min_size": min(2, size), "max_size": size,
                           "timeout": env_int("DATABASE_POOL_TIMEOUT", DEFAULT_POOL_TIMEOUT, environ, minimum=1),
                           "max_idle": 300, "max_lifetime": 3600}
        config["CONN_MAX_AGE"] = 0  # a pooled connection goes back to the pool, not away
        config["CONN_HEALTH_CHECKS"] = False  # the pool drops broken connections; a check is a round trip per use
    return dict(config)


def env_redis(name: str, environ: Mapping[str, str] = os.environ) -> str | None:
    raw = environ.get(name)
    if not raw:
        return None
    if not raw.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperEnv(f"{name} must be a redis://, rediss:// or unix:// URL; got {raw!r}")
    return raw


def redis_channel_prefix(url: str) -> str:
    """The channel layer's key prefix for a Redis URL. Redis pub/sub channels are global to the
    server, whatever database the URL names: without the database in the prefix, two sites (or two
    test runs) sharing one Redis on different databases receive each other's group messages (a
    "banned" for player 5 of one closed player 5's sockets of the other)."""
    path = url.split("?", 1)[0].rsplit("/", 1)
    database = path[1] if len(path) == 2 and url.count("/") > 2 and path[1].isdigit() else "0"
    return f"durak-db{database}"


def env_origins(name: str, default: list[str], environ: Mapping[str, str] = os.environ) -> list[str]:
    """CSRF_TRUSTED_ORIGINS: each item a scheme plus host, e.g. https://durak.example.com."""
    origins = env_list(name, default, environ)
    for origin in origins:
        if not origin.startswith(("https://", "http://")) or origin.rstrip("/").count("/") > 2:
            raise ImproperEnv(f"{name} items must look like https://host (scheme and host only); got {origin!r}")
    return origins


def env_choice(name: str, default: str, choices: tuple[str, ...], environ: Mapping[str, str] = os.environ) -> str:
    raw = environ.get(name)
    if raw is None or not raw.strip():
        return default
    value = raw.strip().upper()
    if value not in choices:
        raise ImproperEnv(f"{name} must be one of {', '.join(choices)}; got {raw!r}")
    return value
