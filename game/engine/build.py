"""Compile the engine's hot modules with mypyc, in place: ``python game/engine/build.py`` (``make native``).

The hot modules are the rules' core and the bots' inner loops (the playout habits, the tree search,
the endgame solver), where the expert and the analysis spend their time. The compiled modules
(``game/engine/*.so``, ``game/engine/bots/*.so``) shadow their ``.py`` twins and play exactly like them
(tests/engine/test_native_build.py); without them the engine is the pure Python it always was.
``GameState`` becomes a native class (no ``__dict__``; state.py's ``clone`` copies it), which is
where most of the gain is: compiled with a pure state, field reads get dearer, not cheaper.
rules, types and errors are type-checked with the rest but stay Python. The build writes a digest
of the sources it compiled (``native.sha256``), which the engine checks on import (native.py), so
an edited source never runs as its stale compiled twin. ``--if-possible`` (``make run`` and ``make
test``) builds only when the digest is out of date and skips, with a notice, where there is no C
compiler or no mypyc. Figures: docs/engine-performance.md#native.

Run as a script, not ``-m``: a stale build must not stop its own rebuild by the import guard.
"""
from __future__ import annotations

import os
import sys

if __name__ == "__main__" and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    sys.path.pop(0)  # run as a script: this folder's types.py must not shadow the standard one

import hashlib  # noqa: E402
from importlib.machinery import EXTENSION_SUFFIXES  # noqa: E402
from pathlib import Path  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
# compiled by mypyc; TYPED are type-checked with them (the compiled code relies on their types)
COMPILED = ("cards", "seats", "events", "state", "checks", "flow", "actions", "views", "deal",
            "cheater", "reads", "bots/rollout", "bots/tree", "bots/endgame")
TYPED = ("rules", "types", "errors")
STAMP = "native.sha256"


def sources_digest(folder: Path = HERE) -> str:
    """One SHA-256 over the compiled and the typed modules' sources, in a fixed order."""
    h = hashlib.sha256()
    for m in COMPILED + TYPED:
        h.update(m.encode() + b"\0" + (folder / f"{m}.py").read_bytes() + b"\0")
    return h.hexdigest()


def compiled_files(folder: Path = HERE) -> list[Path]:
    """This interpreter's compiled modules found beside the sources."""
    return [p for m in COMPILED if (p := folder / f"{m}{EXTENSION_SUFFIXES[0]}").exists()]


def up_to_date(folder: Path = HERE) -> bool:
    stamp = folder / STAMP
    return (bool(compiled_files(folder)) and stamp.exists()
            and stamp.read_text().strip() == sources_digest(folder))


def missing_tools() -> str:
    """Why this machine cannot build, or "" when it can."""
    import shutil
    import sysconfig
    from importlib.util import find_spec

    if not (shutil.which("cc") or shutil.which("gcc")):
        return "no C compiler"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers"
    if find_spec("mypyc") is None:
        return "no mypyc (pip install mypy)"
    return ""


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]

    os.chdir(ROOT)
    # mypy's Django plugin imports the apps, and so the engine, whose guard refuses a stale build:
    # the old compiled modules go first (the engine is pure Python until the new ones are copied in)
    for old in compiled_files():
        old.unlink()
    (HERE / STAMP).unlink(missing_ok=True)
    paths = [f"game/engine/{m}.py" for m in COMPILED + TYPED]
    only = [f"game/engine/{m}.py" for m in COMPILED]
    # the project's mypy sections name modules outside this subset: not an error for the build
    exts = mypycify(["--no-warn-unused-configs", *paths], only_compile_paths=only, group_name="game.engine._native",
                    target_dir="build/mypyc")
    setup(name="durak-engine-native", ext_modules=exts, packages=[],
          script_args=["build_ext", "--inplace", "--build-temp", "build/temp"])
    (HERE / STAMP).write_text(sources_digest() + "\n")


def main(argv: list[str]) -> int:
    if "--if-possible" in argv:
        if up_to_date():
            return 0
        why = missing_tools()
        if why:
            print(f"game/engine: {why}, so the engine runs as pure Python (same play, slower)")
            return 0
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
