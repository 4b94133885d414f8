"""The guard against a stale compiled engine, run when the engine is imported.

A compiled module (``flow.cpython-311-….so``, game/engine/build.py) shadows its ``.py`` twin, so an
edited source would silently not run. The build writes a digest of the sources it compiled; this
compares it with the sources on disk and refuses a build that no longer matches, naming the command
that fixes it. Without compiled modules nothing is read or hashed.
"""
from __future__ import annotations

from pathlib import Path

from game.engine.build import HERE, compiled_files, up_to_date


class StaleBuild(ImportError):
    """The compiled modules were built from other sources than the ones on disk."""


def check_build(folder: Path = HERE) -> bool:
    """True when the engine runs compiled; raises StaleBuild when that build is out of date."""
    if not compiled_files(folder):
        return False
    if not up_to_date(folder):
        raise StaleBuild(
            "game/engine: the compiled modules (*.so) do not match the sources; rebuild them "
            "with `make native`, or remove them with `make pure` to run the pure engine")
    return True
