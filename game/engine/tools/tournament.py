"""Seeded bot matches: ``python -m game.engine.tools.tournament --a expert --b heuristic --games 400``.

Plays level ``a`` against level ``b`` under any rules and player count and prints wins, losses and
draws of ``a``, its win share of the decided games with a Wilson 95 % interval (and the share an
equally strong bot would get), and CPU ms per decision of each level (median, p99).

Seats: heads-up each deal is played twice with the seats swapped; in pairs ``a`` plays one team
(seats 1&3, then 2&4 on the same deal); otherwise ``a`` holds ``--a-seats`` seats (default one)
that rotate round the table, each deal played once per rotation. A loss for ``a`` is one of its
seats (its pair) being the durak. ``--a-opt`` / ``--b-opt`` set a side's bot parameters (e.g. the
expert's ``iterations``), so one level can meet itself at another budget. A benchmark, not a test:
the ms depend on the machine's load, the W/L/D do not.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterator
from multiprocessing import Pool
from typing import Any

from game.engine.bots import BOTS, LEVEL_BY_CODE, bot_for
from game.engine.bots.base import Bot
from game.engine.rules import Rules
from game.engine.tools.arena import play_bot_game

Outcome = tuple[str, dict[str, list[float]]]
Job = tuple[int, dict[str, Any], int, str, str, int, int, dict[str, Any], dict[str, Any]]
_BUILT: dict[str, tuple[str, Bot]] = {}  # per worker process: side -> (its spec, its bot)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion ``wins / n`` (0, 0 for n = 0)."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (mid - half, mid + half)


def a_seats(g: int, players: int, pairs: bool, k: int) -> tuple[tuple[int, ...], int]:
    """Seats (1-based) ``a`` holds in game ``g`` and the deal number it is played on."""
    if pairs:
        return ((1, 3) if g % 2 == 0 else (2, 4)), g // 2
    start = g % players
    return tuple(1 + (start + j) % players for j in range(k)), g // players


def side_bot(side: str, level: str, opts: dict[str, Any]) -> Bot | None:
    """The bot of one side when it has parameters (built once per process), else None: the level's
    shared instance plays."""
    if not opts:
        return None
    spec = json.dumps([level, opts], sort_keys=True)
    built = _BUILT.get(side)
    if built is None or built[0] != spec:
        name = LEVEL_BY_CODE[level].bot if level in LEVEL_BY_CODE else level
        built = _BUILT[side] = (spec, BOTS[name](**opts))
    return built[1]


def side_names(a: str, b: str, a_opts: dict[str, Any], b_opts: dict[str, Any]) -> tuple[str, str]:
    """How the two sides are named in the output: the level, with its parameters if it has any,
    and marked (a) / (b) when both would read the same."""
    def name(level: str, opts: dict[str, Any]) -> str:
        return level + "".join(f" {k}={v}" for k, v in sorted(opts.items()))

    na, nb = name(a, a_opts), name(b, b_opts)
    return (f"{na} (a)", f"{nb} (b)") if na == nb else (na, nb)


def play_one(job: Job) -> Outcome:
    """One game of the match: "win" / "loss" / "draw" for ``a`` and the decision times."""
    g, rules_d, players, a, b, k, seed, a_opts, b_opts = job
    rules = Rules.from_dict(rules_d)
    mine, deal = a_seats(g, players, rules.pairs, k)
    na, nb = side_names(a, b, a_opts, b_opts)
    bots = {na: side_bot("a", a, a_opts) or bot_for(a), nb: side_bot("b", b, b_opts) or bot_for(b)}
    levels = {s: (na if s in mine else nb) for s in range(1, players + 1)}
    out = play_bot_game(rules, players, seed + deal, levels, bots=bots)
    return outcome(out.result, mine), out.times


def outcome(result: dict[str, Any], mine: tuple[int, ...]) -> str:
    """"win" / "loss" / "draw" for the side holding the seats ``mine``."""
    if result["draw"]:
        return "draw"
    return "loss" if any(s in result["losers"] for s in mine) else "win"


def run(rules: Rules, players: int, a: str, b: str, games: int, k: int, seed: int,
        jobs: int, a_opts: dict[str, Any] | None = None,
        b_opts: dict[str, Any] | None = None) -> Iterator[Outcome]:
    """The outcomes of the match's games, in order (``jobs`` worker processes)."""
    work: list[Job] = [(g, rules.to_dict(), players, a, b, k, seed, a_opts or {}, b_opts or {})
                       for g in range(games)]
    if jobs <= 1:
        yield from map(play_one, work)
        return
    with Pool(jobs) as pool:
        yield from pool.imap(play_one, work, chunksize=4)


