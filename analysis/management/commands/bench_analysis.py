"""`python manage.py bench_analysis --games N`: analyse N seeded bot games and print the figures.

The last line reads `analysis: N games, S s per game (median), D decisions/s` (S in CPU seconds of
one process: what one analysis worker spends). Options pick other variants and seat counts.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from game.engine import InvalidRules, Rules
from game.engine.analysis.bench import bench


class Command(BaseCommand):
    help = "Analyse seeded bot games (heads-up podkidnoy, 36 cards by default) and print the speed."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--games", type=int, default=3)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--variant", default="podkidnoy", choices=("podkidnoy", "perevodnoy"))
        parser.add_argument("--deck", type=int, default=36, choices=(24, 36, 52))
        parser.add_argument("--pairs", action="store_true", help="pairs 2×2 (needs --players 4)")
        parser.add_argument("--cheater", action="store_true", help="cheater mode")
        parser.add_argument("--levels", default="heuristic", help="bot levels by seat, comma-separated, cycled")

    def handle(self, *args, **opts) -> None:
        if opts["games"] < 1:
            raise CommandError("--games must be at least 1")
        try:
            rules = Rules(variant=opts["variant"], deck_size=opts["deck"], pairs=opts["pairs"],
                          cheater=opts["cheater"])
            rules.check_players(opts["players"])
        except InvalidRules as e:
            raise CommandError(str(e)) from e
        extra = "".join(f", {k}" for k in ("pairs", "cheater") if opts[k])
        self.stdout.write(f"{opts['variant']}{extra}, {opts['players']} players, {opts['deck']} cards, "
                          f"levels {opts['levels']}, every seat judged")
        figures = bench(opts["games"], rules=rules, players=opts["players"], seed=opts["seed"],
                        levels=opts["levels"], out=self.stdout.write)
        self.stdout.write(f"analysis: {figures['games']} games, {figures['median']:.1f} s per game (median), "
                          f"{figures['rate']:.1f} decisions/s")
