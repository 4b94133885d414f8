"""One catalogue of refusals (durak_site/errors.py): every code any layer raises has a sentence, in
Russian and in English, and the socket and the page read the same one."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

from durak_site.errors import CATALOGUE, ServiceError, message_for
from game import engine

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "lobby", "game", "ratings", "analysis", "social", "chat", "letters", "durak_site")


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


def _service_error_calls():
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "/migrations/" in path.as_posix():
                continue
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if isinstance(node, ast.Call):
                    name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                    if name == "ServiceError":
                        yield path.relative_to(ROOT), node
                elif isinstance(node, ast.ImportFrom) and any(a.name == "ServiceError" for a in node.names):
                    yield path.relative_to(ROOT), node


def test_a_refusal_is_a_code_and_parameters_never_a_sentence_of_its_own():
    inline = []
    for path, node in _service_error_calls():
        if isinstance(node, ast.ImportFrom):
            if node.module != "durak_site.errors":
                inline.append(f"{path}:{node.lineno}: ServiceError imported from {node.module}")
        elif len(node.args) != 1:
            inline.append(f"{path}:{node.lineno}: ServiceError with {len(node.args)} positional arguments")
    assert not inline, inline
    with pytest.raises(TypeError):
        ServiceError("ban_self", "You cannot ban yourself.")


def test_a_refusal_is_worded_in_the_language_active_when_it_is_read():
    err = ServiceError("nick_length", min=3, max=20, n=2)
    with translation.override("en"):
        assert err.message == "A nick is 3 to 20 characters long; this one has 2."
    with translation.override("ru"):
        assert re.search("[а-я]", err.message) and "3" in err.message and "20" in err.message
    banned = ServiceError("banned", reason="cheating")
    with translation.override("en"):
        assert banned.as_dict() == {"code": "banned", "message": "Your account is banned: cheating"}
