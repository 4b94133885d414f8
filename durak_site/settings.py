"""Django settings, all from the environment (see durak_site/env.py and README.md).

With no environment at all the site runs embedded: a development key over plain HTTP, SQLite,
in-memory channel layer, local-memory cache and in-process timers, and the site's own error pages
(DEBUG=1 asks for Django's debug pages). DATABASE_URL and REDIS_URL switch to Postgres, channels-redis,
a Redis cache and Celery; DEBUG=0 is production.
"""

from __future__ import annotations

import os
import warnings
from datetime import timedelta
from pathlib import Path

from django.utils.translation import gettext_lazy as _

from .env import (
    ImproperEnv,
    env_bool,
    env_choice,
    env_database,
    env_int,
    env_list,
    env_origins,
    env_redis,
    redis_channel_prefix,
)

BASE_DIR = Path(__file__).resolve().parent.parent


def _secret_key(debug: bool) -> str:
    key = os.environ.get("SECRET_KEY", "")
    if not key:
        if not debug:
            raise ImproperEnv("SECRET_KEY is required when DEBUG is off (give at least 50 random characters)")
        return "dev-insecure-key-only-for-local-debug-runs-do-not-use-in-production-0123456789"
    if not debug and (len(key) < 50 or len(set(key)) < 5):
        raise ImproperEnv("SECRET_KEY must be at least 50 characters long (and random) when DEBUG is off")
    return key


try:
    # DEBUG unset: a developer's machine (the development key, plain HTTP) that still shows the site's
    # own 404/500 pages in the player's language; DEBUG=1 adds Django's debug pages; DEBUG=0 is production.
    _DEVELOPMENT = env_bool("DEBUG", default=True)
    DEBUG = env_bool("DEBUG", default=False)
    SECRET_KEY = _secret_key(_DEVELOPMENT)
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
    CSRF_TRUSTED_ORIGINS = env_origins("CSRF_TRUSTED_ORIGINS", [])
    _DATABASE = env_database(
        "DATABASE_URL",
        default={"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3",
                 "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
                 # a file, not memory, so a live server process can share the test database
                 "TEST": {"NAME": BASE_DIR / "test-db.sqlite3"}},
    )
    REDIS_URL = env_redis("REDIS_URL")
    # Behind N reverse proxies (a PaaS router, a load balancer) the client address is the Nth
    # X-Forwarded-For entry from the right; 0 trusts no header (direct connections).
    TRUSTED_PROXY_HOPS = env_int("TRUSTED_PROXY_HOPS", default=0)
    _SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not _DEVELOPMENT)
    _SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=not _DEVELOPMENT)
    _CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=not _DEVELOPMENT)
    _SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", default=0 if _DEVELOPMENT else 31536000)
    _SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not _DEVELOPMENT)
    _SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=not _DEVELOPMENT)
    _CHAT_RETENTION_DAYS = env_int("CHAT_RETENTION_DAYS", default=30)
    _ADDRESS_RETENTION_DAYS = env_int("ADDRESS_RETENTION_DAYS", default=30)
    # web processes: what lives on is frozen this often (0: never), and thawed and collected this often
    GC_FREEZE_EVERY = env_int("GC_FREEZE_EVERY", default=20)
    GC_RECLAIM_EVERY = env_int("GC_RECLAIM_EVERY", default=600, minimum=1)
    LOG_LEVEL = env_choice("LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR"))
except ImproperEnv as exc:
    # Fail fast with one line naming the variable, not a traceback through Django's settings loader.
    raise SystemExit(f"Configuration error: {exc}") from None

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "axes",
    "durak_site",  # the bottom of the stack: starts the embedded default's deadline driver
    "accounts",
    "lobby",
    "game",
    "ratings",
    "analysis",
    "social",
    "tournaments",
    "chat",
    "letters",  # messages between friends
    "notifications",
]

MIDDLEWARE = [
    "durak_site.views.HealthzMiddleware",  # first: probes use internal addresses and plain HTTP
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "accounts.middleware.LastSeenMiddleware",
    "durak_site.logs.RequestContextMiddleware",  # the ids of structured log lines (LOG_FORMAT=json)
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks: turns a lock-out into its response
]

