"""The monitoring profile's files parse, and name only metrics the site exports (docker cannot run here)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from durak_site import metrics

ROOT = Path(__file__).resolve().parents[2]
DOCKER = ROOT / "docker"
CLUB = {"durak_games", "durak_analyses", "durak_timers_last_sweep_age_seconds",  # read at scrape
        "durak_celery_queue_length", "durak_celery_worker_heartbeat_age_seconds"}


def exported() -> set[str]:
    names = set(CLUB)
    for value in vars(metrics).values():
        describe = getattr(value, "describe", None)
        if describe is not None and getattr(value, "_name", "").startswith("durak_"):
            for family in describe():
                names.add(family.name)
    return names


def referenced(text: str) -> set[str]:
    return {re.sub(r"_(bucket|count|sum|total)$", "", name) for name in re.findall(r"\bdurak_[a-z_]+", text)}


def base(name: str) -> str:
    return re.sub(r"_total$", "", name)


def test_compose_starts_prometheus_and_grafana_only_with_the_monitoring_profile():
    compose = yaml.safe_load((DOCKER / "compose.yml").read_text())
    services = compose["services"]
    for name in ("prometheus", "grafana"):
        assert services[name]["profiles"] == ["monitoring"], name
    for name in ("web", "worker", "beat", "postgres", "redis"):
        assert "profiles" not in services[name], f"{name} must start without a profile"
    assert services["worker"]["environment"]["METRICS_PORT"] == "9100"
    assert "PROMETHEUS_MULTIPROC_DIR" in services["worker"]["environment"]
    assert "METRICS_TOKEN" in services["web"]["environment"]
    mounted = {volume.split(":")[0] for volume in services["prometheus"]["volumes"]}
    assert {"./prometheus.yml", "./prometheus-alerts.yml"} <= mounted
    for path in mounted | {v.split(":")[0] for v in services["grafana"]["volumes"]}:
        if path.startswith("./"):
            assert (DOCKER / path).exists(), path


def test_prometheus_scrapes_web_and_worker_with_the_token():
    config = yaml.safe_load((DOCKER / "prometheus.yml").read_text())
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    assert set(jobs) == {"durak-web", "durak-worker"}
    assert jobs["durak-web"]["dns_sd_configs"][0]["port"] == 8000
    assert jobs["durak-worker"]["dns_sd_configs"][0]["port"] == 9100
    for job in jobs.values():
        assert job["metrics_path"] == "/metrics"
        assert job["authorization"]["type"] == "Bearer"


def test_alerts_and_dashboard_name_only_exported_metrics():
    names = {base(n) for n in exported()}
    alerts = yaml.safe_load((DOCKER / "prometheus-alerts.yml").read_text())
    rules = [rule for group in alerts["groups"] for rule in group["rules"]]
    assert any("durak_timers_last_sweep_age_seconds" in rule["expr"] for rule in rules)
    dashboard = json.loads((DOCKER / "grafana" / "dashboards" / "durak.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    assert len({p["id"] for p in dashboard["panels"]}) == len(dashboard["panels"])
    for text in [rule["expr"] for rule in rules] + exprs:
        unknown = {base(n) for n in referenced(text)} - names
        assert not unknown, f"{text} names {unknown}"
    shown = " ".join(exprs)
    for needed in ("durak_moves_applied_total", "durak_moves_refused_total", "durak_move_latency_seconds_bucket",
                   "durak_frames_published_total", "durak_table_sockets_open", "durak_games",
                   "durak_deadlines_fired_total", "durak_deadline_lateness_seconds_bucket",
                   "durak_bot_decision_seconds_bucket", "durak_chat_messages_total", "durak_celery_queue_length",
                   "durak_timers_last_sweep_age_seconds"):
        assert needed in shown, needed
