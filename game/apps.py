from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GameConfig(AppConfig):
    name = "game"
    verbose_name = _("Games")

    def ready(self) -> None:
        from accounts.signals import player_banned
        from game import services, timers, views
        from lobby import pages
        from lobby.signals import table_closed

        pages.register_game_page(views.game_table_page)
        table_closed.connect(services.on_table_closed, dispatch_uid="game.on_table_closed")
        player_banned.connect(services.on_player_banned, dispatch_uid="game.on_player_banned")
        # The embedded default: with no Redis, server processes (runserver's serving child, daphne)
        # sweep the deadline columns in a daemon thread; never in migrate, shell or the test runner.
        timers.maybe_start_ticker()
