"""The table settings in one registry, as ``game.engine.rules.RULE_CHOICES`` is for the rules: each
setting's allowed values, its default, its label and help line, the words for each value and the
refusal a wrong value gets. The lobby's forms and checks, the search's matching, the tournaments, the
pages and frames, and the database constraints (and their migration) read them here; nothing else
spells 30/60/90 or a default.

Pure data (no model, no service): ``lobby.models`` builds its fields and constraints from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db import models
from django.utils.translation import gettext as _now
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise


class RulesSetter(models.TextChoices):
    HOST = "host", _("the host")  # docs/RULES.md#rules-setter
    LOWEST_SEAT = "lowest_seat", _("the human in the lowest seat")  # docs/RULES.md#rules-setter


class StartPolicy(models.TextChoices):
    ALL_READY = "all_ready", _("when everyone is ready")  # docs/RULES.md#start
    FULL_CONNECTED = "full_connected", _("when all seats are filled and connected")  # docs/RULES.md#start


class DisconnectPolicy(models.TextChoices):
    LOSE = "lose", _("loss after 30 s")  # docs/RULES.md#disconnect
    BOT = "bot", _("a bot plays after 15 + 60 s")  # docs/RULES.md#disconnect


@dataclass(frozen=True)
class TableSetting:
    key: str  # the Table field and the services' keyword
    values: tuple  # every allowed value, in the order the forms offer them
    default: Any
    label: _StrPromise
    help: _StrPromise
    error: str  # durak_site/errors.py code for a value not in ``values``
    value_labels: dict = field(default_factory=dict)  # value → its words (else the value itself)

    def allows(self, value) -> bool:
        """One of ``values`` and of the default's kind (True is not the number 1 here; a choice's
        enum member is its string)."""
        if isinstance(value, bool) != isinstance(self.default, bool):
            return False
        return isinstance(value, type(self.default)) and value in self.values

    def label_of(self, value) -> str:
        if self.key == "turn_seconds":
            return _now("%(n)s s") % {"n": value}
        label = self.value_labels.get(value)
        if label is not None:
            return str(label)
        if isinstance(value, bool):
            return _now("yes") if value else _now("no")
        return str(value)

    def choices(self) -> list[tuple[str, str | _StrPromise]]:
        """(posted string, words) for a form's select."""
        return [(str(value), self.label_of(value)) for value in self.values]


SEATS = TableSetting("seats_count", (2, 3, 4, 5, 6), 4, _("Seats"), _("2 to 6 players; pairs need exactly 4."),
                     "bad_seats")
TURN_SECONDS = TableSetting("turn_seconds", (30, 60, 90), 30, _("Turn timer"),
                            _("Seconds for each action: 30, 60 or 90."), "bad_timer")
DISCONNECT = TableSetting(
    "disconnect_policy", tuple(DisconnectPolicy.values), DisconnectPolicy.BOT.value, _("Disconnect"),
    _("Lose the game after 30 s away, or a bot plays your seat from 15 + 60 s away until you return."),
    "bad_disconnect_policy", dict(DisconnectPolicy.choices))
RULES_SETTER = TableSetting("rules_setter", tuple(RulesSetter.values), RulesSetter.HOST.value,
                            _("Who sets the rules"), _("The host, or the person in the lowest-numbered seat."),
                            "bad_rules_setter", dict(RulesSetter.choices))
START = TableSetting(
    "start_policy", tuple(StartPolicy.values), StartPolicy.ALL_READY.value, _("Start"),
    _("When everyone has pressed “Ready”, or as soon as every seat is taken and connected."), "bad_start_policy",
    dict(StartPolicy.choices))
SERIES = TableSetting("series_length", (1, 3, 5, 10, 30), 1, _("Series"),
                      _("A single game, or a series of games with standings (the quartet club plays 30)."),
                      "bad_series_length", {1: _("single game")})
PRIVATE = TableSetting("private", (False, True), False, _("Private"),
                       _("Only people with the invite link can find and join the table."), "bad_private")

TABLE_SETTINGS: dict[str, TableSetting] = {s.key: s for s in (SEATS, TURN_SECONDS, DISCONNECT, RULES_SETTER, START,
                                                              SERIES, PRIVATE)}
