from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = _("Lobby")

    def ready(self) -> None:
        from accounts.signals import player_banned
        from lobby import services

        player_banned.connect(services.on_player_banned, dispatch_uid="lobby.on_player_banned")
