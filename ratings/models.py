"""Ratings, their history, game records and series. Written only by ratings/services/ (known pairs:
ratings/known_pairs.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

START_RATING = 1000
RATING_STEP = 15  # +15 for a win, -15 for a loss, 0 for a draw (docs/RULES.md#ratings)
SERIES_STEP = 10  # the losing pair pays 20, i.e. 10 to each winner (docs/RULES.md#series)
VARIANTS = ("podkidnoy", "perevodnoy")


class Outcome(models.TextChoices):
    WIN = "win", _("win")
    LOSS = "loss", _("loss")
    DRAW = "draw", _("draw")


class Standing(models.Model):
    """The counters a standing keeps in columns (never recomputed from history): the overall rating
    and each variant's share them."""

    value = models.IntegerField(default=START_RATING)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def win_percent(self) -> int | None:
        return round(100 * self.wins / self.games) if self.games else None


class Rating(Standing):
    """A player's current standing, kept in indexed columns (never recomputed from history)."""

    player = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating",
                                  primary_key=True)
    value = models.IntegerField(default=START_RATING, db_index=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        indexes = [models.Index(fields=["-value", "games"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.player} {self.value}"


class RatingVariant(Standing):
    """The same standing per game variant (podkidnoy / perevodnoy), for the leaderboard filter."""

    label: str  # not a column: the variant's name, set by the profile page

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="variant_ratings")
    variant = models.CharField(max_length=12)

    class Meta:
        verbose_name = _("variant rating")
        verbose_name_plural = _("variant ratings")
        constraints = [models.UniqueConstraint(fields=["player", "variant"], name="ratingvariant_once")]
        indexes = [models.Index(fields=["variant", "-value"], name="ratingvariant_board")]

    def __str__(self) -> str:
        return f"{self.player} {self.variant} {self.value}"


class RatingChange(models.Model):
    """One player's change for one game; (game, player) is unique so a game pays exactly once."""

    game = models.ForeignKey("game.Game", on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    delta = models.IntegerField()
    rating_after = models.IntegerField()
    outcome = models.CharField(max_length=5)  # win | loss | draw
    voided = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="ratingchange_once")]
        indexes = [models.Index(fields=["player", "created_at"], name="ratingchange_player_time")]

    def __str__(self) -> str:
        return f"{self.player} {self.delta:+d} (game {self.game_id})"


class GameRecord(models.Model):
    """What the ratings app decided about one finished game (written once, by record_game_result)."""

    # not columns: set by record_game_result for game.services
    seat_changes: dict[int, tuple[int, int]]
    win_withheld_seats: list[int]

    game = models.OneToOneField("game.Game", on_delete=models.CASCADE, related_name="record", primary_key=True)
    table = models.ForeignKey("lobby.Table", on_delete=models.CASCADE, related_name="game_records")
    variant = models.CharField(max_length=12)
    pairs = models.BooleanField(default=False)
    rated = models.BooleanField(default=False)
    unrated_reason = models.CharField(max_length=100, blank=True)  # a code, see services.UNRATED_REASONS
    draw = models.BooleanField(default=False)
    shared_address = models.BooleanField(default=False)  # two of its players connected from one address
    finished_at = models.DateTimeField(db_index=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    void_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        verbose_name = _("game record")
        verbose_name_plural = _("game records")
        ordering = ["-finished_at"]

    def __str__(self) -> str:
        return f"game {self.game_id}"


class PlayerGame(models.Model):
    """One human's line in one recorded game (rated or not): what the profile's history lists."""

    record = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="lines")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_lines")
    seat = models.PositiveSmallIntegerField()
    outcome = models.CharField(max_length=5, choices=Outcome.choices)
    delta = models.IntegerField(default=0)  # rating change (0 when unrated or voided)
    left = models.BooleanField(default=False)  # left, did not return, lost on time or banned: lost by default
    reason = models.CharField(max_length=16, blank=True)  # game.outcomes code: won, durak, left, ...
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["-finished_at"]
        constraints = [models.UniqueConstraint(fields=["record", "player"], name="playergame_once")]
        indexes = [models.Index(fields=["player", "-finished_at"], name="playergame_recent")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.outcome} (game {self.record_id})"


class Series(models.Model):
    """A run of series_length games at one table by the same players (docs/RULES.md#series; the Quartet: 30)."""

    table = models.ForeignKey("lobby.Table", on_delete=models.CASCADE, related_name="series")
    length = models.PositiveSmallIntegerField()
    pairs = models.BooleanField(default=False)
    games_played = models.PositiveSmallIntegerField(default=0)
    finished = models.BooleanField(default=False)
    broken = models.BooleanField(default=False)  # somebody left a game before it ended (docs/RULES.md#series)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    lineup = models.JSONField(default=list)  # [[seat, player id or None, bot level], ...] that plays it
    # the winners' pair chooses who of them leads the next game (docs/RULES.md#series)
    winner_seats = models.JSONField(default=list, blank=True)  # seats of the last game's winners
    next_leader_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    next_leader_chosen_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                              on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = pgettext_lazy("model name (accusative)", "series")
        verbose_name_plural = _("series")
        ordering = ["-started_at"]
        indexes = [models.Index(fields=["table", "finished"], name="series_table_open")]

    def __str__(self) -> str:
        return f"series {self.pk} (table {self.table_id}) {self.games_played}/{self.length}"


class SeriesEntry(models.Model):
    """One player's running score in one series."""

    # not columns: set by ratings.services.selectors for the series panel
    rank: int
    is_winner: bool

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="series_entries")
    bot_level = models.CharField(max_length=20, blank=True)  # a bot seat (a pair may play against bots)
    seat = models.PositiveSmallIntegerField()
    games = models.PositiveSmallIntegerField(default=0)
    wins = models.PositiveSmallIntegerField(default=0)
    losses = models.PositiveSmallIntegerField(default=0)
    draws = models.PositiveSmallIntegerField(default=0)
    score = models.IntegerField(default=0)
    left = models.BooleanField(default=False)

    class Meta:
        ordering = ["series", "seat"]
        constraints = [models.UniqueConstraint(fields=["series", "seat"], name="seriesentry_once")]

    def __str__(self) -> str:
        return f"series {self.series_id} seat {self.seat}: {self.score:+d}"


