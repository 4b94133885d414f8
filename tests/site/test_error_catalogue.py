"""One catalogue of refusals (durak_site/errors.py): every code any layer raises has a sentence, in
Russian and in English, and the socket and the page read the same one."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.utils import translation

from durak_site.errors import CATALOGUE, ServiceError, message_for
from game import engine

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "lobby", "game", "ratings", "analysis", "social", "chat", "durak_site")


def _raised_codes() -> set[str]:
    """Codes of `ServiceError("code")` with no sentence of their own, and of the socket's error frames."""
    codes: set[str] = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "/migrations/" in path.as_posix() or "/engine/" in path.as_posix():
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                first = node.args[0] if node.args else None
                if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                    continue
                if name == "ServiceError" and len(node.args) == 1:
                    codes.add(first.value)
                elif name == "_error" and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
                    codes.add(node.args[1].value)
    return codes


def test_every_code_the_services_and_the_socket_raise_has_a_sentence():
    missing = sorted(c for c in _raised_codes() if c not in CATALOGUE)
    assert not missing, f"codes without a sentence in durak_site.errors.CATALOGUE: {missing}"


def test_every_engine_refusal_has_a_sentence():
    missing = sorted(set(engine.ERROR_CODES) - set(CATALOGUE))
    assert not missing, missing


def test_every_sentence_is_translated_to_russian_and_reads_english_in_english():
    untranslated = []
    for code, sentence in CATALOGUE.items():
        with translation.override("ru"):
            ru = str(sentence)
        with translation.override("en"):
            en = str(sentence)
        if not re.search("[а-яА-ЯёЁ]", ru) or re.search("[а-яА-ЯёЁ]", en.replace("«", "").replace("»", "")):
            untranslated.append((code, ru, en))
    assert not untranslated, untranslated


def test_a_refusal_fills_its_sentence_and_the_page_and_the_socket_share_it():
    from game.views import error_messages

    err = ServiceError("seat_taken", n=3)
    with translation.override("en"):
        assert err.message == "Seat 3 is taken."
        assert error_messages()["stale_version"] == message_for("stale_version")
    with translation.override("ru"):
        assert "3" in err.message and re.search("[а-я]", err.message)
