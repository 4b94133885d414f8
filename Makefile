# Two commands do all set-up on a fresh machine (Python 3.11 + the OS):
#   make run    the site on the embedded default (SQLite, in-memory channels, in-process timers) at :8000
#   make test   the whole test suite (uses DATABASE_URL / REDIS_URL when set, as .ci/run does)
#   make test-fast   everything but the browser tests (-m "not browser")
# run, test and bench first compile the engine's hot modules with mypyc when the sources changed and
# a C compiler is there (game/engine/build.py); without one the engine runs as pure Python.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-fast lint check messages bench native pure clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

run: $(VENV)/.installed
	@$(PY) game/engine/build.py --if-possible
	$(PY) manage.py migrate --noinput
	@# the embedded SQLite file in write-ahead-log mode: a commit is one append, readers never wait for it
	@[ -n "$$DATABASE_URL" ] || $(PY) -c "import sqlite3; sqlite3.connect('db.sqlite3').execute('PRAGMA journal_mode=WAL')"
	$(PY) manage.py runserver $(HOST):$(PORT)

test: $(VENV)/.installed
	@scripts/ensure-chromium
	@$(PY) game/engine/build.py --if-possible
	$(PY) -m pytest $(PYTEST_ARGS)

test-fast: $(VENV)/.installed
	@$(PY) game/engine/build.py --if-possible
	$(PY) -m pytest -m "not browser" $(PYTEST_ARGS)

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

messages: $(VENV)/.installed
	$(PY) manage.py compilemessages --ignore=.venv

bench: $(VENV)/.installed
	@$(PY) game/engine/build.py --if-possible
	$(PY) -m game.engine.tools.bench

# the engine's hot modules compiled with mypyc, in place (needs a C compiler); `make pure` undoes it
native: $(VENV)/.installed
	$(PY) game/engine/build.py

pure:
	rm -rf build game/engine/*.so game/engine/bots/*.so game/engine/native.sha256

clean:
	rm -rf $(VENV) staticfiles test-artifacts db.sqlite3 test-db.sqlite3 build game/engine/*.so game/engine/bots/*.so game/engine/native.sha256
