from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GameConfig(AppConfig):
    name = "game"
    verbose_name = _("Games")

    def ready(self) -> None:
        from game import services, timers, views
        from lobby import pages
        from lobby.signals import table_closed

        pages.register_game_page(views.game_table_page)
        table_closed.connect(services.on_table_closed, dispatch_uid="game.on_table_closed")
        # The embedded default: with no Redis, server processes (runserver's serving child, daphne)
        # sweep the deadline columns in a daemon thread; never in migrate, shell or the test runner.
        timers.maybe_start_ticker()