class SeriesGame(models.Model):
    """Which recorded game counted as which number of a series."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField("game.Game", on_delete=models.CASCADE, related_name="series_game")
    number = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["series", "number"]
        constraints = [models.UniqueConstraint(fields=["series", "number"], name="seriesgame_number")]

    def __str__(self) -> str:
        return f"series {self.series_id} #{self.number}"


class ClubStanding(models.Model):
    """A player's club standing over series games (docs/RULES.md#quartet-club): averages and club membership kept in
    indexed columns (see services.club.update_club for the membership rule)."""

    candidate: bool  # not a column: set by ratings.services.selectors.club_tables

    player = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club",
                                  primary_key=True)
    full_series = models.PositiveIntegerField(default=0)  # completed series
    full_games = models.PositiveIntegerField(default=0)
    full_score = models.IntegerField(default=0)
    full_average = models.FloatField(default=0.0)  # full_score / full_games
    games = models.PositiveIntegerField(default=0)  # every series game played
    score = models.IntegerField(default=0)
    average = models.FloatField(default=0.0)  # score / games (the preliminary table's order)
    excluded = models.BooleanField(default=False)  # left a series game before it ended (docs/RULES.md#quartet-club)
    excluded_at = models.DateTimeField(null=True, blank=True)
    last_played = models.DateTimeField(null=True, blank=True)
    # Club membership (docs/RULES.md#quartet-club), kept by services.club.update_club in the transaction of each series game.
    in_club = models.BooleanField(default=False)
    club_since = models.DateTimeField(null=True, blank=True)  # when the current membership began
    club_place = models.PositiveSmallIntegerField(null=True, blank=True)  # 1..CLUB_SIZE while in the club
    club_newcomer = models.BooleanField(default=False)  # holds a last place as a newcomer, not by a full series

    class Meta:
        verbose_name = _("club standing")
        verbose_name_plural = _("club standings")
        indexes = [
            models.Index(fields=["excluded", "full_series", "-full_average"], name="club_full"),
            models.Index(fields=["excluded", "full_series", "-average"], name="club_prelim"),
            models.Index(fields=["in_club", "club_place"], name="club_members"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.full_average:.2f}"


class KnownPair(models.Model):
    """Two accounts a moderator knows to be different people sharing one network (friends, family):
    their games together are rated although they use one address (ratings.known_pairs)."""

    low = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    high = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    marked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    note = models.CharField(_("note"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("marked at"), default=timezone.now)

    class Meta:
        verbose_name = pgettext_lazy("model name (accusative)", "known pair")
        verbose_name_plural = _("known pairs")
        constraints = [models.UniqueConstraint(fields=["low", "high"], name="knownpair_once"),
                       models.CheckConstraint(condition=models.Q(low__lt=models.F("high")), name="knownpair_ordered")]

    def __str__(self) -> str:
        return f"{self.low} + {self.high}"
