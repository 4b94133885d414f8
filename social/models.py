"""The social layer's rows: the search queue, presence, friends, blocks, invitations, preferences,
parties.

Written only by this app's service modules (queue.py, presence.py, people.py, party.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

ANY = 0  # a numeric choice the player left open ("any"); the variant's "any" is ""


class SearchRequest(models.Model):
    """One player's «Найти соперников»: his choices and where the search stands.

    At most one live request (waiting or matched) per player: a partial unique constraint, so two
    tabs pressing «Играть» at once cannot queue him twice.
    """

    class Status(models.TextChoices):
        WAITING = "waiting", _("searching")
        MATCHED = "matched", _("matched")  # a table was made; he has 10 s to arrive
        SEATED = "seated", _("seated")  # he arrived: the search is done
        CANCELLED = "cancelled", _("cancelled")
        DROPPED = "dropped", _("did not arrive")

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="searches")
    mode = models.CharField(max_length=12, default="classic")  # a lobby preset: classic, cheater, pairs (never "any")
    variant = models.CharField(max_length=12, blank=True)  # "" any, podkidnoy, perevodnoy
    players = models.PositiveSmallIntegerField(default=ANY)  # 2..6 or ANY
    deck = models.PositiveSmallIntegerField(default=ANY)  # 24, 36, 52 or ANY
    turn_seconds = models.PositiveSmallIntegerField(default=ANY)  # 30, 60, 90 or ANY
    rated = models.BooleanField(default=True)
    bot_fill = models.PositiveSmallIntegerField(default=30)  # seconds before bots fill; 0 = never
    rating = models.IntegerField(default=1000)  # his rating when he joined (the window's centre)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True)
    queued_at = models.DateTimeField(default=timezone.now, db_index=True)  # the queue's order (kept on requeue)
    created_at = models.DateTimeField(default=timezone.now)
    table = models.ForeignKey("lobby.Table", null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="searches")
    # the party he searches with: its two rows share their choices and place and are matched together
    party = models.ForeignKey("social.Party", null=True, blank=True, on_delete=models.SET_NULL, related_name="searches")
    arrive_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["queued_at", "pk"]
        verbose_name = pgettext_lazy("model name (accusative)", "search request")
        verbose_name_plural = _("search requests")
        constraints = [
            models.UniqueConstraint(fields=["player"], condition=Q(status__in=["waiting", "matched"]),
                                    name="search_one_live_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}:{self.status}"

    def choices(self) -> dict:
        return {"mode": self.mode, "variant": self.variant, "players": self.players, "deck": self.deck,
                "turn_seconds": self.turn_seconds, "rated": self.rated, "bot_fill": self.bot_fill}


class Presence(models.Model):
    """How many site sockets (tabs) a player has open: online while it is above zero and fresh."""

    player = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                  related_name="presence")
    sockets = models.IntegerField(default=0)
    seen_at = models.DateTimeField(default=timezone.now, db_index=True)  # last connect, close or ping
    changed_at = models.DateTimeField(default=timezone.now)  # last time `sockets` changed

    def __str__(self) -> str:
        return f"{self.player_id}: {self.sockets}"


class Friendship(models.Model):
    """A friend request (from → to) and, once accepted, the friendship of both."""

    from_player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    to_player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    accepted = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["from_player", "to_player"], name="friendship_unique_pair"),
            models.CheckConstraint(condition=~Q(from_player=models.F("to_player")), name="friendship_not_self"),
        ]
        verbose_name = pgettext_lazy("model name (accusative)", "friendship")
        verbose_name_plural = _("friendships")

    def __str__(self) -> str:
        return f"{self.from_player_id} → {self.to_player_id}"


class Block(models.Model):
    """`blocker` keeps `blocked` away. Private: only the blocker and moderators (admin) see it."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique_pair"),
            models.CheckConstraint(condition=~Q(blocker=models.F("blocked")), name="block_not_self"),
        ]
        verbose_name = pgettext_lazy("model name (accusative)", "block")
        verbose_name_plural = _("blocks")

    def __str__(self) -> str:
        return f"{self.blocker_id} ⊘ {self.blocked_id}"


class Invitation(models.Model):
    """«Пригласить за стол»: lives INVITE_SECONDS; accepting seats the guest."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        EXPIRED = "expired", _("expired")

    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    guest = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey("lobby.Table", on_delete=models.CASCADE, related_name="invitations")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.host_id} → {self.guest_id} ({self.status})"


class Preference(models.Model):
    """A player's social settings."""

    player = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                  related_name="social_preference")
    invites_from_friends_only = models.BooleanField(default=False)

    def __str__(self) -> str:
        return str(self.player_id)


class TableRequirement(models.Model):
    """A host's «только надёжные игроки» for his table (lobby's Table has no such column)."""

    table = models.OneToOneField("lobby.Table", on_delete=models.CASCADE, primary_key=True,
                                 related_name="requirement")
    reliable_only = models.BooleanField(default=False)

    def __str__(self) -> str:
        return str(self.table_id)


class Dodge(models.Model):
    """A matched player who did not come (no_show) or stood up before the deal (countdown_exit):
    his next search waits (growing with each), the pair rests, and his reliability mark counts it."""

    class Kind(models.TextChoices):
        NO_SHOW = "no_show", _("did not come to the table")
        COUNTDOWN_EXIT = "countdown_exit", _("left before the deal")

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    against = models.JSONField(default=list, blank=True)  # the ids of the players he left waiting
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["player", "-created_at"], name="dodge_player_recent")]
        verbose_name = pgettext_lazy("model name (accusative)", "dodge")
        verbose_name_plural = _("dodges")

    def __str__(self) -> str:
        return f"{self.player_id} {self.kind}"


class Party(models.Model):
    """Two friends who search as one: the leader starts and chooses the search, either may leave
    (which ends the party). Who is in a live party is PartyMember's one row per player."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("together")
        ENDED = "ended", _("ended")

    leader = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    member = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ACTIVE)
    created_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = pgettext_lazy("model name (accusative)", "party")
        verbose_name_plural = _("parties")

    def __str__(self) -> str:
        return f"{self.leader_id} + {self.member_id} ({self.status})"


class PartyMember(models.Model):
    """A player's place in his live party. The player is the key: two acceptances racing cannot put
    one player in two parties (the second insert fails)."""

    player = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                  related_name="party_place")
    party = models.ForeignKey(Party, on_delete=models.CASCADE, related_name="places")

    def __str__(self) -> str:
        return f"{self.player_id} in {self.party_id}"


class PartyInvitation(models.Model):
    """«Позвать в команду»: a friend asked into a player's party (and his search); lives
    INVITE_SECONDS, read as expired after that (nothing fires)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        EXPIRED = "expired", _("expired")

    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    guest = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["guest", "status"], name="party_invite_guest_status")]
        verbose_name = pgettext_lazy("model name (accusative)", "party invitation")
        verbose_name_plural = _("party invitations")

    def __str__(self) -> str:
        return f"{self.host_id} → {self.guest_id} ({self.status})"
