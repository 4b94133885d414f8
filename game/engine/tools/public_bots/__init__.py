"""Adapters that let public open-source Durak AIs play a seat in our engine (public_arena.py).

None of their code lives here: each adapter imports it from a checkout path given at run time
and names the repository and commit it was written against.
"""
from __future__ import annotations

from game.engine.tools.public_bots.base import Move, PublicBot, Seen, Stats, load_module, to_ours
from game.engine.tools.public_bots.jorisperrenet import JorisDeterminized
from game.engine.tools.public_bots.larsenbier import LarsenbierHybrid

PUBLIC_BOTS: dict[str, type[PublicBot]] = {
    "larsenbier": LarsenbierHybrid,
    "jorisperrenet": JorisDeterminized,
}

__all__ = ["PUBLIC_BOTS", "JorisDeterminized", "LarsenbierHybrid", "Move", "PublicBot", "Seen",
           "Stats", "load_module", "to_ours"]
