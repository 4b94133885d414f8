from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


def analyses_by_state():
    """/metrics, read at scrape time: post-game analyses by state (durak_site.metrics)."""
    from django.db.models import Count

    from analysis.models import Analysis
    from durak_site import metrics

    family = metrics.gauge_family("durak_analyses", "Post-game analyses in the database, by state.", ["state"])
    counts = dict(Analysis.objects.order_by().values_list("status").annotate(n=Count("pk")))
    for state in Analysis.Status.values:
        family.add_metric([state], counts.get(state, 0))
    yield family


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = _("Game analysis")

    def ready(self) -> None:
        from accounts import pages as account_pages
        from accounts.signals import player_banned
        from analysis import services
        from durak_site import metrics
        from game import signals
        from lobby import pages
        from ratings import pages as ratings_pages

        # «Разобрать партию» among the game-over dialog's buttons and on the replay page
        pages.register_table_panel("analysis/_result_button.html", place="result_actions")
        ratings_pages.register_replay_panel("analysis/_replay_panel.html")
        # the player's own profile: his accuracy over his last analysed games, and the automatic choice
        account_pages.register_profile_panel("analysis/_profile_panel.html", place="links")
        signals.game_finished.connect(services.on_game_finished, dispatch_uid="analysis.on_game_finished")
        player_banned.connect(services.on_player_banned, dispatch_uid="analysis.on_player_banned")  # auto off
        metrics.register_reader(analyses_by_state)
