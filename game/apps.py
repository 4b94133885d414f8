from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


def games_by_state():
    """/metrics, read at scrape time: the club's games by state (durak_site.metrics)."""
    from django.db.models import Count

    from durak_site import metrics
    from game.models import Game

    family = metrics.gauge_family("durak_games", "Games in the database, by state.", ["state"])
    counts = dict(Game.objects.order_by().values_list("status").annotate(n=Count("pk")))
    for state in Game.Status.values:
        family.add_metric([state], counts.get(state, 0))
    yield family


class GameConfig(AppConfig):
    name = "game"
    verbose_name = _("Games")

    def ready(self) -> None:
        from accounts.signals import player_banned
        from durak_site import logs, metrics
        from game import bots, services, socket_hooks, timers, views
        from game.protocol import table as table_messages
        from lobby import pages
        from lobby.signals import table_closed

        pages.register_game_page(views.game_table_page)
        bots.run_locally_with(services.move_bot)  # the local mode's bot move (no worker)
        table_closed.connect(services.on_table_closed, dispatch_uid="game.on_table_closed")
        player_banned.connect(services.on_player_banned, dispatch_uid="game.on_player_banned")
        metrics.register_reader(games_by_state)
        socket_hooks.on_connect(logs.bind_socket)  # a socket's player and game in structured logs
        table_messages.register()  # the table socket's own messages (the apps above add theirs)
        timers.register_deadlines()  # turn, check, disconnect, countdown, rematch, inactive; derived ones
