"""A compiled engine built from other sources than the ones on disk is refused on import.

A compiled module shadows its .py twin, so without the guard an edited source would silently not
run. These tests fake a compiled module with an empty file: the guard must refuse it before the
first compiled module is imported.
"""
from __future__ import annotations

import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from game.engine.build import STAMP, sources_digest, up_to_date
from game.engine.native import StaleBuild, check_build
from tests.engine.engine_copy import engine_copy


def _fake_compiled(folder: Path) -> None:
    (folder / f"flow{EXTENSION_SUFFIXES[0]}").write_bytes(b"")


def test_a_pure_engine_is_not_checked(tmp_path: Path) -> None:
    assert check_build(engine_copy(tmp_path)) is False


def test_a_build_without_its_digest_is_refused(tmp_path: Path) -> None:
    folder = engine_copy(tmp_path)
    _fake_compiled(folder)
    with pytest.raises(StaleBuild, match="make native"):
        check_build(folder)


def test_a_build_of_the_same_sources_is_accepted_and_an_edit_makes_it_stale(tmp_path: Path) -> None:
    folder = engine_copy(tmp_path)
    _fake_compiled(folder)
    (folder / STAMP).write_text(sources_digest(folder) + "\n")
    assert check_build(folder) is True and up_to_date(folder)
    flow = folder / "flow.py"
    flow.write_text(flow.read_text() + "\n# edited\n")
    with pytest.raises(StaleBuild):
        check_build(folder)


def test_an_edit_to_a_typed_module_makes_the_build_stale_too(tmp_path: Path) -> None:
    folder = engine_copy(tmp_path)
    _fake_compiled(folder)
    (folder / STAMP).write_text(sources_digest(folder) + "\n")
    rules = folder / "rules.py"
    rules.write_text(rules.read_text() + "\n# edited\n")
    assert not up_to_date(folder)


def test_importing_a_stale_engine_fails_with_the_fix_before_any_compiled_module_loads(
    tmp_path: Path,
) -> None:
    folder = engine_copy(tmp_path)
    _fake_compiled(folder)  # an empty file: loading it would fail with another error
    run = subprocess.run([sys.executable, "-c", "import game.engine"], cwd=folder.parent.parent,
                         capture_output=True, text=True)
    assert run.returncode != 0
    assert "StaleBuild" in run.stderr and "make native" in run.stderr


def test_if_possible_skips_an_up_to_date_build_without_compiling(tmp_path: Path) -> None:
    folder = engine_copy(tmp_path)
    _fake_compiled(folder)
    (folder / STAMP).write_text(sources_digest(folder) + "\n")
    run = subprocess.run([sys.executable, str(folder / "build.py"), "--if-possible"],
                         cwd=folder.parent.parent, capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout == ""
    assert not (folder.parent.parent / "build").exists()  # mypyc never ran
