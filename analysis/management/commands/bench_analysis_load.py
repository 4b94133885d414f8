"""Analyses queued as a load for the analysis worker while live play is measured.

    python manage.py bench_analysis_load --queue 10   # the 10 latest finished games without one
    python manage.py bench_analysis_load --status     # how many are queued, running, done

Each is asked for by a player of its game (analysis.services.request_analysis, as the result dialog
does), so it goes to the `analysis` queue exactly as a player's would. `scripts/bench-live --analysis N`
runs both around every point, beside a worker started from the Procfile's `analysis` line.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db.models import Count, Sum

from analysis import services
from analysis.models import Analysis
from game.models import Game, GameSeat


class Command(BaseCommand):
    help = "Queue analyses of finished games (a load for the analysis worker), or print their progress."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--queue", type=int, default=0)
        parser.add_argument("--status", action="store_true")

    def handle(self, *args, **opts) -> None:
        if opts["queue"]:
            games = (Game.objects.filter(status=Game.Status.FINISHED, analysis__isnull=True)
                     .order_by("-pk").values_list("pk", flat=True)[:opts["queue"]])
            queued = 0
            for game_id in games:
                seat = GameSeat.objects.filter(game_id=game_id, player__isnull=False).select_related("player").first()
                if seat is not None:
                    services.request_analysis(game_id, seat.player)
                    queued += 1
            self.stdout.write(f"analyses queued: {queued}")
        if opts["status"]:
            rows = {r["status"]: r for r in Analysis.objects.values("status").annotate(n=Count("pk"), judged=Sum("done"))}
            line = ", ".join(f"{status} {row['n']} ({row['judged'] or 0} decisions)" for status, row in sorted(rows.items()))
            self.stdout.write(f"analyses: {line or 'none'}")
