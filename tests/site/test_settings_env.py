"""Settings come from the environment and a bad value stops the start with a line naming the variable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from durak_site.env import ImproperEnv, env_bool, env_database, env_int, env_list, env_origins, env_redis

ROOT = Path(__file__).resolve().parents[2]
GOOD_SECRET = "k3y-" + "abcdefghij0123456789" * 3
PRODUCTION = {"DEBUG": "0", "SECRET_KEY": GOOD_SECRET, "ALLOWED_HOSTS": "durak.example.com",
              "CSRF_TRUSTED_ORIGINS": "https://durak.example.com"}
SHOW = ("import json, django; from django.conf import settings; django.setup(); print(json.dumps({"
        "'debug': settings.DEBUG, 'hosts': settings.ALLOWED_HOSTS, 'engine': settings.DATABASES['default']['ENGINE'],"
        "'db': str(settings.DATABASES['default']['NAME']), 'layer': settings.CHANNEL_LAYERS['default']['BACKEND'],"
        "'cache': settings.CACHES['default']['BACKEND'], 'broker': settings.CELERY_BROKER_URL,"
        "'timers': settings.TIMERS_BACKEND, 'secure': settings.SESSION_COOKIE_SECURE}))")


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    clean = {key: value for key, value in os.environ.items()
             if key not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "DATABASE_URL",
                            "REDIS_URL", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "TRUSTED_PROXY_HOPS",
                            "LOG_LEVEL", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
                            "DJANGO_ALLOW_ASYNC_UNSAFE"}}  # some tests set it for Playwright
    clean.update(env, DJANGO_SETTINGS_MODULE="durak_site.settings", PYTHONPATH=str(ROOT))
    command = list(args) or ["-c", SHOW]
    return subprocess.run([sys.executable, *command], cwd=ROOT, env=clean, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize(("env", "variable"), [
    ({"DEBUG": "maybe"}, "DEBUG"),
    ({"DEBUG": "0", "ALLOWED_HOSTS": "x"}, "SECRET_KEY"),
    ({"DEBUG": "0", "SECRET_KEY": "short", "ALLOWED_HOSTS": "x"}, "SECRET_KEY"),
    ({"DEBUG": "0", "SECRET_KEY": "a" * 60, "ALLOWED_HOSTS": "x"}, "SECRET_KEY"),  # not random
    ({"ALLOWED_HOSTS": " , "}, "ALLOWED_HOSTS"),
    ({"ALLOWED_HOSTS": ""}, "ALLOWED_HOSTS"),
    ({"CSRF_TRUSTED_ORIGINS": "durak.example.com"}, "CSRF_TRUSTED_ORIGINS"),
    ({"DATABASE_URL": "mysql://user@db/durak"}, "DATABASE_URL"),
    ({"DATABASE_URL": "postgres://user@db:notaport/durak"}, "DATABASE_URL"),
    ({"REDIS_URL": "http://127.0.0.1:6379/0"}, "REDIS_URL"),
    ({"SECURE_HSTS_SECONDS": "a year"}, "SECURE_HSTS_SECONDS"),
    ({"TRUSTED_PROXY_HOPS": "-1"}, "TRUSTED_PROXY_HOPS"),
    ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
])
def test_a_bad_value_stops_the_start_with_one_line_naming_the_variable(env, variable):
    result = run(env)
    assert result.returncode != 0
    assert f"Configuration error: {variable}" in result.stderr
    assert "Traceback" not in result.stderr


def test_manage_py_reports_the_bad_variable_too():
    result = run({"DEBUG": "sometimes"}, "manage.py", "check")
    assert result.returncode == 1
    assert "Configuration error: DEBUG" in result.stderr


def test_no_environment_runs_embedded():
    shown = json.loads(run({}).stdout)
    assert shown["debug"] is False  # the site's own error pages; DEBUG=1 asks for Django's
    assert shown["secure"] is False  # plain HTTP on a developer's machine
    assert shown["engine"].endswith("sqlite3")
    assert shown["layer"].endswith("InMemoryChannelLayer")
    assert shown["cache"].endswith("LocMemCache")
    assert shown["timers"] == "ticker"
    assert shown["broker"] == "memory://"


def test_debug_1_asks_for_the_debug_pages():
    shown = json.loads(run({"DEBUG": "1"}).stdout)
    assert shown["debug"] is True and shown["secure"] is False


def test_production_environment_uses_postgres_redis_and_secure_cookies():
    shown = json.loads(run({**PRODUCTION, "DATABASE_URL": "postgres://u:p@db.internal:5432/durak",
                            "REDIS_URL": "redis://cache.internal:6379/2"}).stdout)
    assert shown["debug"] is False
    assert shown["hosts"] == ["durak.example.com"]
    assert shown["engine"] == "django.db.backends.postgresql" and shown["db"] == "durak"
    assert shown["layer"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert shown["cache"].endswith("RedisCache")
    assert shown["broker"] == "redis://cache.internal:6379/2"
    assert shown["timers"] == "celery"
    assert shown["secure"] is True


def test_the_deploy_check_passes_with_production_settings():
    result = run(PRODUCTION, "manage.py", "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


# --- the parsers themselves ---------------------------------------------------------------------------

@pytest.mark.parametrize(("raw", "value"), [("1", True), ("true", True), ("Yes", True), ("on", True),
                                            ("0", False), ("false", False), ("no", False), ("", False)])
def test_env_bool_accepts_the_usual_spellings(raw, value):
    assert env_bool("DEBUG", default=not value, environ={"DEBUG": raw}) is value


def test_env_defaults_apply_when_unset():
    assert env_bool("DEBUG", default=True, environ={}) is True
    assert env_list("ALLOWED_HOSTS", ["a"], environ={}) == ["a"]
    assert env_int("N", 7, environ={}) == 7
    assert env_redis("REDIS_URL", environ={}) is None
    assert env_database("DATABASE_URL", {"x": 1}, environ={}) == {"x": 1}


def test_env_list_trims_items():
    assert env_list("ALLOWED_HOSTS", [], environ={"ALLOWED_HOSTS": " a.example , b.example ,"}) == [
        "a.example", "b.example"]


def test_env_origins_need_a_scheme_and_nothing_after_the_host():
    assert env_origins("O", [], environ={"O": "https://a.example,http://localhost:8000"}) == [
        "https://a.example", "http://localhost:8000"]
    with pytest.raises(ImproperEnv, match="^O "):
        env_origins("O", [], environ={"O": "https://a.example/path"})


def test_postgres_urls_use_django_postgres_backend_with_a_bounded_pool():
    config = env_database("DATABASE_URL", {}, environ={"DATABASE_URL": "postgresql://u:p@h:5433/d"})
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"], config["USER"]) == ("h", 5433, "d", "u")
    # a fixed number of connections per process, whatever the concurrency
    assert config["OPTIONS"]["pool"]["max_size"] == 10 and config["CONN_MAX_AGE"] == 0
    # the server binds parameters, so psycopg prepares a move's statements once per connection
    assert config["OPTIONS"]["server_side_binding"] is True
    assert config["OPTIONS"]["prepare_threshold"] == 5


@pytest.mark.django_db
def test_a_statement_run_often_on_one_postgres_connection_is_prepared_by_the_server():
    """Django turns psycopg's statement preparation off unless OPTIONS asks for it: without it every
    move's lock, insert and update were parsed and planned again (a third of Postgres' CPU)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are Postgres'")
    query = "SELECT count(*) FROM accounts_player WHERE id > %s"
    with connection.cursor() as cursor:
        for n in range(8):
            cursor.execute(query, [n])
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
                       ["%FROM accounts_player WHERE id > $1%"])
        assert cursor.fetchone()[0] == 1


def test_the_pool_size_and_wait_come_from_the_environment():
    environ = {"DATABASE_URL": "postgres://u@h/d", "DATABASE_POOL_SIZE": "4", "DATABASE_POOL_TIMEOUT": "3"}
    pool = env_database("DATABASE_URL", {}, environ=environ)["OPTIONS"]["pool"]
    assert (pool["min_size"], pool["max_size"], pool["timeout"]) == (2, 4, 3)
    with pytest.raises(ImproperEnv, match="DATABASE_POOL_SIZE"):
        env_database("DATABASE_URL", {}, environ={**environ, "DATABASE_POOL_SIZE": "0"})
