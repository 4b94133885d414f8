"""The only writer of lobby models: tables, seats, rules, ready and the 3-2-1 countdown.

Every write runs in ``transaction.atomic()`` with the Table row locked (``select_for_update``), so
two players racing for the same seat are serialised: the second one finds it taken. The Seat
constraints (one player per table, human xor bot, unique number) back this up in the database.

After a committed change the table's channel-layer group ``table-<id>`` receives
``{"type": "lobby.changed", "version": n}`` and timers are scheduled (both ``on_commit``).

Policies chosen here (see also the issue and DESIGN.md):
- The last human leaving a waiting table closes it (its bots go too): a table of bots only would
  sit in the lobby forever with nobody to press «Готов»; the leaver is never refused, so «Встать»
  always works (004: "в ожидании можно свободно выйти").
- The host is the creator; when he stands up the next human clockwise from his seat becomes host.
- The rules are set by the host (004) or by the human in the lowest-numbered seat (000), per table.
  The same person adds/removes bots and may cancel the countdown.
- Every rule change clears every human's «Готов» and is written to Table.notice for all to see.
- Pairs can be switched on only when 4 seats are all taken (a Pairs preset creates a 4-seat table
  that waits for 4 players); when a full pairs table loses a player it falls back to each for himself.
- Sitting down at another table stands you up from the waiting table you were at.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import models, transaction
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.services import ensure_can_play
from durak_site import realtime
from durak_site.clock import db_now
from game.engine.bots import BOTS, DEFAULT_LEVEL, LEVEL_BY_CODE
from game.engine.rules import RULE_CHOICES, InvalidRules, Rules

from .errors import ServiceError
from .models import Seat, Table
from .presets import CUSTOM, DEFAULT_PRESET, PRESETS
from .signals import table_closed

log = logging.getLogger(__name__)

COUNTDOWN_SECONDS = 3
REMATCH_SECONDS = 30
INACTIVE_SECONDS = 120  # a disconnected seat in the waiting room is freed after this (001)
BOT_LEVELS = (*LEVEL_BY_CODE, *BOTS)  # the offered levels, and the engine bots saved tables may name
TURN_SECONDS = (30, 60, 90)
OPEN_STATUSES = (Table.Status.WAITING, Table.Status.COUNTDOWN, Table.Status.REMATCH)
TABLE_SETTINGS = ("name", "preset", "seats_count", "turn_seconds", "disconnect_policy", "rules_setter",
                  "start_policy", "series_length", "private")
SERIES_CHOICES = (1, 3, 5, 10, 30)
# the session key under which the table page keeps the private tables whose invite link was opened
INVITES_KEY = "lobby_invites"
QUICK_PLAY_LEVEL = DEFAULT_LEVEL  # «Быстрая игра»: three bots of the middle level


# ---------------------------------------------------------------- helpers


def _locked(table_id) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise ServiceError("table_not_found") from None


def _seats(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).select_related("player").order_by("number"))


def _occupied(seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if not s.is_free]


def _humans(seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if s.player_id is not None]


def _seat_of(seats: list[Seat], player_id) -> Seat | None:
    for s in seats:
        if s.player_id is not None and s.player_id == player_id:
            return s
    return None


def _require_open(table: Table) -> None:
    if table.status == Table.Status.CLOSED:
        raise ServiceError("table_closed")
    if table.status == Table.Status.PLAYING:
        raise ServiceError("game_running")


def _require_seated(seats: list[Seat], player) -> Seat:
    seat = _seat_of(seats, getattr(player, "pk", None))
    if seat is None:
        raise ServiceError("not_seated")
    return seat


def _ensure_can_play(player) -> None:
    if player is None or not player.is_authenticated:
        raise ServiceError("login_required")
    ensure_can_play(player)  # raises ServiceError("banned") with the reason


def rules_setter_id(table: Table, seats: list[Seat] | None = None):
    """The player id who may change the rules now (host, or lowest-seat human), or None."""
    if table.rules_setter == Table.RulesSetter.LOWEST_SEAT:
        humans = _humans(seats if seats is not None else _seats(table))
        return humans[0].player_id if humans else None
    return table.host_id


def can_manage(table: Table, player, seats: list[Seat] | None = None) -> bool:
    """Host or rules setter: may change rules, add/remove bots, cancel the countdown."""
    pid = getattr(player, "pk", None)
    if pid is None:
        return False
    return pid == table.host_id or pid == rules_setter_id(table, seats)


def _require_manager(table: Table, seats: list[Seat], player, what: str) -> None:
    if not can_manage(table, player, seats):
        if what == "rules":
            raise ServiceError("not_rules_setter")
        raise ServiceError("not_host")


Notice = Callable[[], str]  # the notice's text in the active language (rendered once per language)


def in_every_language(notice: Notice) -> dict[str, str]:
    """The notice written in every language of the site, so each reader sees his own."""
    texts = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            texts[code] = str(notice())[:200]
    return texts


def _bump(table: Table, notice: Notice | None = None, fields: list[str] | None = None) -> None:
    """A waiting-room change: the table's version moves and its sockets hear of it. `fields`: the only
    columns the change touched (else the whole row is saved)."""
    table.version += 1
    if notice is not None:
        table.notice_texts = in_every_language(notice)
        table.notice = table.notice_texts.get(settings.LANGUAGE_CODE, "")
    table.save(update_fields=None if fields is None else [*fields, "version", "notice", "notice_texts", "updated_at"])
    realtime.send_on_commit([_changed(table.pk, table.version)])


def _changed(table_id: int, version: int) -> realtime.Message:
    return realtime.table_group(table_id), {"type": "lobby.changed", "version": version}


def _rules(table: Table) -> Rules:
    return Rules.from_dict(table.rules or {})


def start_blocker(table: Table, seats: list[Seat]) -> str | None:
    """Why the countdown cannot start now (translated), or None when it may start."""
    occupied = _occupied(seats)
    if len(occupied) < 2:
        return _("At least two players must be seated.")
    try:
        _rules(table).check_players(len(occupied))
    except InvalidRules:
        if _rules(table).pairs:
            return _("Pairs 2×2 needs all four seats taken.")
        return _("The deck is too small for this many players.")
    if table.start_policy == Table.StartPolicy.FULL_CONNECTED:
        if len(occupied) < len(seats):
            return _("The game starts when all seats are filled.")
        if any(s.player_id is not None and not s.connected for s in occupied):
            return _("Waiting for every player to be connected.")
        return None
    if any(not s.ready for s in occupied):
        return _("Waiting for everyone to press «Ready».")
    return None


def _start_countdown(table: Table) -> None:
    table.status = Table.Status.COUNTDOWN
    table.countdown_deadline = db_now() + timedelta(seconds=COUNTDOWN_SECONDS)
    table.rematch_deadline = None


def _reevaluate(table: Table, seats: list[Seat], *, restart: bool = False) -> None:
    """Start, keep, restart or stop the countdown after a change (caller saves the table)."""
    blocker = start_blocker(table, seats)
    if table.status == Table.Status.COUNTDOWN:
        if blocker is not None:
            table.status = Table.Status.WAITING
            table.countdown_deadline = None
        elif restart:
            _start_countdown(table)
    elif table.status in (Table.Status.WAITING, Table.Status.REMATCH) and blocker is None:
        _start_countdown(table)


def _finish(table: Table, seats: list[Seat], notice: Notice | None = None, *, restart: bool = False) -> Table:
    _reevaluate(table, seats, restart=restart)
    _bump(table, notice)
    return table


def _clear_ready(seats: list[Seat]) -> None:
    ids = [s.pk for s in seats if s.player_id is not None and s.ready]
    if ids:
        Seat.objects.filter(pk__in=ids).update(ready=False)
    for s in seats:
        if s.player_id is not None:
            s.ready = False


def _pairs_fallback(table: Table, seats_before: int, seats: list[Seat]) -> Notice | None:
    """A full pairs table that lost a player goes back to each for himself (000); returns the notice."""
    rules = table.rules or {}
    if rules.get("pairs") and seats_before >= 4 and len(_occupied(seats)) < 4:
        table.rules = {**rules, "pairs": False}
        return lambda: _("Pairs 2×2 switched off: a seat was vacated, so it is each for himself now.")
    return None


def _check_rules_dict(rules: dict, seats_count: int) -> dict:
    """The rules as stored, or a refusal people can read (never the engine's English text)."""
    try:
        parsed = Rules.from_dict(rules)
    except (InvalidRules, TypeError) as exc:
        raise ServiceError("bad_rules") from exc
    if parsed.pairs and seats_count != 4:
        raise ServiceError("pairs_need_four_seats")
    try:
        Rules.from_dict({**parsed.to_dict(), "pairs": False}).check_players(seats_count)
    except InvalidRules as exc:
        raise ServiceError("deck_too_small") from exc
    return parsed.to_dict()


def _check_table_settings(values: dict) -> None:
    seats_count = values.get("seats_count")
    if seats_count is not None and (type(seats_count) is not int or not 2 <= seats_count <= 6):
        raise ServiceError("bad_seats")
    if "turn_seconds" in values and values["turn_seconds"] not in TURN_SECONDS:
        raise ServiceError("bad_timer")
    if "disconnect_policy" in values and values["disconnect_policy"] not in Table.DisconnectPolicy.values:
        raise ServiceError("bad_disconnect_policy")
    if "rules_setter" in values and values["rules_setter"] not in Table.RulesSetter.values:
        raise ServiceError("bad_rules_setter")
    if "start_policy" in values and values["start_policy"] not in Table.StartPolicy.values:
        raise ServiceError("bad_start_policy")
    if "series_length" in values and values["series_length"] not in SERIES_CHOICES:
        raise ServiceError("bad_series_length")
    if "private" in values and not isinstance(values["private"], bool):
        raise ServiceError("bad_private")
    if "name" in values and (not isinstance(values["name"], str) or len(values["name"]) > 60):
        raise ServiceError("bad_table_name")
    if "preset" in values and values["preset"] not in PRESETS and values["preset"] != CUSTOM:
        raise ServiceError("bad_preset")


def _split_settings(settings_: dict) -> tuple[dict, dict]:
    table_values, rule_values = {}, {}
    for key, value in settings_.items():
        if key in TABLE_SETTINGS:
            table_values[key] = value
        elif key in RULE_CHOICES:
            rule_values[key] = value
        else:
            raise ServiceError("unknown_setting", key=key)
    return table_values, rule_values


def _stand_elsewhere(player, except_table_id=None) -> None:
    """Free the player's seats at other open tables (one table at a time); refuse during a game."""
    others = (Seat.objects.filter(player=player).exclude(table_id=except_table_id)
              .select_related("table").order_by("table_id"))
    for seat in others:
        if seat.table.status == Table.Status.PLAYING and _in_running_game(seat.table, player):
            raise ServiceError("in_game", name=str(seat.table))
        if seat.table.status != Table.Status.CLOSED:
            _stand_locked(seat.table_id, player)
        else:
            Seat.objects.filter(pk=seat.pk).update(player=None, ready=False)


def _in_running_game(table: Table, player) -> bool:
    return Seat.objects.filter(table=table, player=player, in_game=True).exists()


# ---------------------------------------------------------------- tables


def create_table(host, **settings_) -> Table:
    """A new waiting table with the host in seat 1. Settings: TABLE_SETTINGS and Rules keyword names."""
    _ensure_can_play(host)
    table_values, rule_values = _split_settings(settings_)
    preset_key = table_values.get("preset") or DEFAULT_PRESET
    table_values["preset"] = preset_key
    _check_table_settings(table_values)
    preset = PRESETS.get(preset_key)
    rules = dict(preset.rules) if preset else {}
    rules.update(rule_values)
    if preset is not None and rule_values and any(preset.rules.get(k, Rules().to_dict()[k]) != v
                                                  for k, v in rule_values.items()):
        table_values["preset"] = CUSTOM
    seats_count = table_values.get("seats_count") or (preset.seats_count if preset and preset.seats_count else 4)
    if rules.get("pairs") and "seats_count" not in table_values:
        seats_count = 4
    table_values["seats_count"] = seats_count
    if preset is not None and "series_length" not in table_values:
        table_values["series_length"] = preset.series_length
    rules_dict = _check_rules_dict(rules, seats_count)
    with transaction.atomic():
        _stand_elsewhere(host)
        table = Table.objects.create(host=host, rules=rules_dict, invite_code=secrets.token_urlsafe(12),
                                     **table_values)
        Seat.objects.bulk_create([Seat(table=table, number=n) for n in range(1, seats_count + 1)])
        # the host is on the site right now: connected until his socket (or its absence, via the
        # timers' stale-presence sweep) says otherwise
        Seat.objects.filter(table=table, number=1).update(player=host, connected=True, last_seen=db_now())
        _bump(table)
    return table


def sit(table_id, player, number) -> Table:
    """Take free seat ``number``; if already seated here this moves seats (Готов is cleared)."""
    _ensure_can_play(player)
    with transaction.atomic():
        table = _locked(table_id)
        _require_open(table)
        seats = _seats(table)
        target = _seat_numbered(seats, number)
        mine = _seat_of(seats, player.pk)
        if mine is not None and mine.pk == target.pk:
            return table
        if not target.is_free:
            raise ServiceError("seat_taken", n=number)
        if mine is None:
            _stand_elsewhere(player, except_table_id=table.pk)
        moved = mine is not None
        if moved:
            Seat.objects.filter(pk=mine.pk).update(player=None, ready=False, connected=False, inactive_deadline=None)
            mine.player_id, mine.player, mine.ready = None, None, False
        # sitting is a click on a live page: the player is present (his socket may have connected
        # while he was a spectator, when presence was not tracked); disconnect/stale sweeps correct it
        connected = True
        Seat.objects.filter(pk=target.pk).update(player=player, ready=False, connected=connected,
                                                 inactive_deadline=None, last_seen=db_now())
        target.player_id, target.player, target.ready, target.connected = player.pk, player, False, connected
        if table.host_id is None:
            table.host = player
        nick = player.nick

        def notice() -> str:
            said = _("%(nick)s moved to seat %(n)s.") if moved else _("%(nick)s sat down in seat %(n)s.")
            return said % {"nick": nick, "n": number}
        return _finish(table, seats, notice, restart=True)


move_seat = sit


def stand(table_id, player) -> Table:
    """Leave the seat (free in the waiting room). The last human leaving closes the table."""
    with transaction.atomic():
        return _stand_locked(table_id, player)


def _stand_locked(table_id, player) -> Table:
    table = _locked(table_id)
    if table.status == Table.Status.CLOSED:
        raise ServiceError("table_closed")
    if table.status == Table.Status.PLAYING and _in_running_game(table, player):
        raise ServiceError("leave_at_the_table")
    seats = _seats(table)
    seat = _require_seated(seats, player)
    before = len(_occupied(seats))
    Seat.objects.filter(pk=seat.pk).update(player=None, ready=False, connected=False, inactive_deadline=None)
    seat.player_id, seat.player, seat.ready, seat.connected = None, None, False, False
    return _after_leave(table, seats, before, {player.pk: seat.number},
                        lambda: _("%(nick)s stood up.") % {"nick": player.nick})


def _after_leave(table: Table, seats: list[Seat], before: int, left: dict, notice: Notice) -> Table:
    """After humans left (``left``: player id -> the seat number they had): close, hand over, fall back."""
    humans = _humans(seats)
    if not humans and table.status != Table.Status.PLAYING:
        Seat.objects.filter(table=table).update(player=None, bot_level="", ready=False, connected=False,
                                                inactive_deadline=None)
        table.status = Table.Status.CLOSED
        table.countdown_deadline = None
        table.rematch_deadline = None
        table.closed_reason = _("Everyone left the table.")
        table.host = None
        _bump(table, lambda: _("Everyone left the table."))
        return table
    if table.host_id in left:
        new_host = _next_human(seats, left[table.host_id])
        table.host_id = new_host.player_id if new_host else None
        if new_host is not None:
            notice = _then(notice, lambda nick=new_host.player.nick: _("The host is now %(nick)s.") % {"nick": nick})
    fallback = _pairs_fallback(table, before, seats)
    if fallback:
        notice = _then(notice, fallback)
        _clear_ready(seats)
    return _finish(table, seats, notice, restart=True)


def _then(first: Notice, second: Notice) -> Notice:
    return lambda: f"{first()} {second()}"


def _seat_numbered(seats: list[Seat], number) -> Seat:
    """Seat `number` of the table, or the refusal a person gets for a seat that does not exist."""
    target = next((s for s in seats if s.number == number), None)
    if target is None:
        raise ServiceError("no_such_seat", n=number)
    return target


def _next_human(seats: list[Seat], after_number: int) -> Seat | None:
    humans = _humans(seats)
    if not humans:
        return None
    later = [s for s in humans if s.number > after_number]
    return (later or humans)[0]


def add_bot(table_id, by, number, level=DEFAULT_LEVEL) -> Table:
    if level not in BOT_LEVELS:
        raise ServiceError("bad_bot_level", level=level)
    with transaction.atomic():
        table = _locked(table_id)
        _require_open(table)
        seats = _seats(table)
        _require_manager(table, seats, by, "bots")
        target = _seat_numbered(seats, number)
        if not target.is_free:
            if all(not s.is_free for s in seats):
                raise ServiceError("table_full")
            raise ServiceError("seat_taken", n=number)
        bots = [s for s in seats if s.bot_level]
        if len(bots) >= table.seats_count - 1:
            raise ServiceError("too_many_bots", n=table.seats_count - 1)
        Seat.objects.filter(pk=target.pk).update(bot_level=level, ready=True, connected=True)
        target.bot_level, target.ready, target.connected = level, True, True
        return _finish(table, seats, lambda: _("A bot sat down in seat %(n)s.") % {"n": number}, restart=True)


def remove_bot(table_id, by, number) -> Table:
    with transaction.atomic():
        table = _locked(table_id)
        _require_open(table)
        seats = _seats(table)
        _require_manager(table, seats, by, "bots")
        target = _seat_numbered(seats, number)
        if not target.bot_level:
            raise ServiceError("not_a_bot", n=number)
        before = len(_occupied(seats))
        Seat.objects.filter(pk=target.pk).update(bot_level="", ready=False, connected=False)
        target.bot_level, target.ready, target.connected = "", False, False
        notice = lambda: _("The bot in seat %(n)s left.") % {"n": number}  # noqa: E731
        fallback = _pairs_fallback(table, before, seats)
        if fallback:
            notice = _then(notice, fallback)
            _clear_ready(seats)
        return _finish(table, seats, notice, restart=True)


def set_ready(table_id, player, ready: bool) -> Table:
    with transaction.atomic():
        table = _locked(table_id)
        _require_open(table)
        seats = _seats(table)
        seat = _require_seated(seats, player)
        ready = bool(ready)
        if seat.ready == ready:
            return table
        Seat.objects.filter(pk=seat.pk).update(ready=ready)
        seat.ready = ready
        if ready:
            notice = lambda: _("%(nick)s is ready.") % {"nick": player.nick}  # noqa: E731
        elif table.status == Table.Status.COUNTDOWN:
            notice = lambda: _("%(nick)s is not ready: the start is cancelled.") % {"nick": player.nick}  # noqa: E731
        else:
            notice = lambda: _("%(nick)s is not ready.") % {"nick": player.nick}  # noqa: E731
        return _finish(table, seats, notice)


def update_rules(table_id, by, **changes) -> Table:
    """Change rules/table settings before the start; clears everyone's «Готов» and tells everyone."""
    table_values, rule_values = _split_settings(changes)
    _check_table_settings(table_values)
    with transaction.atomic():
        table = _locked(table_id)
        _require_open(table)
        seats = _seats(table)
        _require_manager(table, seats, by, "rules")
        old_rules = dict(table.rules or Rules().to_dict())
        new_rules = dict(old_rules)
        preset_key = table_values.get("preset")
        if preset_key and preset_key != CUSTOM:
            preset = PRESETS[preset_key]
            new_rules = {**Rules().to_dict(), **preset.rules}
            if preset.seats_count and "seats_count" not in table_values:
                table_values["seats_count"] = preset.seats_count
            table_values.setdefault("series_length", preset.series_length)
        new_rules.update(rule_values)
        if rule_values and not preset_key:
            table_values["preset"] = CUSTOM
        seats_count = table_values.get("seats_count", table.seats_count)
        rules_dict = _check_rules_dict(new_rules, seats_count)
        occupied_now = len(_occupied(seats))
        if rules_dict["pairs"] and not old_rules.get("pairs") and occupied_now != 4:
            raise ServiceError("pairs_need_four")
        if seats_count != table.seats_count:
            if any(not s.is_free for s in seats if s.number > seats_count):
                raise ServiceError("seat_in_use", n=seats_count)
            bots = sum(1 for s in seats if s.bot_level)
            if bots > seats_count - 1:
                raise ServiceError("too_many_bots", n=seats_count - 1)
            Seat.objects.filter(table=table, number__gt=seats_count).delete()
            Seat.objects.bulk_create([Seat(table=table, number=n)
                                      for n in range(table.seats_count + 1, seats_count + 1)])
            seats = _seats(table)
        old_values = {key: getattr(table, key) for key in table_values}
        if not _describe_changes(old_values, old_rules, rules_dict, table_values):
            return table
        for key, value in table_values.items():
            setattr(table, key, value)
        table.rules = rules_dict
        _clear_ready(seats)

        def notice() -> str:  # written in each language: the labels of the changes too
            what = "; ".join(_describe_changes(old_values, old_rules, rules_dict, table_values))
            return _("%(nick)s changed the rules: %(what)s. Everyone, press «Ready» again.") % {
                "nick": by.nick, "what": what}

        return _finish(table, seats, notice)


def _describe_changes(old_values: dict, old: dict, new: dict, table_values: dict) -> list[str]:
    from .rule_texts import RULE_LABELS, TABLE_LABELS, value_label

    out = []
    for key in RULE_CHOICES:
        if old.get(key) != new.get(key):
            out.append(f"{RULE_LABELS[key][0]}: {value_label(key, new.get(key))}")
    for key, value in table_values.items():
        if key == "preset" or old_values.get(key) == value:
            continue
        label = TABLE_LABELS.get(key, (key,))[0]
        out.append(f"{label}: {_table_value_label(key, value)}")
    return out


def _table_value_label(key: str, value) -> str:
    if key == "turn_seconds":
        return _("%(n)s s") % {"n": value}
    if key == "disconnect_policy":
        return str(Table.DisconnectPolicy(value).label)
    if key == "rules_setter":
        return str(Table.RulesSetter(value).label)
    if key == "start_policy":
        return str(Table.StartPolicy(value).label)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def cancel_countdown(table_id, by) -> Table:
    """The host's «Отменить»: stop the 3-2-1 and clear every human's «Готов»."""
    with transaction.atomic():
        table = _locked(table_id)
        seats = _seats(table)
        if table.status != Table.Status.COUNTDOWN:
            raise ServiceError("no_countdown")
        _require_seated(seats, by)
        _require_manager(table, seats, by, "cancel")
        table.status = Table.Status.WAITING
        table.countdown_deadline = None
        _clear_ready(seats)
        _bump(table, lambda: _("%(nick)s cancelled the start.") % {"nick": by.nick})
        return table


def set_presence(table_id, player_id, connected: bool) -> Table | None:
    """Called by the table consumer on connect/disconnect. Spectators are ignored."""
    with transaction.atomic():
        try:
            table = Table.objects.select_for_update().get(pk=table_id)
        except Table.DoesNotExist:
            return None
        seats = _seats(table)
        seat = _seat_of(seats, player_id)
        if seat is None or table.status == Table.Status.CLOSED:
            return table
        now = db_now()
        deadline = None
        if not connected and table.status in OPEN_STATUSES:
            deadline = now + timedelta(seconds=INACTIVE_SECONDS)
        if seat.connected == bool(connected) and seat.inactive_deadline == deadline:
            return table
        Seat.objects.filter(pk=seat.pk).update(connected=bool(connected), last_seen=now, inactive_deadline=deadline)
        seat.connected = bool(connected)
        seat.inactive_deadline = deadline
        _finish(table, seats)
        return table


def touch_presence(table_id, player_id) -> None:
    """A heartbeat from the waiting-room page: keep the seat marked connected (cheap when it is)."""
    seat = Seat.objects.filter(table_id=table_id, player_id=player_id).only("pk", "connected").first()
    if seat is None:
        return
    if not seat.connected:
        set_presence(table_id, player_id, True)
        return
    Seat.objects.filter(pk=seat.pk).update(last_seen=db_now(), inactive_deadline=None)


def fire_inactive_seat(table_id, seat_number=None) -> int:
    """Timers entry point for Seat.inactive_deadline (see fire_inactive_seats)."""
    return fire_inactive_seats(table_id)


def fire_inactive_seats(table_id, version=None) -> int:
    """Free, without penalty, seats that stayed disconnected past Seat.inactive_deadline (001).

    Stale deadlines (the player came back, or the game started) are cleared so they never fire again.
    """
    freed = 0
    with transaction.atomic():
        try:
            table = Table.objects.select_for_update().get(pk=table_id)
        except Table.DoesNotExist:
            return 0
        now = db_now()
        if table.status not in OPEN_STATUSES:
            Seat.objects.filter(table=table, inactive_deadline__isnull=False).update(inactive_deadline=None)
            return 0
        seats = _seats(table)
        Seat.objects.filter(table=table, inactive_deadline__isnull=False).filter(
            models.Q(connected=True) | models.Q(player__isnull=True)).update(inactive_deadline=None)
        overdue = [s for s in seats if s.player_id and not s.connected and s.inactive_deadline
                   and s.inactive_deadline <= now]
        if not overdue:
            return 0
        before = len(_occupied(seats))
        nicks, left = [], {}
        for s in overdue:
            nicks.append(s.player.nick)
            left[s.player_id] = s.number
            Seat.objects.filter(pk=s.pk).update(player=None, ready=False, inactive_deadline=None)
            s.player_id, s.player, s.ready, s.inactive_deadline = None, None, False, None
            freed += 1
        notice = lambda: _("Seat freed: %(nicks)s was away too long.") % {"nicks": ", ".join(nicks)}  # noqa: E731
        _after_leave(table, seats, before, left, notice)
    return freed


@dataclass(frozen=True)
class LineupSeat:
    number: int
    player_id: int | None
    bot_level: str
    connected: bool


@dataclass(frozen=True)
class Lineup:
    """Who sits where when a game is dealt, and the table settings the game freezes."""

    table_id: int
    rules: dict
    seats: list[LineupSeat]
    turn_seconds: int
    disconnect_policy: str


def _lineup(table: Table, seats: list[Seat]) -> Lineup:
    occupied = [LineupSeat(s.number, s.player_id, s.bot_level, bool(s.connected)) for s in _occupied(seats)]
    return Lineup(table.pk, dict(table.rules or {}), occupied, table.turn_seconds, table.disconnect_policy)


def take_countdown(table_id, version=None) -> Lineup | None:
    """The countdown ran out (called by game.services.fire_countdown inside its transaction): the
    lineup to deal, with the table row locked; None when it is not due (idempotent) or a seat
    changed so that the game cannot start (the table goes back to waiting)."""
    try:
        table = Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        return None
    if table.status != Table.Status.COUNTDOWN or table.countdown_deadline is None:
        return None
    if version is not None and version != table.version:
        return None
    if table.countdown_deadline > db_now():
        return None
    seats = _seats(table)
    if start_blocker(table, seats) is not None:
        table.status = Table.Status.WAITING
        table.countdown_deadline = None
        _bump(table)
        return None
    return _lineup(table, seats)


def lineup_for_start(table_id) -> Lineup:
    """The table's lineup now, row locked, without the countdown (tests and the dev harness)."""
    table = _locked(table_id)
    return _lineup(table, _seats(table))


def mark_playing(table_id) -> None:
    """A game was dealt at the table (same transaction): seats are closed until it ends."""
    table = _locked(table_id)
    seats = _seats(table)
    Seat.objects.filter(table=table, inactive_deadline__isnull=False).update(inactive_deadline=None)
    Seat.objects.filter(table=table, player__isnull=False).update(in_game=True)
    table.status = Table.Status.PLAYING
    table.countdown_deadline = None
    table.rematch_deadline = None
    _clear_ready(seats)
    _bump(table, lambda: "")


def start_failed(table_id, why: str) -> None:
    """The game refused to start (its rules cannot be dealt): back to the waiting room, saying why."""
    with transaction.atomic():
        table = _locked(table_id)
        if table.status != Table.Status.COUNTDOWN:
            return
        table.status = Table.Status.WAITING
        table.countdown_deadline = None
        _clear_ready(_seats(table))
        _bump(table, lambda: _("The game could not start (%(why)s).") % {"why": why})


def player_left_game(table_id, player_id) -> None:
    """He left the running game for good («Выйти», or lost by disconnect): he may stand up now."""
    Seat.objects.filter(table_id=table_id, player_id=player_id).update(in_game=False)


def shows_last_game(table_id) -> bool:
    """Whether the table page still shows its last game (the game runs, or the rematch offer lasts)."""
    return Table.objects.filter(pk=table_id, status__in=(Table.Status.REMATCH, Table.Status.PLAYING)).exists()


def table_version(table_id) -> int | None:
    """The table's version (None: no such table): what a socket's waiting room is at."""
    return Table.objects.filter(pk=table_id).values_list("version", flat=True).first()


def game_finished(table_id) -> Table | None:
    """Called by game.services after a game ends: open the 30 s rematch window (001/004). It runs in
    the hop of the move that ended the game, so it writes only what changes (one seats UPDATE for the
    ready and in-game flags, only the table's changed columns)."""
    with transaction.atomic():
        try:
            table = Table.objects.select_for_update().get(pk=table_id)
        except Table.DoesNotExist:
            return None
        if table.status != Table.Status.PLAYING:
            return table
        (Seat.objects.filter(models.Q(ready=True) | models.Q(in_game=True), table=table, player__isnull=False)
         .update(ready=False, in_game=False))
        table.status = Table.Status.REMATCH
        table.rematch_deadline = db_now() + timedelta(seconds=REMATCH_SECONDS)
        _bump(table, lambda: _("The game is over. Press «Ready» within 30 s for a rematch."),
              fields=["status", "rematch_deadline"])
        return table


def fire_rematch_deadline(table_id, version=None) -> Table | None:
    """The rematch window closed: back to the waiting room (idempotent)."""
    with transaction.atomic():
        try:
            table = Table.objects.select_for_update().get(pk=table_id)
        except Table.DoesNotExist:
            return None
        if table.status != Table.Status.REMATCH or table.rematch_deadline is None:
            return None
        if table.rematch_deadline > db_now():
            return None
        table.status = Table.Status.WAITING
        table.rematch_deadline = None
        seats = _seats(table)
        _clear_ready(seats)
        _bump(table, lambda: _("The rematch window closed; the table is waiting for players."))
        return table


def close_table(table_id, reason: str) -> Table:
    """Moderator action: close the table and free its seats; everyone sees the reason."""
    with transaction.atomic():
        table = _locked(table_id)
        if table.status == Table.Status.CLOSED:
            return table
        reason = (reason or _("Closed by a moderator."))[:300]
        if table.status in (Table.Status.PLAYING, Table.Status.REMATCH):
            table_closed.send(sender=Table, table_id=table.pk, reason=reason)  # the game app stops its game
        Seat.objects.filter(table=table).update(player=None, bot_level="", ready=False, connected=False,
                                                inactive_deadline=None, in_game=False)
        table.status = Table.Status.CLOSED
        table.closed_reason = reason
        table.countdown_deadline = None
        table.rematch_deadline = None
        _bump(table, lambda: _("The table was closed by a moderator."))
        return table


def broadcast_table(table_id, version=None) -> None:
    """Tell everyone on the table page that the waiting room changed (they re-fetch the fragment)."""
    if version is None:
        version = table_version(table_id) or 0
    realtime.send([_changed(table_id, version)])


# ---------------------------------------------------------------- quick play


def quick_play(player) -> Table:
    """Sit at the best open public table with a free seat, or create a classic one with 3 bots."""
    _ensure_can_play(player)
    mine = Seat.objects.filter(player=player, table__status__in=OPEN_STATUSES).select_related("table").first()
    if mine is not None:
        return mine.table
    candidates = (Table.objects.filter(status=Table.Status.WAITING, private=False)
                  .order_by("created_at")[:50])
    best, best_key = None, None
    for table in candidates:
        seats = _seats(table)
        free = [s for s in seats if s.is_free]
        humans = _humans(seats)
        if not free or not humans:
            continue
        key = (len(humans), -len(free))
        if best_key is None or key > best_key:
            best, best_key = (table, free[0].number), key
    if best is not None:
        table, number = best
        try:
            return sit(table.pk, player, number)
        except ServiceError:
            pass  # somebody was faster; fall through and make our own table
    table = create_table(player, preset=DEFAULT_PRESET, seats_count=4)
    for n in (2, 3, 4):
        add_bot(table.pk, player, n, QUICK_PLAY_LEVEL)
    return set_ready(table.pk, player, True)  # nobody to wait for: the countdown starts at once


def invite_code_ok(table: Table, code: str | None) -> bool:
    return bool(code) and secrets.compare_digest(table.invite_code or "", code)
