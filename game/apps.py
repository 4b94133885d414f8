from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GameConfig(AppConfig):
    name = "game"
    verbose_name = _("Games")

    def ready(self) -> None:
        # The embedded default: with no Redis, server processes (runserver's serving child, daphne)
        # sweep the deadline columns in a daemon thread; never in migrate, shell or the test runner.
        from game import timers

        timers.maybe_start_ticker()
