"""Who may play whom: the pure part of matchmaking (no database), so it is tested on its own.

The rule (stated on the rules page): two searches are compatible when their modes are the same (a
mode is never open: nobody is dealt cheater mode or pairs he did not ask for), every other choice
agrees or one side left it open ("any"), and their ratings are within the rating window of the one who has waited
longer. The window starts at WINDOW_START points and widens by WINDOW_STEP every WINDOW_EVERY
seconds of waiting; after WINDOW_OPEN_AFTER seconds it is open (any rating). A group is formed
around the head of the queue (the longest waiting), taking the compatible players nearest to it
in rating.

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


def may_join(group: list[Candidate], c: Candidate) -> bool:
    """May `c` join the group: no block between them, ratings in the window, choices agree, and
    for a rated search no pair at its daily rated limit and no two people on one address."""
    for g in group:
        if c.player_id == g.player_id or c.player_id in g.avoid or g.player_id in c.avoid:
            return False
        if abs(c.rating - g.rating) > window(max(c.waited, g.waited)):
            return False
        if c.rated and (c.player_id in g.at_pair_limit or g.player_id in c.at_pair_limit
                        or (c.address and c.address == g.address)):
            return False
    return common([*group, c]) is not None


def target_size(settings_: dict) -> int | None:
    """Seats of the table this group makes: the fixed number, or None when any number will do."""
    return settings_["players"] or None


def form_group(head: Candidate, others: list[Candidate]) -> list[Candidate]:
    """The largest group around `head`, nearest in rating first (may be just `head`)."""
    group = [head]
    for c in sorted(others, key=lambda o: (abs(o.rating - head.rating), -o.waited, o.id)):
        settings_ = common(group)
        size = target_size(settings_) if settings_ else None
        if size is not None and len(group) >= size:
            break
        if may_join(group, c):
            group.append(c)
    return group


def ready_to_start(group: list[Candidate]) -> bool:
    """A full table (its fixed number reached), or at least two people when every search accepts any number."""
    settings_ = common(group)
    if settings_ is None:
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


def _nearest(head: Candidate, by_mode: dict[Mode, list[Candidate]], taken: set[int]) -> list[Candidate]:
    """The free searches whose modes meet the head's, at most EXAMINE_PER_HEAD nearest in rating."""
    mine = mode_of(head)
    pool = [c for mode, found in by_mode.items() if modes_meet(mine, mode)
            for c in found if c.id not in taken and c.id != head.id]
    if len(pool) > EXAMINE_PER_HEAD:
        pool = heapq.nsmallest(EXAMINE_PER_HEAD, pool, key=lambda o: (abs(o.rating - head.rating), -o.waited, o.id))
    return pool


def groups(queue: list[Candidate]) -> list[tuple[list[Candidate], bool]]:
    """Every group the queue (oldest first) makes now: (group, fill with bots)."""
    out: list[tuple[list[Candidate], bool]] = []
    taken: set[int] = set()
    by_mode: dict[Mode, list[Candidate]] = {}
    for c in queue:
        by_mode.setdefault(mode_of(c), []).append(c)
    for head in queue:
        if head.id in taken:
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
