from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from accounts import pages as account_pages
        from game import signals
        from lobby import pages
        from ratings import services

        # the player's own profile shows his rating and links his public page and games
        account_pages.register_profile_panel("ratings/_profile_rating.html", place="facts")
        account_pages.register_profile_panel("ratings/_profile_link.html", place="links")

        # the game-over dialog of the game table shows the series and links the replay
        pages.register_table_panel("ratings/_game_result_series.html", place="result")
        pages.register_table_panel("ratings/_game_result_replay.html", place="result_actions")

        # the waiting room says why a game of people on one address is unrated and what friends can do
        from ratings import known_pairs

        pages.register_rating_notice(known_pairs.room_notice)

        signals.game_finished.connect(services.on_game_finished, dispatch_uid="ratings.on_game_finished")
        signals.choose_first_attacker.connect(services.on_choose_first_attacker,
                                              dispatch_uid="ratings.on_choose_first_attacker")
