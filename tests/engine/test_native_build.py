"""The mypyc build of the engine (game/engine/build.py) plays exactly like the pure Python.

The build runs on a copy of the engine in a temporary directory, so this checkout stays pure; a
script then plays seeded random games under several rule sets and prints every seat's legal actions,
every state's JSON, a view and an illegal move's error code, then every decision of seeded expert
games (the compiled playouts, tree search and endgame solver), once with the copy's compiled modules
and once with a pure copy. A build that breaks, or compiles code that behaves differently, fails here.
"""
from __future__ import annotations

import ast
import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from game.engine import Rules, new_game
from game.engine.build import missing_tools
from game.engine.state import clone
from tests.engine.engine_copy import engine_copy

ROOT = Path(__file__).resolve().parents[2]

PLAY = r"""
import hashlib, json, random, sys
sys.path.insert(0, sys.argv[1])
from game.engine import Rules, apply_action, end_check, legal_actions, new_game, view_for, whose_turn
from game.engine import IllegalAction
import game.engine.actions as actions
import game.engine.bots.endgame as endgame
import game.engine.bots.rollout as rollout
import game.engine.bots.tree as tree
built = [m.__file__.endswith(".so") for m in (actions, rollout, tree, endgame)]
print("compiled" if all(built) else "mixed" if any(built) else "pure")
h = hashlib.sha256()
for rules, players in ((Rules(), 4), (Rules(variant="perevodnoy"), 3), (Rules(cheater=True), 3),
                       (Rules(pairs=True, deck_size=52), 4)):
    for seed in range(12):
        rnd = random.Random(seed)
        s = new_game(rules, players, seed=seed)
        while s.phase != "over":
            if s.phase == "check":
                s = end_check(s)
                continue
            for seat in range(1, players + 1):
                h.update(json.dumps(legal_actions(s, seat)).encode())
            h.update(json.dumps(view_for(s, 1 + seed % players)).encode())
            h.update(json.dumps(s.to_json(), sort_keys=True).encode())
            turn = whose_turn(s)
            seat = turn[rnd.randrange(len(turn))]
            try:
                apply_action(s, seat, {"type": "defend", "card": "XX"})
            except IllegalAction as e:
                h.update(e.code.encode())
            acts = legal_actions(s, seat)
            s = apply_action(s, seat, acts[rnd.randrange(len(acts))])
        h.update(json.dumps(s.result, sort_keys=True).encode())
from game.engine.bots.expert import ExpertBot
# a small budget that still walks every compiled bot module: playouts, the world trees, the
# endgame solver and the tree search where it gives up (never the clock: time_limit is far off)
bot = ExpertBot(iterations=48, tree=48, max_nodes=300, pimc_worlds=3, pimc_tree=24, time_limit=60)
for rules in (Rules(), Rules(variant="perevodnoy")):
    for seed in range(3):
        rnd = random.Random(seed)
        s = new_game(rules, 2, seed=seed)
        while s.phase != "over":
            seat = whose_turn(s)[0]
            action = bot.choose(view_for(s, seat), rnd)
            h.update(json.dumps(action).encode())
            s = apply_action(s, seat, action)
print(h.hexdigest())
"""


def _play(root: Path) -> list[str]:
    out = subprocess.run([sys.executable, "-c", PLAY, str(root)], capture_output=True, text=True,
                         check=True, cwd=root)
    return out.stdout.split()


def _copy(root: Path) -> Path:
    """The engine's sources (no compiled modules, no bots or tools) under ``root``."""
    return engine_copy(root).parent.parent


@pytest.fixture(scope="module")
def native_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    why = missing_tools()
    if why:
        pytest.skip(f"{why}: the engine runs as pure Python")
    root = _copy(tmp_path_factory.mktemp("native"))
    build = subprocess.run([sys.executable, "game/engine/build.py"], cwd=root,
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
    return root


def test_the_build_compiles_the_hot_modules(native_copy: Path) -> None:
    engine = native_copy / "game" / "engine"
    built = {p.relative_to(engine).as_posix().split(".")[0] for p in engine.glob("**/*.so")}
    assert {"actions", "flow", "state", "checks", "cards", "seats", "bots/rollout", "bots/tree",
            "bots/endgame"} <= built


def test_compiled_engine_plays_exactly_like_the_pure_one(
    native_copy: Path, tmp_path: Path
) -> None:
    compiled = _play(native_copy)
    pure = _play(_copy(tmp_path))
    assert compiled[0] == "compiled" and pure[0] == "pure"
    assert compiled[1] == pure[1]
    assert len(compiled[1]) == len(hashlib.sha256().hexdigest())


def test_clone_copies_every_field_of_the_state() -> None:
    """The compiled engine clones field by field: a field added to GameState but not to clone
    would be missing from every state after the first move."""
    s = new_game(Rules(cheater=True), 3, seed=1)
    fields = _state_fields()
    if hasattr(s, "__dict__"):  # the pure state: every field it holds is declared
        assert set(s.__dict__) == set(fields)
    copy = clone(s)  # an unset field of a native class raises AttributeError here
    assert [getattr(copy, f) for f in fields] == [getattr(s, f) for f in fields]


def _state_fields() -> list[str]:
    """GameState's declared fields, read off the source: a compiled class keeps no annotations."""
    tree = ast.parse((ROOT / "game" / "engine" / "state.py").read_text())
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "GameState").body
    return [n.target.id for n in body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)]
