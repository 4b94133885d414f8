"""The production process types exist and agree: Procfile, docker/compose.yml and docker/Dockerfile.

Docker cannot run here, so these read the files; the commands they name are imported for real.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# daphne through durak_site.serve (request body limit, header deadline), with its handshake and response timeouts
WEB = ("python -m durak_site.serve -b 0.0.0.0 -p ${PORT} --websocket_connect_timeout 5 --http-timeout 60 "
       "durak_site.asgi:application")


def procfile() -> dict[str, str]:
    processes = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, command = line.partition(":")
            assert name.strip() not in processes, f"process type {name} twice"
            processes[name.strip()] = command.strip()
    return processes


def compose_services() -> dict[str, str]:
    """Each top-level service of compose.yml and the text of its block (a YAML subset: two-space indents)."""
    text = (ROOT / "docker" / "compose.yml").read_text()
    body = text.split("\nservices:\n", 1)[1]
    body = re.split(r"\n(?=\S)", body, maxsplit=1)[0]  # up to the next top-level key
    services: dict[str, str] = {}
    current = None
    for line in body.splitlines():
        match = re.match(r"^  ([a-z][\w-]*):\s*$", line)
        if match:
            current = match.group(1)
            services[current] = ""
        elif current:
            services[current] += line + "\n"
    return services


def test_procfile_has_release_web_worker_and_beat():
    processes = procfile()
    assert set(processes) == {"release", "web", "worker", "beat", "analysis"}
    assert processes["release"] == "python manage.py migrate --noinput"
    assert processes["web"] == WEB.replace("${PORT}", "$PORT")
    assert processes["worker"].startswith("celery -A durak_site worker")
    assert processes["beat"].startswith("celery -A durak_site beat")
    # post-game analyses have their own worker and queue, at the lowest CPU priority; the live worker
    # never serves that queue
    assert processes["analysis"].startswith("nice -n 19 celery -A durak_site worker -Q analysis")
    assert "-Q" not in processes["worker"]


def test_compose_runs_web_worker_beat_postgres_redis_and_a_release_step():
    services = compose_services()
    assert {"release", "web", "worker", "beat", "postgres", "redis"} <= set(services)
    assert "migrate" in services["release"]
    assert '"celery", "-A", "durak_site", "worker"' in services["worker"]
    assert '"celery", "-A", "durak_site", "beat"' in services["beat"]
    assert '"nice", "-n", "19", "celery", "-A", "durak_site", "worker", "-Q", "analysis"' in services["analysis"]
    for name in ("web", "worker", "postgres", "redis"):
        assert "healthcheck:" in services[name], name
    assert "/healthz" in services["web"]
    for name in ("web", "worker", "beat"):
        assert "service_completed_successfully" in services[name], f"{name} waits for migrations"
    anchor = (ROOT / "docker" / "compose.yml").read_text().split("\nservices:", 1)[0]
    assert "DATABASE_URL: postgres://" in anchor and "REDIS_URL: redis://redis:6379/0" in anchor
    assert "SECRET_KEY: ${SECRET_KEY:?" in anchor


def test_dockerfile_is_multi_stage_non_root_collects_static_and_runs_daphne_on_port():
    text = (ROOT / "docker" / "Dockerfile").read_text()
    stages = re.findall(r"^FROM (\S+) AS (\w+)", text, re.M)
    assert stages == [("python:3.11-slim", "builder"), ("python:3.11-slim", "runtime")]
    runtime = text.split("AS runtime", 1)[1]
    assert "COPY --from=builder" in runtime
    assert "collectstatic --noinput" in runtime and "SECRET_KEY=" in runtime
    users = re.findall(r"^USER (\S+)", runtime, re.M)
    assert users and users[-1] not in {"root", "0"}
    cmd = re.findall(r"^CMD (.+)$", runtime, re.M)[-1]
    assert cmd == "exec " + WEB.replace("${PORT}", '"${PORT}"')  # the Procfile's bounded daphne


def test_the_processes_named_by_the_files_exist():
    from durak_site import celery_app
    from durak_site.asgi import application

    assert application is not None
    assert celery_app.main == "durak_site"


def test_the_readme_says_how_to_run_on_another_port_and_the_makefile_does_it():
    """The README says how to run on another port (`make run PORT=…`), and the Makefile does it."""
    readme = (ROOT / "README.md").read_text()
    assert re.search(r"`make run PORT=\d+`", readme)
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^PORT \?= \d+$", makefile, re.M)
    run = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "runserver" in run and ":$(PORT)" in run


def test_the_image_runs_the_compiled_engine_without_a_compiler_at_runtime():
    text = (ROOT / "docker" / "Dockerfile").read_text()
    builder, runtime = text.split("AS runtime", 1)
    # a broken build fails the image (no --if-possible), and the tools stay in the builder
    assert re.search(r"python game/engine/build\.py(?! --if-possible)", builder)
    assert "gcc" in builder and "gcc" not in runtime and "mypy" not in runtime
    ignored = (ROOT / "docker" / "Dockerfile.dockerignore").read_text().split()
    # a host's build never stands in for the image's own
    assert {"game/engine/*.so", "game/engine/bots/*.so"} <= set(ignored)


def test_every_long_running_process_restarts_itself_and_the_workers_have_health_checks():
    """A process that exits (a Celery worker that lost its broker, a crash) comes back by itself."""
    services = compose_services()
    for name in ("web", "worker", "analysis", "beat", "postgres", "redis"):
        assert re.search(r"^    restart: (unless-stopped|always)$", services[name], re.M), name
    assert 'restart: "no"' in services["release"]  # the one-off migration step
    for name in ("worker", "analysis"):
        assert "inspect ping" in services[name], name
