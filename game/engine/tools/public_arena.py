"""Seeded heads-up matches of our bots against public open-source Durak AIs.

``python -m game.engine.tools.public_arena --bot larsenbier --path CHECKOUT --ours expert
--games 400 --seed 0 --jobs 2``

Public bots (their code is never part of this repository; check the commit out anywhere and give
its path):

- ``larsenbier``: github.com/larsenbier/Durak-Endgame-Monte-Carlo-Tree-Search at
  59b031c00aa9e52e5144a0b893bee90dd4a3de33 (path: the checkout's root). Its «hybrid»: a
  lowest-card heuristic while the talon holds more than 4 cards, then MCTS (250 playouts,
  heuristic playouts). Rules: perevodnoy; with ``--rule variant=podkidnoy`` it plays podkidnoy,
  its transfers left out of its move list.
- ``jorisperrenet``: github.com/jorisperrenet/durak at bf419e6a5e2ac92ae59cbc044a084bca673e9c6d
  (path: the checkout's root or its python_version/). ``DeterminizedMCTS`` with its class
  defaults (10 deals x 100 rollouts, random playouts). Rules: perevodnoy with
  transfer_by_showing_trump.

Each deal is played twice with the seats swapped (game ``g`` plays deal ``seed + g // 2``, ours
at seat 1 on even ``g``). The public bot sees only its seat's view (public_bots/base.py); an
answer our rules cannot play as one action is mapped to the nearest legal one and counted.
``--opt key=json`` sets a parameter of our bot (``--opt tree=0``: the expert without its endgame
tree search). Prints W/L/D of our side, its win share of the decided games (Wilson 95 %), CPU ms
per decision of both sides (the arena's clock: a public bot's time includes its adapter) and the
corrections.

The figures and their commands: game/engine/README.md#strength.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from multiprocessing import Pool
from typing import Any

from game.engine.bots import BOTS, LEVEL_BY_CODE
from game.engine.bots.base import Bot
from game.engine.rules import Rules
from game.engine.tools.arena import play_bot_game
from game.engine.tools.public_bots import PUBLIC_BOTS, PublicBot, Stats
from game.engine.tools.tournament import (
    _rule,
    changed_rules,
    print_times,
    side_bot,
    tally,
    wilson,
)

Job = tuple[int, dict[str, Any], str, type[PublicBot], str, int, dict[str, Any]]
Outcome = tuple[str, dict[str, list[float]], Stats]

_BOT: dict[tuple[type[PublicBot], str], PublicBot] = {}  # one loaded adapter per process


def play_one(job: Job) -> Outcome:
    """One game: ``win`` / ``loss`` / ``draw`` for our side, decision times, the bot's counts."""
    g, rules_d, ours, cls, path, seed, opts = job
    key = (cls, path)
    if key not in _BOT:
        _BOT[key] = cls(path)
    bot = _BOT[key]
    bot.stats = Stats()
    mine = 1 if g % 2 == 0 else 2
    them = f"{cls.name} (public)"
    bots: dict[str, Bot] = {them: bot}
    mine_bot = side_bot("a", ours, opts)
    if mine_bot is not None:
        bots[ours] = mine_bot
    levels = {mine: ours, 3 - mine: them}
    out = play_bot_game(Rules.from_dict(rules_d), 2, seed + g // 2, levels, bots=bots)
    r = out.result
    res = "draw" if r["draw"] else ("loss" if mine in r["losers"] else "win")
    return res, out.times, bot.stats


def run(rules: Rules, ours: str, cls: type[PublicBot], path: str, games: int, seed: int,
        jobs: int, opts: dict[str, Any] | None = None) -> Iterator[Outcome]:
    """The match's outcomes in game order (``jobs`` worker processes); ``opts`` are our bot's
    parameters."""
    work = [(g, rules.to_dict(), ours, cls, path, seed, opts or {}) for g in range(games)]
    if jobs <= 1:
        yield from map(play_one, work)
        return
    with Pool(jobs) as pool:
        yield from pool.imap(play_one, work, chunksize=2)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m game.engine.tools.public_arena",
                                description=__doc__.split("\n")[0],
                                epilog=__doc__.split("\n\n", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bot", required=True, choices=sorted(PUBLIC_BOTS))
    p.add_argument("--path", required=True, help="checkout of the public bot's repository")
    p.add_argument("--ours", default="expert", choices=sorted(BOTS) + sorted(LEVEL_BY_CODE))
    p.add_argument("--opt", action="append", default=[], metavar="KEY=VALUE",
                   help="a parameter of our bot (value as JSON), e.g. iterations=640")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="override a rule (value as JSON); the bot's own rule setting is the default")
    p.add_argument("--every", type=int, default=0, help="print the running W/L/D every N games")
    args = p.parse_args(argv)
    cls = PUBLIC_BOTS[args.bot]
    rd: dict[str, Any] = dict(cls.rules)
    rd.update(_rule(x) for x in args.rule)
    rules = Rules.from_dict(rd)
    opts = dict(_rule(x) for x in args.opt)
    if rules.deck_size != 36 or rules.pairs or rules.cheater:
        p.error("public bots play heads-up, 36 cards, no cheating")

    counts = {"win": 0, "loss": 0, "draw": 0}
    times: dict[str, list[float]] = {}
    stats = Stats()
    for g, (res, t, st) in enumerate(
        run(rules, args.ours, cls, args.path, args.games, args.seed, args.jobs, opts), 1
    ):
        stats.add(st)
        tally(counts, times, res, t, g, args.every)

    w, lo, d = counts["win"], counts["loss"], counts["draw"]
    decided = w + lo
    low, high = wilson(w, decided)
    non_default = changed_rules(rules)
    ours = args.ours + "".join(f" {k}={v}" for k, v in sorted(opts.items()))
    print(f"{ours} vs {args.bot} (public): heads-up, rules {non_default or 'default'}, "
          f"{args.games} games from seed {args.seed}")
    print(f"  {args.ours}: W {w}  L {lo}  D {d}   win share of decided "
          f"{w / decided if decided else 0:.1%} (Wilson 95% {low:.1%}-{high:.1%})")
    print_times(times)
    n = stats.decisions or 1
    print(f"  {args.bot} answers ({stats.decisions} consulted decisions): exact {stats.exact}, "
          f"split {stats.split} ({stats.split / n:.1%}), corrected {stats.corrected} "
          f"({stats.corrected / n:.1%}), own-rules-over fallback {stats.fallback}")
    for ex in stats.examples[:4]:
        print(f"    corrected, e.g. {ex}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
