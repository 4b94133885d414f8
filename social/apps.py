from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = _("Players and matchmaking")

    def ready(self) -> None:
        from accounts import pages as profile_pages
        from accounts.signals import player_banned
        from lobby import guards, pages
        from lobby.signals import matched_seat_left

        from . import deadlines, party, people, protocol, queue, table_socket, views

        pages.register_quick_play(views.quick_play)  # «Быстрая игра» searches for opponents
        pages.register_table_panel("social/quick_modes.html", place="lobby")  # quick play in each mode
        pages.register_table_panel("social/online_panel.html", place="lobby")  # who is online
        pages.register_table_panel("social/rules_section.html", place="rules")  # matching, reliability
        pages.register_table_panel("social/table_people.html", place="page")  # invite, reliability marks
        pages.register_table_panel("social/seat_marks.html", place="page")  # the game table's seats' marks
        profile_pages.register_profile_panel("social/profile_mark.html", place="facts")  # his reliability mark
        profile_pages.register_profile_panel("social/profile_link.html", place="links")
        guards.register_seat_guard(people.seat_refusal)
        guards.register_hidden_players(people.blockers_of)  # a blocker, from the player he blocked  # blocks, «only reliable players»
        player_banned.connect(people.on_player_banned, dispatch_uid="social.on_player_banned")  # invitations
        player_banned.connect(queue.on_player_banned, dispatch_uid="social.queue.on_player_banned")  # his search
        player_banned.connect(party.on_player_banned, dispatch_uid="social.party.on_player_banned")  # his party
        people.on_block(party.on_block)  # a block ends a party of the two
        matched_seat_left.connect(queue.on_matched_seat_left, dispatch_uid="social.on_matched_seat_left")
        deadlines.register_deadlines()  # arrival, invitation, search_gone, search_match
        table_socket.register()  # the site's news on the table socket: a table page holds one socket
        protocol.register()  # the site socket's messages and the news (social/protocol.py)
