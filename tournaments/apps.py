from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from accounts import pages as profile_pages
        from game import signals
        from lobby import guards, pages
        from social import site_hooks

        from . import deadlines, hooks, protocol, services

        signals.game_finished.connect(services.on_game_finished, dispatch_uid="tournaments.on_game_finished")
        signals.choose_first_attacker.connect(services.on_deal, dispatch_uid="tournaments.on_deal")  # berserk
        deadlines.register_deadlines()  # the event's clock, no-shows, pairing waves, the schedule
        protocol.register()  # its news on the sockets (tournaments/protocol.py)
        guards.register_seat_guard(hooks.seat_guard)  # a tournament table seats its two players only
        site_hooks.register_page_hook(hooks.page_groups)  # live standings, arriving at a tournament table
        pages.register_table_panel("tournaments/next_events.html", place="lobby")  # the next events
        pages.register_table_panel("tournaments/next_events.html", place="home")
        pages.register_table_panel("tournaments/table_panel.html", place="page")  # berserk, back to the event
        pages.register_table_panel("tournaments/rules_section.html", place="rules")
        profile_pages.register_profile_panel("tournaments/profile_podiums.html", place="links")
