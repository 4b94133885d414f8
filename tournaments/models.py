"""Tournaments: events (arena or Swiss), their entries, their games and the schedule that makes them.

Written only by this app's service modules (events.py, entries.py, waves.py, results.py, schedule.py).
Scores are kept in half-points (a win is 2) so a Swiss ½ stays an integer.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from durak_site.errors import ServiceError
from game.engine import InvalidRules, Rules
from lobby import table_settings


class Format(models.TextChoices):
    ARENA = "arena", _("Arena")
    SWISS = "swiss", _("Swiss")


class Variant(models.TextChoices):
    PODKIDNOY = "podkidnoy", _("Podkidnoy")
    PEREVODNOY = "perevodnoy", _("Perevodnoy")


DECKS = ((24, "24"), (36, "36"), (52, "52"))
TURN_SECONDS = tuple((s, str(s)) for s in table_settings.TURN_SECONDS.values)  # the tables' timers
ARENA_MINUTES = (20, 30, 45, 60, 90)
SWISS_ROUNDS = (3, 4, 5, 6, 7, 9)
SEATS = ((2, "2"), (3, "3"), (4, "4"))  # players at each table: heads-up, or a table arena's pods
ROUND_MINUTES = ((0, _("when the round before ends")), (10, "10"), (15, "15"), (20, "20"), (30, "30"))


def check_tables(fmt: str, seats: int, pairs: bool, variant: str, deck_size: int) -> None:
    """A Swiss is heads-up; pairs need four seats; the deck must deal six cards to every seat."""
    if fmt != Format.ARENA and seats != 2:
        raise ServiceError("tournament_swiss_heads_up")
    if pairs and seats != 4:
        raise ServiceError("pairs_need_four_seats")
    try:
        Rules.from_dict({"variant": variant, "deck_size": deck_size}).check_players(seats)
    except InvalidRules as exc:
        raise ServiceError("deck_too_small") from exc


class Tournament(models.Model):
    """One event: its rules, when it runs, and where it stands."""

    # not columns: set on the events tournaments.selectors lists
    joined: bool
    players: int

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("starts soon")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    name = models.CharField(max_length=60)
    format = models.CharField(max_length=8, choices=Format.choices, default=Format.ARENA)
    variant = models.CharField(max_length=12, choices=Variant.choices, default=Variant.PODKIDNOY)
    deck_size = models.PositiveSmallIntegerField(choices=DECKS, default=36)
    turn_seconds = models.PositiveSmallIntegerField(choices=TURN_SECONDS, default=table_settings.TURN_SECONDS.default)
    cheater = models.BooleanField(default=False)
    seats = models.PositiveSmallIntegerField(choices=SEATS, default=2)  # 3 or 4: a table arena
    pairs = models.BooleanField(default=False)  # 4 seats as two pairs (seats 1 & 3 against 2 & 4)
    starts_at = models.DateTimeField(db_index=True)
    minutes = models.PositiveSmallIntegerField(default=30)  # an arena's length
    rounds = models.PositiveSmallIntegerField(default=5)  # a Swiss' rounds
    # a Swiss round's stated length: round k starts at starts_at + (k-1)·this; 0: each when the one before ends
    round_minutes = models.PositiveSmallIntegerField(choices=ROUND_MINUTES, default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED, db_index=True)
    # deadline columns, registered in tournaments/deadlines.py (start, end, next Swiss round, warning)
    start_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    end_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    round_deadline = models.DateTimeField(null=True, blank=True, db_index=True)  # the next Swiss round (or the end)
    warn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)  # a minute before the start
    next_wave_at = models.DateTimeField(null=True, blank=True, db_index=True)  # an arena's next pairing wave
    ends_at = models.DateTimeField(null=True, blank=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    private = models.BooleanField(default=False)
    invite_code = models.CharField(max_length=32, blank=True, db_index=True)
    password = models.CharField(max_length=128, blank=True)  # a hash (django.contrib.auth.hashers), "" none
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="tournaments_created")
    schedule = models.ForeignKey("ScheduleRow", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="events")
    podium = models.JSONField(default=list, blank=True)  # [{"place", "player_id", "nick", "score"}] at the end
    version = models.PositiveIntegerField(default=0)  # bumped on every change the standings show
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["starts_at", "pk"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.UniqueConstraint(fields=["schedule", "starts_at"], condition=Q(schedule__isnull=False),
                                    name="tournament_one_per_schedule_slot"),
            models.CheckConstraint(condition=Q(pairs=False) | Q(seats=4), name="tournament_pairs_at_four"),
            models.CheckConstraint(condition=Q(format="arena") | Q(seats=2), name="tournament_swiss_heads_up"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_arena(self) -> bool:
        return self.format == Format.ARENA

    @property
    def is_swiss(self) -> bool:
        return self.format == Format.SWISS

    @property
    def is_table_arena(self) -> bool:
        """Pods of 3 or 4 players (or two pairs) rather than heads-up games."""
        return self.seats > 2


class Entry(models.Model):
    """A player in an event: his score, streak, marks and where he is between games."""

    class State(models.TextChoices):
        WAITING = "waiting", _("waiting for a pairing")
        PLAYING = "playing", _("playing")
        PAUSED = "paused", _("paused")
        WITHDRAWN = "withdrawn", _("withdrawn")
        REMOVED = "removed", _("removed by a moderator")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries")
    rating = models.IntegerField(default=1000)  # his rating when he joined (the first pairing's order)
    score = models.IntegerField(default=0)  # half-points
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0)  # wins in a row (two or more: «в ударе»)
    berserks = models.PositiveSmallIntegerField(default=0)  # berserk wins that earned the bonus
    opponents_rating = models.BigIntegerField(default=0)  # sum of his opponents' ratings (performance)
    marks = models.CharField(max_length=200, blank=True)  # his results in order: W, D, L, B (bye), each + "*" berserk
    state = models.CharField(max_length=10, choices=State.choices, default=State.WAITING, db_index=True)
    eligible_at = models.DateTimeField(default=timezone.now)  # not paired before this (the pause's wait)
    pauses = models.PositiveSmallIntegerField(default=0)
    pause_after_game = models.BooleanField(default=False)  # asked for a pause while playing
    abandons = models.PositiveSmallIntegerField(default=0)  # games left or missed; two withdraw him
    last_opponent = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="+")
    last_table = models.JSONField(default=list, blank=True)  # the others at his last table (table arenas)
    byes = models.PositiveSmallIntegerField(default=0)
    place = models.PositiveIntegerField(null=True, blank=True)  # the final place, set at the end
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["tournament", "-score", "pk"]
        verbose_name = _("tournament entry")
        verbose_name_plural = _("tournament entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_one_per_player"),
        ]
        indexes = [models.Index(fields=["tournament", "state", "eligible_at"], name="entry_pool")]

    def __str__(self) -> str:
        return f"{self.tournament_id}:{self.player_id}"


class TournamentGame(models.Model):
    """One pairing: the table made for it, then its game and what it scored (a bye has no table). At
    a table arena's table (size 3 or 4) every player has a TournamentSeat; player_a and player_b are
    then seats 1 and 2, and the results are the seats'."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for the players")
        FINISHED = "finished", _("finished")
        VOID = "void", _("void")
        BYE = "bye", _("bye")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveSmallIntegerField(default=0)  # a Swiss round; 0 in an arena
    size = models.PositiveSmallIntegerField(default=2)  # players at its table
    table = models.ForeignKey("lobby.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    game = models.ForeignKey("game.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    player_a = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                                 related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    arrive_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    remind_at = models.DateTimeField(null=True, blank=True, db_index=True)  # who has not come is told again
    berserk_a = models.BooleanField(default=False)
    berserk_b = models.BooleanField(default=False)
    result_a = models.CharField(max_length=1, blank=True)  # W / D / L
    result_b = models.CharField(max_length=1, blank=True)
    points_a = models.IntegerField(default=0)
    points_b = models.IntegerField(default=0)
    moves = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "-created_at", "-pk"]
        verbose_name = pgettext_lazy("model name (accusative)", "tournament game")
        verbose_name_plural = _("tournament games")
        indexes = [models.Index(fields=["table", "status"], name="tgame_table_status")]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.player_a_id}–{self.player_b_id}"

    def side(self, player_id: int) -> str:
        return "a" if player_id == self.player_a_id else "b"

    @staticmethod
    def seating(player_id: int) -> Q:
        """Pairings that seat him: heads-up as player a or b, at a table arena's table by his seat."""
        return (Q(player_a_id=player_id) | Q(player_b_id=player_id)
                | Q(pk__in=TournamentSeat.objects.filter(player_id=player_id).values("pairing_id")))

    def player_ids(self) -> list[int]:
        """The pairing's players in seat order (one, for a bye)."""
        if self.size > 2:
            return [s.player_id for s in sorted(self.seats.all(), key=lambda s: s.number)]
        return [p for p in (self.player_a_id, self.player_b_id) if p is not None]


