"""Tables: creating one, its rules and settings, the host's «Отменить», a moderator's closing, and
«Быстрая игра».

- The rules are set by the host or by the human in the lowest-numbered seat, per table (docs/RULES.md#rules-setter).
  The same person adds/removes bots and may cancel the countdown.
- Every rule change clears every human's «Готово» and is written to Table.notice for all to see.
- Pairs can be switched on only when 4 seats are all taken (a Pairs preset creates a 4-seat table
  that waits for 4 players).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from durak_site.clock import db_now
from durak_site.errors import ServiceError
from game.engine.bots import DEFAULT_LEVEL
from game.engine.rules import RULE_CHOICES, InvalidRules, Rules
from lobby.models import Seat, Table
from lobby.presets import CUSTOM, DEFAULT_PRESET, PRESETS
from lobby.rule_texts import RULE_LABELS, TABLE_LABELS, value_label
from lobby.services.countdown import clear_ready, settle
from lobby.services.locking import ensure_player_can_play, locked_table, require_manager, require_seated
from lobby.services.notices import bump
from lobby.services.seats import add_bot, set_ready, sit, stand_elsewhere
from lobby.services.selectors import OPEN_STATUSES, humans, occupied, seats_of
from lobby.signals import table_closed
from lobby.table_settings import TABLE_SETTINGS

SETTING_KEYS = ("name", "preset", *TABLE_SETTINGS)  # what create_table and update_rules take, besides rules
QUICK_PLAY_LEVEL = DEFAULT_LEVEL  # «Быстрая игра»: three bots of the middle level


def _check_rules_dict(rules: dict[str, Any], seats_count: int) -> dict[str, Any]:
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


def _check_table_settings(values: dict[str, Any]) -> None:
    for key, setting in TABLE_SETTINGS.items():
        if key in values and not setting.allows(values[key]):
            raise ServiceError(setting.error)
    if "name" in values and (not isinstance(values["name"], str) or len(values["name"]) > 60):
        raise ServiceError("bad_table_name")
    if "preset" in values and values["preset"] not in PRESETS and values["preset"] != CUSTOM:
        raise ServiceError("bad_preset")


def _split_settings(settings_: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    table_values, rule_values = {}, {}
    for key, value in settings_.items():
        if key in SETTING_KEYS:
            table_values[key] = value
        elif key in RULE_CHOICES:
            rule_values[key] = value
        else:
            raise ServiceError("unknown_setting", key=key)
    return table_values, rule_values


def create_table(host: Any, *, rated: bool = True, **settings_: Any) -> Table:
    """A new waiting table with the host in seat 1. Settings: SETTING_KEYS and Rules keyword names.
    ``rated`` off makes its games unrated."""
    ensure_player_can_play(host)
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
        stand_elsewhere(host)
        table = Table.objects.create(host=host, rules=rules_dict, invite_code=secrets.token_urlsafe(12),
                                     rated=bool(rated), **table_values)
        Seat.objects.bulk_create([Seat(table=table, number=n) for n in range(1, seats_count + 1)])
        # the host is on the site right now: connected until his socket (or its absence, via the
        # timers' stale-presence sweep) says otherwise
        Seat.objects.filter(table=table, number=1).update(player=host, connected=True, last_seen=db_now())
        bump(table)
    return table


def update_rules(table_id: Any, by: Any, **changes: Any) -> Table:
    """Change rules/table settings before the start; clears everyone's «Готово» and tells everyone."""
    table_values, rule_values = _split_settings(changes)
    _check_table_settings(table_values)
    with locked_table(table_id, by, open_only=True, manage="rules") as locked:
        table, seats = locked.table, locked.seats
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
        occupied_now = len(occupied(seats))
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
            seats = seats_of(table)
        old_values = {key: getattr(table, key) for key in table_values}
        if not _describe_changes(old_values, old_rules, rules_dict, table_values):
            return table
        for key, value in table_values.items():
            setattr(table, key, value)
        table.rules = rules_dict
        clear_ready(seats)

        def notice() -> str:  # written in each language: the labels of the changes too
            what = "; ".join(_describe_changes(old_values, old_rules, rules_dict, table_values))
            return _("%(nick)s changed the rules: %(what)s. Everyone, press “Ready” again.") % {
                "nick": by.nick, "what": what}

        return settle(table, seats, notice)


def _describe_changes(old_values: dict[str, Any], old: dict[str, Any], new: dict[str, Any], table_values: dict[str, Any]) -> list[str]:
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


def _table_value_label(key: str, value: Any) -> str:
    setting = TABLE_SETTINGS.get(key)
    return setting.label_of(value) if setting is not None else str(value)


def lock_as_matched(table_id: Any) -> None:
    """The search made this table and seated its people (and bots): from now on its settings, bots
    and start are the search's; nobody changes them in the waiting room (require_manager)."""
    Table.objects.filter(pk=table_id).update(matched=True)


def cancel_countdown(table_id: Any, by: Any) -> Table:
    """The host's «Отменить»: stop the 3-2-1 and clear every human's «Готово»."""
    with locked_table(table_id) as locked:
        table, seats = locked.table, locked.seats
        if table.status != Table.Status.COUNTDOWN:
            raise ServiceError("no_countdown")
        require_seated(seats, by)
        require_manager(table, seats, by, "cancel")
        table.status = Table.Status.WAITING
        table.countdown_deadline = None
        clear_ready(seats)
        bump(table, lambda: _("%(nick)s cancelled the start.") % {"nick": by.nick})
        return table


GAME_STATUSES = (Table.Status.PLAYING, Table.Status.REMATCH)


def close_table(table_id: Any, reason: str) -> Table:
    """Moderator action: close the table and free its seats; everyone sees the reason.

    Its running game is stopped first and the table row locked after: a game's end holds its game
    row and then takes the table's (a leaver's seat, and at COMMIT the foreign keys of its records),
    so the table before the game would make the two a deadlock."""
    reason = (reason or _("Closed by a moderator."))[:300]
    looks = 0
    while True:
        looks += 1
        with transaction.atomic():
            seen = Table.objects.filter(pk=table_id).values_list("status", flat=True).first()
            # (a game dealt between the look and the lock each time: the third stops it under the lock)
            stopped = seen in GAME_STATUSES or looks > 2
            if stopped:
                table_closed.send(sender=Table, table_id=table_id, reason=reason)  # the game app stops its game
            with locked_table(table_id) as locked:
                table = locked.table
                if table.status == Table.Status.CLOSED:
                    return table
                if table.status in GAME_STATUSES and not stopped:
                    continue  # a game was dealt since the look: stop it first, then the table again
                Seat.objects.filter(table=table).update(player=None, bot_level="", ready=False, connected=False,
                                                        inactive_deadline=None, in_game=False)
                table.status = Table.Status.CLOSED
                table.closed_reason = reason
                table.countdown_deadline = None
                table.rematch_deadline = None
                bump(table, lambda: _("The table was closed by a moderator."))
                return table


def quick_play(player: Any) -> Table:
    """Sit at the best open public table with a free seat, or create a classic one with 3 bots."""
    ensure_player_can_play(player)
    mine = Seat.objects.filter(player=player, table__status__in=OPEN_STATUSES).select_related("table").first()
    if mine is not None:
        return mine.table
    candidates = (Table.objects.filter(status=Table.Status.WAITING, private=False)
                  .order_by("created_at")[:50])
    best, best_key = None, None
    for table in candidates:
        seats = seats_of(table)
        free = [s for s in seats if s.is_free]
        people = humans(seats)
        if not free or not people:
            continue
        key = (len(people), -len(free))
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
