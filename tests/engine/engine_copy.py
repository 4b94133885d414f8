"""A copy of the engine's sources in a temporary folder, for tests that build or fake a build."""
from __future__ import annotations

import shutil
from pathlib import Path

from game.engine.build import STAMP

ROOT = Path(__file__).resolve().parents[2]


def engine_copy(root: Path) -> Path:
    """``root/game/engine`` with the engine's sources and its bots: no compiled modules, no tools."""
    (root / "game").mkdir()
    shutil.copy(ROOT / "game" / "__init__.py", root / "game")
    shutil.copytree(ROOT / "game" / "engine", root / "game" / "engine", ignore=shutil.ignore_patterns(
        "*.so", STAMP, "__pycache__", "tools", "analysis"))
    return root / "game" / "engine"
