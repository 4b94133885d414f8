from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = _("Game analysis")

    def ready(self) -> None:
        from lobby import pages
        from ratings import pages as ratings_pages

        # «Разобрать партию» among the game-over dialog's buttons and on the replay page
        pages.register_table_panel("analysis/_result_button.html", place="result_actions")
        ratings_pages.register_replay_panel("analysis/_replay_panel.html")
