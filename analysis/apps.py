from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = _("Game analysis")

    def ready(self) -> None:
        from accounts import pages as account_pages
        from analysis import services
        from game import signals
        from lobby import pages
        from ratings import pages as ratings_pages

        # «Разобрать партию» among the game-over dialog's buttons and on the replay page
        pages.register_table_panel("analysis/_result_button.html", place="result_actions")
        ratings_pages.register_replay_panel("analysis/_replay_panel.html")
        # the player's own profile: his accuracy over his last analysed games, and the automatic choice
        account_pages.register_profile_panel("analysis/_profile_panel.html", place="links")
        signals.game_finished.connect(services.on_game_finished, dispatch_uid="analysis.on_game_finished")