def percentile(xs: list[float], q: float) -> float:
    """The q-quantile of ``xs`` (nearest rank), 0 if empty."""
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def _rule(text: str) -> tuple[str, Any]:
    key, _, raw = text.partition("=")
    try:
        return key, json.loads(raw)
    except json.JSONDecodeError:
        return key, raw


def tally(counts: dict[str, int], times: dict[str, list[float]], res: str,
          t: dict[str, list[float]], g: int, every: int) -> None:
    """Adds game ``g``'s result and decision times; every ``every`` games prints the running W/L/D."""
    counts[res] += 1
    for level, xs in t.items():
        times.setdefault(level, []).extend(xs)
    if every and g % every == 0:
        print(f"  ... {g} games: W {counts['win']}  L {counts['loss']}  D {counts['draw']}",
              flush=True)


def changed_rules(rules: Rules) -> dict[str, Any]:
    """The rules that differ from the defaults (what a match's heading names)."""
    return {key: v for key, v in rules.to_dict().items() if v != getattr(Rules(), key)}


def print_times(times: dict[str, list[float]]) -> None:
    """ms per decision of each side: median, p99, max."""
    for level in sorted(times):
        xs = times[level]
        print(f"  ms per decision, {level}: median {percentile(xs, 0.5) * 1e3:.2f}  "
              f"p99 {percentile(xs, 0.99) * 1e3:.2f}  max {max(xs, default=0) * 1e3:.1f} "
              f"({len(xs)} decisions)")


def main(argv: list[str] | None = None) -> int:
    levels = sorted(BOTS) + sorted(LEVEL_BY_CODE)
    p = argparse.ArgumentParser(prog="python -m game.engine.tools.tournament",
                                description=__doc__.split("\n")[0])
    p.add_argument("--a", required=True, choices=levels)
    p.add_argument("--b", required=True, choices=levels)
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--variant", default="podkidnoy")
    p.add_argument("--deck", type=int, default=36)
    p.add_argument("--pairs", action="store_true")
    p.add_argument("--cheater", action="store_true")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="any other rule, value as JSON (e.g. round_limit=null, refill=false)")
    p.add_argument("--a-opt", action="append", default=[], metavar="KEY=VALUE",
                   help="a parameter of a's bot, value as JSON (e.g. iterations=2000)")
    p.add_argument("--b-opt", action="append", default=[], metavar="KEY=VALUE",
                   help="a parameter of b's bot")
    p.add_argument("--a-seats", type=int, default=1, help="seats of a when not in pairs")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--every", type=int, default=0, help="print the running W/L/D every N games")
    args = p.parse_args(argv)
    rd: dict[str, Any] = {"variant": args.variant, "deck_size": args.deck, "pairs": args.pairs,
                          "cheater": args.cheater}
    rd.update(_rule(x) for x in args.rule)
    rules = Rules.from_dict(rd)
    rules.check_players(args.players)
    k = 2 if rules.pairs else min(args.a_seats, args.players - 1)

    counts = {"win": 0, "loss": 0, "draw": 0}
    times: dict[str, list[float]] = {}
    a_opts = dict(_rule(x) for x in args.a_opt)
    b_opts = dict(_rule(x) for x in args.b_opt)
    for g, (res, t) in enumerate(
        run(rules, args.players, args.a, args.b, args.games, k, args.seed, args.jobs, a_opts,
            b_opts), 1
    ):
        tally(counts, times, res, t, g, args.every)

    w, lo, d = counts["win"], counts["loss"], counts["draw"]
    decided = w + lo
    share = w / decided if decided else 0.0
    low, high = wilson(w, decided)
    equal = 0.5 if rules.pairs else 1 - k / args.players
    non_default = changed_rules(rules)
    side = "one team" if rules.pairs else f"{k} seat{'s' if k > 1 else ''}"
    na, nb = side_names(args.a, args.b, a_opts, b_opts)
    print(f"{na} ({side}) vs {nb}: {args.players} players, rules {non_default or 'default'}, "
          f"{args.games} games from seed {args.seed}")
    print(f"  {na}: W {w}  L {lo}  D {d}   win share of decided {share:.1%} "
          f"(Wilson 95% {low:.1%}-{high:.1%}; an equal bot: {equal:.0%})")
    print_times(times)
    return 0


if __name__ == "__main__":
    sys.exit(main())
