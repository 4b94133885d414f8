from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = _("Table chat")

    def ready(self) -> None:
        from lobby import pages

        from . import socket

        socket.register()
        pages.register_table_panel("chat/panel.html")  # the waiting room's and the game table's chat