ROOT_URLCONF = "durak_site.urls"
ASGI_APPLICATION = "durak_site.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": _DATABASE}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The Redis channel layer: "pubsub" (default: a group send is one PUBLISH and each web process
# receives on one subscription) or "core" (channels-redis' lists and sorted sets: every message a
# process receives costs it a BZPOPMIN round trip on one receive loop, which queued frames by seconds
# at 30 tables). README "Benchmarks" has them measured side by side.
CHANNEL_LAYER = env_choice("CHANNEL_LAYER", "PUBSUB", ("CORE", "PUBSUB"))
if REDIS_URL and CHANNEL_LAYER == "PUBSUB":
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 30}],
                       "prefix": redis_channel_prefix(REDIS_URL)},
        }
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "OPTIONS": {"pool_class": "durak_site.redis_pool.SharedBlockingPool"}}}
elif REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # redis-py 8 defaults socket_timeout to 5 s, the same as channels-redis' BZPOPMIN wait: a reply
            # a hair late would kill the consumer holding the receive lock. Give reads ample room.
            # It also caps a pool at 100 connections and then raises instead of waiting: a burst of a few
            # hundred sockets joining, leaving or being sent to at once (bench_ws, 200 tables) crashed
            # consumers (close 1011) and lost frames. One pool serves a whole web process: let it grow.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 30, "max_connections": 2000}],
                       "capacity": 1500, "expiry": 30, "prefix": redis_channel_prefix(REDIS_URL)},
        }
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "OPTIONS": {"pool_class": "durak_site.redis_pool.SharedBlockingPool"}}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Table sockets one account / one address may hold open on one web process (game/socket_limits.py).
# Behind a reverse proxy set TRUSTED_PROXY_HOPS, or every client has the proxy's address.
SOCKETS_PER_ACCOUNT = env_int("SOCKETS_PER_ACCOUNT", 20, minimum=1)
SOCKETS_PER_ADDRESS = env_int("SOCKETS_PER_ADDRESS", 500, minimum=1)

# Timers: Celery (beat's scheduler enqueues sweeps) with Redis; an in-process ticker running them without.
TIMERS_BACKEND = "celery" if REDIS_URL else "ticker"
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 4
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TIMEZONE = "UTC"
# Post-game analyses run on their own queue, served by their own worker (`celery -A durak_site worker
# -Q analysis`): live play's tasks (bot moves, deadline sweeps) stay on the default queue and never
# wait behind one.
CELERY_TASK_ROUTES = {"analysis.tasks.*": {"queue": "analysis"}}
ANALYSIS_RUNNER = ""  # "" = "celery" with Redis, "local" (a thread) without; "off" in tests that run it by hand
ANALYSIS_PER_HOUR = 10  # new analyses one player may ask for in an hour
ANALYSIS_PER_HOUR_PER_ADDRESS = 10  # ... and all the accounts of one address together
ANALYSIS_PENDING_PER_REQUESTER = 2  # analyses one player may have queued or running at once
ANALYSIS_POLLS_PER_MINUTE = 180  # progress polls per client (the page polls once a second)
ANALYSIS_BUDGET: dict = {}  # game.engine.analysis.Budget overrides (tests make it small)

# Deadlines are columns that the apps register (durak_site/deadlines/); one sweep fires the overdue ones.
# Its pacer reads the earliest pending deadline at least every TIMERS_SWEEP_SECONDS and asks for a sweep
# when one falls due, and for a full sweep (heartbeats, bot safety net, re-matching, retries) every
# TIMERS_FULL_SWEEP_SECONDS. Beat's scheduler (durak_site/deadlines/beat.py) enqueues those sweeps for a
# worker; without Redis the in-process ticker runs them.
TIMERS_SWEEP_SECONDS = 0.1
TIMERS_FULL_SWEEP_SECONDS = 1.0
TIMERS_SWEEP_LEAD_SECONDS = 0.02  # beat sends a sweep this early: the broker trip overlaps the wait
TIMERS_HEARTBEAT_TIMEOUT = 12  # s without a ping: the socket is gone (the page pings every 5 s)
TIMERS_BOT_GRACE = 4  # s a bot may be awaited before the sweep moves it (its queued move was lost)
TIMERS_LOBBY_HEARTBEATS = True
CELERY_BEAT_SCHEDULER = "durak_site.deadlines.beat:DeadlineScheduler"
CELERY_IMPORTS = ("durak_site.deadlines.tasks",)  # the sweep task, outside an app's tasks.py
CELERY_BEAT_SCHEDULE = {
    "chat-retention": {"task": "chat.tasks.purge_old_messages", "schedule": 6 * 60 * 60},
    "address-retention": {"task": "accounts.tasks.purge_old_addresses", "schedule": 6 * 60 * 60},
    # the analysis queue's repair (runs lost with their worker, turns lost with Redis), on the default
    # queue; and a heartbeat the analysis worker answers (/healthz reports a dead one)
    "analysis-sweep": {"task": "analysis.tasks.sweep", "schedule": 15.0, "options": {"queue": "celery"}},
    "analysis-heartbeat": {"task": "analysis.tasks.heartbeat", "schedule": 10.0, "options": {"expires": 10}},
}
CHAT_RETENTION_DAYS = _CHAT_RETENTION_DAYS  # chat messages kept this long (reported ones until the report closes)
ADDRESS_RETENTION_DAYS = _ADDRESS_RETENTION_DAYS  # the addresses a player used, kept this long after their last use

