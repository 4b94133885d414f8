"""The player account. Written only by accounts/services.py (and Django's createsuperuser)."""

from __future__ import annotations

from typing import ClassVar

from django.contrib.auth.hashers import check_password as check_hash
from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from . import hashers, keys
from .nicks import skeleton


class PlayerManager(BaseUserManager["Player"]):
    def get_by_natural_key(self, nick: str | None) -> Player:
        return self.get(nick__iexact=nick)

    def create_user(self, nick: str, password: str | None = None, **extra) -> Player:
        player = self.model(nick=nick, **extra)
        player.set_password(password)  # None -> unusable until a recovery key is issued
        player.save(using=self._db)
        return player

    def create_superuser(self, nick: str, password: str | None = None, **extra) -> Player:
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        return self.create_user(nick, password, **extra)


class Player(AbstractBaseUser, PermissionsMixin):
    """A person. The recovery key is the password: only its hash is stored (Django hashers)."""

    nick = models.CharField(_("nick"), max_length=20, unique=True)
    # the nick folded to one look-alike form (accounts.nicks.skeleton): no two players may share it
    nick_skeleton = models.CharField(max_length=40, db_index=True, editable=False, default="")
    is_staff = models.BooleanField(_("moderator"), default=False)
    is_active = models.BooleanField(_("active"), default=True)
    date_joined = models.DateTimeField(_("joined"), default=timezone.now)
    last_seen = models.DateTimeField(_("last seen"), null=True, blank=True, db_index=True)
    banned_at = models.DateTimeField(_("banned at"), null=True, blank=True)
    ban_reason = models.CharField(_("ban reason"), max_length=300, blank=True)
    # where his table socket last connected from: games whose players share it are unrated (docs/RULES.md#ratings)
    last_address = models.CharField(_("last address"), max_length=64, blank=True, editable=False)
    # bumped whenever a session of his ends (accounts.sessions): his sockets compare it on every move
    session_generation = models.PositiveIntegerField(default=0, editable=False)

    objects = PlayerManager()

    USERNAME_FIELD = "nick"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    class Meta:
        verbose_name = pgettext_lazy("model name (accusative)", "player")
        verbose_name_plural = _("players")
        constraints = [models.UniqueConstraint(Lower("nick"), name="player_nick_ci_unique")]

    def __str__(self) -> str:
        return self.nick

    def set_password(self, raw_password: str | None) -> None:
        """A recovery key gets the key hasher (accounts/hashers.py), anything else Django's default."""
        if raw_password is not None and keys.is_well_formed(raw_password) and hashers.available():
            self.password = hashers.hash_key(raw_password)
            self._password = raw_password
            return
        super().set_password(raw_password)

    def check_password(self, raw_password: str | None) -> bool:
        """A key stored with the full cost is re-hashed with the key hasher once it is proven right;
        a key hash is never "upgraded" to the default hasher (Django's setter would)."""
        if not (raw_password and keys.is_well_formed(raw_password) and hashers.available()):
            return super().check_password(raw_password)
        correct = check_hash(raw_password, self.password)
        if correct and not hashers.is_key_hash(self.password):
            self.set_password(raw_password)
            self._password = None  # type: ignore[assignment]  # as Django does; its stubs say str
            self.save(update_fields=["password"])
        return correct

    def save(self, *args, **kwargs) -> None:
        self.nick_skeleton = skeleton(self.nick)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "nick" in update_fields:
            kwargs["update_fields"] = {*update_fields, "nick_skeleton"}
        super().save(*args, **kwargs)

    @property
    def is_banned(self) -> bool:
        return self.banned_at is not None


class AddressUse(models.Model):
    """An address a player's table socket (or his pages) used, first and last time: the ratings'
    shared-address rule reads every address used around a game, not only the last one."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="address_uses")
    address = models.CharField(_("address"), max_length=64)
    first_at = models.DateTimeField(_("first used"), default=timezone.now)
    last_at = models.DateTimeField(_("last used"), default=timezone.now)

    class Meta:
        verbose_name = _("address used")
        verbose_name_plural = _("addresses used")
        constraints = [models.UniqueConstraint(fields=["player", "address"], name="addressuse_once")]
        indexes = [models.Index(fields=["player", "last_at"], name="addressuse_recent")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.address}"