class TournamentSeat(models.Model):
    """One player at a table arena's table: his seat, his pair, and what the game gave him."""

    pairing = models.ForeignKey(TournamentGame, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    number = models.PositiveSmallIntegerField()  # the table's seat, 1 to 4
    team = models.PositiveSmallIntegerField(default=0)  # pairs: 1 (seats 1 and 3) or 2 (seats 2 and 4)
    place = models.PositiveSmallIntegerField(null=True, blank=True)  # 1: out first; the last: the durak
    result = models.CharField(max_length=1, blank=True)  # his mark: W, L, D (pairs), or his place
    points = models.IntegerField(default=0)
    berserk = models.BooleanField(default=False)

    class Meta:
        ordering = ["pairing", "number"]
        verbose_name = _("tournament seat")
        verbose_name_plural = _("tournament seats")
        constraints = [
            models.UniqueConstraint(fields=["pairing", "number"], name="tseat_one_per_number"),
            models.UniqueConstraint(fields=["pairing", "player"], name="tseat_one_per_player"),
        ]
        indexes = [models.Index(fields=["player", "pairing"], name="tseat_player")]

    def __str__(self) -> str:
        return f"{self.pairing_id}#{self.number}: {self.player_id}"


class ScheduleRow(models.Model):
    """A standing event that moderators edit in the admin: each one is created ahead of its start
    when the row's ``next_create_at`` falls due."""

    name = models.CharField(max_length=60)
    format = models.CharField(max_length=8, choices=Format.choices, default=Format.ARENA)
    variant = models.CharField(max_length=12, choices=Variant.choices, default=Variant.PODKIDNOY)
    deck_size = models.PositiveSmallIntegerField(choices=DECKS, default=36)
    turn_seconds = models.PositiveSmallIntegerField(choices=TURN_SECONDS, default=table_settings.TURN_SECONDS.default)
    minutes = models.PositiveSmallIntegerField(default=30)
    rounds = models.PositiveSmallIntegerField(default=5)
    round_minutes = models.PositiveSmallIntegerField(choices=ROUND_MINUTES, default=0)
    seats = models.PositiveSmallIntegerField(choices=SEATS, default=2)
    pairs = models.BooleanField(default=False)
    every_minutes = models.PositiveIntegerField(
        default=0, help_text=_("Repeat every so many minutes from midnight UTC (60: hourly); 0: use the times below."))
    times = models.CharField(max_length=200, blank=True,
                             help_text=_("Start times in UTC, comma separated, e.g. 18:00, 21:30."))
    weekdays = models.CharField(max_length=7, default="0123456",
                                help_text=_("Days it runs: digits 0 (Monday) to 6 (Sunday)."))
    ahead_minutes = models.PositiveIntegerField(default=60, help_text=_("Created this long before its start."))
    active = models.BooleanField(default=True)
    # a deadline column: when its next event is due to be created (moved on by each creation; an
    # edit in the admin makes it due at once)
    next_create_at = models.DateTimeField(null=True, blank=True, db_index=True, default=timezone.now, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("scheduled event")
        verbose_name_plural = _("schedule")

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """The admin's form: a Swiss is heads-up, pairs need four seats, the deck must suffice."""
        try:
            check_tables(self.format, self.seats, self.pairs, self.variant, self.deck_size)
        except ServiceError as exc:
            raise ValidationError(exc.message) from exc