# Web Push (notifications/, docs/settings.md): off unless both VAPID keys are set. A push is posted by
# the worker (default queue) to the subscription's push service, which must be one of these hosts.
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "").strip()  # base64url, uncompressed P-256 point
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip()  # base64url raw key (or DER)
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:admin@durak.invalid").strip()
PUSH_RUNNER = ""  # "" = "celery" with Redis, "local" (a thread) without
PUSH_TIMEOUT = 5  # seconds the worker waits for a push service
PUSH_ENDPOINT_SCHEMES = ("https",)
PUSH_SERVICE_HOSTS = ("fcm.googleapis.com", "push.services.mozilla.com", "push.apple.com", "notify.windows.com")
PUSH_CHANGES_PER_MINUTE = 30  # subscription and settings changes one player may make

# Live play
CHEATER_CHECK_SECONDS = 4.0  # docs/RULES.md#check-phase: the window to catch a cheater
BOT_DELAY_RANGE = (0.5, 1.5)  # a bot's human-like pause before its move, thinking included
BOT_SCHEDULER = ""  # "" = "celery" with Redis, "local" without; "off" in tests that move bots by hand
# tests only: hold a change's frames this long after its commit (opens the window a crash can hit)
REALTIME_HOLD_AFTER_COMMIT = float(os.environ.get("REALTIME_HOLD_AFTER_COMMIT", "0"))

# Fair results (docs/RULES.md#ratings; stated on the rules page): what a rated game needs, and what cannot farm rating.
RATINGS_MIN_ROUNDS = 2  # a rated game lasts more than one round
RATINGS_MIN_OWN_SHARE = 0.5  # a win counts for a person who made at least this share of his seat's moves
RATINGS_PROVISIONAL_GAMES = 5  # a new account's first rated games are provisional ...
RATINGS_PROVISIONAL_FACTOR = 0.0  # ... and move an established opponent's rating by this fraction
RATINGS_PAIR_GAMES_PER_DAY = 5  # rated games the same two accounts may play together in 24 hours
RATINGS_SHARED_ADDRESS_UNRATED = True  # players who used one address around the game play unrated ...
RATINGS_SHARED_ADDRESS_DAYS = 3  # ... during it or in these days before it, unless the pair is known
RATINGS_TRUST_OUTSIDE_GAMES = 10  # (ratings.known_pairs) or each of the two has this many rated games with others ...
RATINGS_TRUST_ACCOUNT_DAYS = 14  # ... from other addresses, each account is this many days old ...
RATINGS_TRUST_ONE_SIDED_AFTER = 4  # ... and, once this many games together are decided, ...
RATINGS_KNOWN_PAIR_MIN_SHARE = 0.25  # ... each won this share of them (and nobody left one)
RATINGS_SUSPICIOUS_PAIR_GAMES = 5  # the moderators' list shows pairs with this many games in a week

