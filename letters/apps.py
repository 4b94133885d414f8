from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LettersConfig(AppConfig):
    name = "letters"
    verbose_name = _("Messages between friends")

    def ready(self) -> None:
        from social import pages, site_hooks

        from . import protocol

        # «Сообщения» on the friends page, «Написать» at each friend and on a friend's card
        pages.register_person_panel("letters/friends_panel.html", place="friends")
        pages.register_person_panel("letters/friend_link.html", place="friend")
        pages.register_person_panel("letters/person_link.html", place="person")
        site_hooks.register_site_panel("letters/live.html")  # arriving letters on every signed-in page
        protocol.register()  # its news on the sockets (letters/protocol.py)
