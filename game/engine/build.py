"""Compile the engine's hot modules with mypyc, in place: ``python -m game.engine.build`` (``make native``).

The compiled modules (``game/engine/*.so``) shadow their ``.py`` twins and play exactly like them
(tests/engine/test_native_build.py); without them the engine is the pure Python it always was.
``GameState`` becomes a native class (no ``__dict__``; state.py's ``clone`` copies it), which is
where most of the gain is: compiled with a pure state, field reads get dearer, not cheaper.
rules, types and errors are type-checked with the rest but stay Python. ``make clean`` removes the
build. Figures: docs/engine-performance.md#native.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
COMPILED = ("cards", "seats", "events", "state", "checks", "flow", "actions", "views", "deal",
            "cheater")
TYPED = ("rules", "types", "errors")


def main() -> int:
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]

    os.chdir(ROOT)
    paths = [f"game/engine/{m}.py" for m in COMPILED + TYPED]
    only = [f"game/engine/{m}.py" for m in COMPILED]
    exts = mypycify(paths, only_compile_paths=only, group_name="game.engine._native",
                    target_dir="build/mypyc")
    setup(name="durak-engine-native", ext_modules=exts, packages=[],
          script_args=["build_ext", "--inplace", "--build-temp", "build/temp"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