AUTH_USER_MODEL = "accounts.Player"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a locked-out admin login before any password check
    "accounts.backends.PlayerBackend",  # ModelBackend + the rating in one query
]
LOGIN_URL = "accounts:signup"
# "Restore on another device": failed nick + key pairs allowed from one client address, per nick and in
# all, in a window. Nothing counts per nick alone: strangers' failures never refuse the owner's key.
RESTORE_FAILURES_PER_ADDRESS_NICK = 5
RESTORE_FAILURES_PER_ADDRESS = 20
RESTORE_FAILURE_WINDOW = 15 * 60  # seconds
# Flood control (durak_site.ratelimit; per client address as TRUSTED_PROXY_HOPS reads it, so behind a
# proxy that hop count must be right or every visitor shares one address): (count, window in seconds).
SIGNUP_LIMIT_PER_ADDRESS = (10, 60 * 60)  # new accounts from one address an hour
TABLE_LIMIT_PER_ACCOUNT = (5, 10 * 60)  # new tables one player may open in 10 minutes ...
TABLE_LIMIT_PER_ADDRESS = (20, 10 * 60)  # ... and all players on one address together
# Players' keys are generated (140 random bits); these rules apply to staff passwords
# (createsuperuser, changepassword, the admin's password forms).
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Django's hashers, plus one for recovery keys (140 random bits: accounts/hashers.py explains why a
# few PBKDF2 rounds suffice); staff passwords keep the first, Django's default.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "accounts.hashers.RecoveryKeyHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
# Staff logins (/admin/login/) through django-axes: after AXES_FAILURE_LIMIT failures from one
# address for one nick, that pair is locked out for AXES_COOLOFF_TIME (attempts are logged in the
# admin). Players' restore is throttled by accounts.services instead, so axes watches the admin only.
AXES_ONLY_ADMIN_SITE = True
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", default=5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", default=30, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["ip_address", "username"]]
AXES_USERNAME_FORM_FIELD = "username"  # the admin login form's field (the model's is "nick")
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "accounts.services.client_address"  # the same TRUSTED_PROXY_HOPS rule
AXES_VERBOSE = False
AXES_WHITELIST_CALLABLE = "accounts.backends.outside_admin"
AXES_DISABLE_ACCESS_LOG = True  # failures are logged; players' ordinary logins are not recorded by axes

SESSION_COOKIE_AGE = 60 * 60 * 24 * 365  # access persists in the browser (docs/RULES.md#accounts)
SESSION_SAVE_EVERY_REQUEST = False
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_HTTPONLY = True

LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "durak_site.storage.StaticStorage"},
}
WHITENOISE_USE_FINDERS = True  # tests and dev serve straight from the source folders
# Before collectstatic (dev, tests) STATIC_ROOT does not exist yet; the finders serve the files meanwhile.
warnings.filterwarnings("ignore", message=r"No directory at: .*staticfiles", category=UserWarning)

# ---- Operations: structured logs and metrics (docs/operations.md) --------------------------------------
try:
    LOG_FORMAT = env_choice("LOG_FORMAT", "PLAIN", ("PLAIN", "JSON"))
    # /metrics (durak_site/metrics.py): off makes every counter a no-op (the bench_ws A/B) and the endpoint 404
    METRICS_ENABLED = env_bool("METRICS_ENABLED", default=True)
    METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")  # Bearer token; without one only a DEBUG site answers
    METRICS_PORT = env_int("METRICS_PORT", default=0)  # a Celery worker serves /metrics on it (0: none)
except ImproperEnv as exc:
    raise SystemExit(f"Configuration error: {exc}") from None
CELERY_WORKER_HIJACK_ROOT_LOGGER = LOG_FORMAT != "JSON"  # Celery's own format would replace the JSON lines

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
                   "json": {"()": "durak_site.logs.JsonFormatter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT.lower()}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "django.channels.server": {"level": "WARNING"},
        "axes": {"level": "WARNING"},  # every login would log an INFO line
    },
}

# Production hardening (python manage.py check --deploy must be clean with DEBUG off).
# X-Forwarded-Proto is believed only from a proxy we were told about: a direct client could fake it.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if TRUSTED_PROXY_HOPS > 0 else None
SECURE_SSL_REDIRECT = _SECURE_SSL_REDIRECT
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = _SESSION_COOKIE_SECURE
CSRF_COOKIE_SECURE = _CSRF_COOKIE_SECURE
SECURE_HSTS_SECONDS = _SECURE_HSTS_SECONDS
SECURE_HSTS_INCLUDE_SUBDOMAINS = _SECURE_HSTS_INCLUDE_SUBDOMAINS
SECURE_HSTS_PRELOAD = _SECURE_HSTS_PRELOAD
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts only from this site (no inline script, no eval), so
# an injected <script> or handler does not run. Styles may be inline: the pages, htmx's indicator
# rules and the table script set style attributes. The one inline handler (select the invite link
# on focus) is allowed by its hash. Sockets go to this same host ('self' covers ws: and wss:).
INVITE_FOCUS_HANDLER_HASH = "'sha256-biFQTroSCI3Z5BmsMGyEE2jFZdwjjG1Oe7JLytgH6jM='"  # "this.select()"
SELF, NONE = "'self'", "'none'"  # csp.constants' values, without importing the package into settings
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, "'unsafe-hashes'", INVITE_FOCUS_HANDLER_HASH],
        "style-src": [SELF, "'unsafe-inline'"],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
