"""Who may play whom: the pure part of matchmaking (no database), so it is tested on its own.

The rule (stated on the rules page): two searches are compatible when their modes are the same (a
mode is never open: nobody is dealt cheater mode or pairs he did not ask for), every other choice
agrees or one side left it open ("any"), and their ratings are within the rating window of the one who has waited
longer. The window starts at WINDOW_START points and widens by WINDOW_STEP every WINDOW_EVERY
seconds of waiting; after WINDOW_OPEN_AFTER seconds it is open (any rating). A group is formed
around the head of the queue (the longest waiting), taking the compatible players nearest to it
in rating.

A party of two is one unit of the queue: its two searches (the same choices, the same place) join
a group together or not at all, and only when both are in the queue the matcher sees (a concurrent
matcher holding one of them locked leaves the party to the next match). The two are never rated
against each other (they chose each other); everyone else is checked against both. A group is
never the party alone: it searches for others (bots aside). At a pairs table the party's two are
partners.

Work is bounded: searches are indexed by their mode (the choices), so a head is compared only with
searches whose choices can meet its own, and with at most EXAMINE_PER_HEAD of those, nearest in
rating first (a queue of searches that can never meet costs N × EXAMINE_PER_HEAD checks, not N²).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from lobby.presets import PRESETS
from lobby.table_settings import SEATS, TURN_SECONDS  # the tables' allowed values and defaults

WINDOW_START = 100
WINDOW_STEP = 50
WINDOW_EVERY = 5.0
WINDOW_OPEN_AFTER = 60.0
DEFAULT_PLAYERS_WHEN_FILLING = 4  # "any number" filled with bots: the old quick play's four seats
DEFAULT_VARIANT, DEFAULT_DECK, DEFAULT_TIMER = "podkidnoy", 36, TURN_SECONDS.default
VARIANTS = ("podkidnoy", "perevodnoy")
PLAYERS = SEATS.values
DECKS = (24, 36, 52)
TIMERS = TURN_SECONDS.values
BOT_FILLS = (0, 15, 30, 60)
MAX_PLAYERS_FOR_DECK = {24: 4, 36: 6, 52: 6}
EXAMINE_PER_HEAD = 64  # candidates one head is compared with, nearest in rating first
# the search's modes: lobby presets (their rules make the table); each for himself, «Шулер», pairs 2×2
MODES = ("classic", "cheater", "pairs")
DEFAULT_MODE = "classic"
PAIRS_MODE = "pairs"
PAIRS_SEATS = PRESETS[PAIRS_MODE].seats_count or 4  # a pairs table is always full: 4 seats
assert all(m in PRESETS for m in MODES)


def window(waited_seconds: float) -> float:
    """The rating distance a search accepts after waiting this long."""
    if waited_seconds >= WINDOW_OPEN_AFTER:
        return float("inf")
    return WINDOW_START + WINDOW_STEP * int(max(0.0, waited_seconds) // WINDOW_EVERY)


@dataclass
class Candidate:
    """A waiting search as the matcher sees it."""

    id: int
    player_id: int
    rating: int
    waited: float  # seconds since queued_at
    mode: str = DEFAULT_MODE
    variant: str = ""
    players: int = 0
    deck: int = 0
    turn_seconds: int = 0
    rated: bool = True
    bot_fill: int = 30
    address: str = ""
    avoid: set[int] = field(default_factory=set)  # players he blocked or who blocked him
    at_pair_limit: set[int] = field(default_factory=set)  # players he played his daily rated share with
    party: int = 0  # his party's id (0: he searches alone)


Unit = list[Candidate]  # one player, or a party's two: matched whole or not at all
PARTY_SIZE = 2


def units(queue: list[Candidate]) -> list[Unit]:
    """The queue's units in its order (a party where its first search stands). A party with a search
    missing (locked by another matcher, or beyond this matcher's limit) is left out whole."""
    parties: dict[int, Unit] = {}
    for c in queue:
        if c.party:
            parties.setdefault(c.party, []).append(c)
    out: list[Unit] = []
    for c in queue:
        if not c.party:
            out.append([c])
        elif parties[c.party] and parties[c.party][0] is c:
            whole = parties[c.party]
            if len(whole) == PARTY_SIZE and len({mode_of(m) for m in whole}) == 1 and _may_meet(whole[0], whole[1]):
                out.append(whole)
    return out


def _may_meet(a: Candidate, b: Candidate) -> bool:
    """Two people of one party: no block between them (one since the party formed ends it)."""
    return a.player_id != b.player_id and a.player_id not in b.avoid and b.player_id not in a.avoid


def _units_in(group: list[Candidate]) -> int:
    return len({c.party or -c.id for c in group})


def _agree(a, b, any_value):
    """The common value of two choices, `any_value` when both are open, or None when they clash."""
    if a == any_value:
        return b
    if b == any_value or a == b:
        return a
    return None


_CLASH = object()


def common(group: list[Candidate]) -> dict[str, Any] | None:
    """The settings every search of the group accepts (open ones stay open), or None."""
    out: dict[str, Any] = {"mode": group[0].mode, "variant": "", "players": 0, "deck": 0, "turn_seconds": 0,
                           "rated": group[0].rated}
    for c in group:
        if c.rated != out["rated"] or c.mode != out["mode"]:
            return None
        for key, any_value in (("variant", ""), ("players", 0), ("deck", 0), ("turn_seconds", 0)):
            value = _agree(out[key], getattr(c, key), any_value)
            if value is None:
                return None
            out[key] = value
    if out["players"] and out["deck"] and out["players"] > MAX_PLAYERS_FOR_DECK[out["deck"]]:
        return None
    if len(group) > (out["players"] or 6) or (out["deck"] and len(group) > MAX_PLAYERS_FOR_DECK[out["deck"]]):
        return None
    return out


def _pair_ok(c: Candidate, g: Candidate) -> bool:
    """Two people of different units: no block between them, ratings in the window, and for a
    rated search no pair at its daily rated limit and no two people on one address."""
    if not _may_meet(c, g):
        return False
    if abs(c.rating - g.rating) > window(max(c.waited, g.waited)):
        return False
    return not (c.rated and (c.player_id in g.at_pair_limit or g.player_id in c.at_pair_limit
                             or (c.address and c.address == g.address)))


def may_join_unit(group: list[Candidate], unit: Unit) -> bool:
    """May the unit (one player or a party) join the group: each of it fits each of the group, and
    the choices agree."""
    if any(not _pair_ok(c, g) for c in unit for g in group):
        return False
    return common([*group, *unit]) is not None


def may_join(group: list[Candidate], c: Candidate) -> bool:
    """May `c`, alone, join the group."""
    return may_join_unit(group, [c])


def target_size(settings_: dict) -> int | None:
    """Seats of the table this group makes: the fixed number, or None when any number will do."""
    return settings_["players"] or None


def _rating(unit: Unit) -> float:
    return sum(c.rating for c in unit) / len(unit)


def _nearness(unit: Unit, rating: float) -> tuple:
    return (abs(_rating(unit) - rating), -max(c.waited for c in unit), unit[0].id)


def form_group(head: Unit, others: list[Unit]) -> list[Candidate]:
    """The largest group around the `head` unit, nearest in rating first (may be just the head)."""
    group = list(head)
    rating = _rating(head)
    for unit in sorted(others, key=lambda u: _nearness(u, rating)):
        settings_ = common(group)
        size = target_size(settings_) if settings_ else None
        if size is not None and len(group) >= size:
            break
        if may_join_unit(group, unit):
            group.extend(unit)
    return group


def ready_to_start(group: list[Candidate]) -> bool:
    """A full table (its fixed number reached), or at least two people when every search accepts any
    number; never a party by itself."""
    settings_ = common(group)
    if settings_ is None or _units_in(group) < 2:
        return False
    size = target_size(settings_)
    return len(group) >= 2 if size is None else len(group) == size


def bots_due(group: list[Candidate]) -> bool:
    """The head's wait ran out (every one of the group fills with bots, and the head's time is up)."""
    head = group[0]
    return all(c.bot_fill for c in group) and head.waited >= head.bot_fill


def table_settings(group: list[Candidate], filling: bool) -> dict:
    """The table made for a group: open choices resolved to the defaults."""
    s = common(group)
    assert s is not None
    seats = s["players"] or (max(len(group), DEFAULT_PLAYERS_WHEN_FILLING) if filling else len(group))
    deck = s["deck"] or DEFAULT_DECK
    if seats > MAX_PLAYERS_FOR_DECK[deck]:
        seats = MAX_PLAYERS_FOR_DECK[deck]
    if s["mode"] == PAIRS_MODE:
        seats = PAIRS_SEATS
    return {"preset": s["mode"], "variant": s["variant"] or DEFAULT_VARIANT, "seats_count": seats,
            "deck_size": deck, "turn_seconds": s["turn_seconds"] or DEFAULT_TIMER, "rated": s["rated"]}


Mode = tuple  # (variant, players, deck, turn_seconds, rated, mode)


def mode_of(c: Candidate) -> Mode:
    return (c.variant, c.players, c.deck, c.turn_seconds, c.rated, c.mode)


@lru_cache(maxsize=4096)
def modes_meet(a: Mode, b: Mode) -> bool:
    """Whether two searches' choices can meet (open choices meet anything; ratings aside)."""
    if a[4:] != b[4:]:
        return False
    return all(x == y or not x or not y for x, y in zip(a[:4], b[:4], strict=True))


def _nearest(head: Unit, by_mode: dict[Mode, list[Unit]], taken: set[int]) -> list[Unit]:
    """The free units whose modes meet the head's, at most EXAMINE_PER_HEAD nearest in rating."""
    mine = mode_of(head[0])
    pool = [u for mode, found in by_mode.items() if modes_meet(mine, mode)
            for u in found if u[0].id not in taken and u[0].id != head[0].id]
    if len(pool) > EXAMINE_PER_HEAD:
        rating = _rating(head)
        pool = heapq.nsmallest(EXAMINE_PER_HEAD, pool, key=lambda u: _nearness(u, rating))
    return pool


def groups(queue: list[Candidate]) -> list[tuple[list[Candidate], bool]]:
    """Every group the queue (oldest first) makes now: (group, fill with bots)."""
    out: list[tuple[list[Candidate], bool]] = []
    taken: set[int] = set()
    by_mode: dict[Mode, list[Unit]] = {}
    queue_units = units(queue)
    for unit in queue_units:
        by_mode.setdefault(mode_of(unit[0]), []).append(unit)
    for head in queue_units:
        if head[0].id in taken:
            continue
        group = form_group(head, _nearest(head, by_mode, taken))
        if ready_to_start(group):
            out.append((group, False))
        elif bots_due(group):
            out.append((group, True))
        else:
            continue
        taken.update(c.id for c in group)
    return out


def seating(group: list[Candidate], seats_count: int, pairs: bool) -> list[Candidate | None]:
    """Who sits in each seat (index 0 is seat 1; None: a bot): the group's order, bots after; at a
    pairs table a party's two are partners (seats 1 and 3, or 2 and 4: partners sit across)."""
    if not pairs:
        return [*group, *[None] * (seats_count - len(group))]
    out: list[Candidate | None] = [None] * seats_count
    teams = [[0, 2], [1, 3]]
    parties: dict[int, list[Candidate]] = {}
    for c in group:
        if c.party:
            parties.setdefault(c.party, []).append(c)
    for members in parties.values():
        team = next(t for t in teams if all(out[i] is None for i in t))
        for i, c in zip(team, members, strict=True):
            out[i] = c
    free = iter(i for i in range(seats_count) if out[i] is None)
    for c in group:
        if not c.party:
            out[next(free)] = c
    return out
