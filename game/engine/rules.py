"""Rule settings of a Durak game (docs/RULES.md names each and its sources).

Every difference between the rule sources is a field here; the first value of each entry in
``RULE_CHOICES`` is the default. The keyword names are stored with every game, so they are stable.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal

Variant = Literal["podkidnoy", "perevodnoy"]
ThrowIn = Literal["starter_first", "anyone"]
FirstMove = Literal["lowest_trump", "lowest_trump_or_random", "left_of_dealer", "humans_first", "bots_first"]
TrumpSwap = Literal["nobody", "humans", "bots", "all"]
Timeout = Literal["auto", "lose"]


class InvalidRules(ValueError):
    """A rules dict or a game setup the engine refuses (message names the field)."""


RULE_CHOICES: dict[str, tuple[Any, ...]] = {
    "deck_size": (36, 24, 52),
    "variant": ("podkidnoy", "perevodnoy"),
    "pairs": (False, True),
    "cheater": (False, True),
    "transfer_with_trump": (True, False),
    "transfer_by_showing_trump": (False, True),
    "transfer_in_first_round": (True, False),
    "throw_in": ("starter_first", "anyone"),
    "round_limit": (6, None),
    "first_round_limit": (6, 5),
    "first_move": ("lowest_trump", "lowest_trump_or_random", "left_of_dealer", "humans_first",
                   "bots_first"),
    "trump_swap": ("nobody", "humans", "bots", "all"),
    "refill": (True, False),
    "auto_bito": (False, True),
    "draw": (True, False),
    "timeout": ("auto", "lose"),
    "memory_aid": (False, True),
}


def _check(name: str, value: Any) -> None:
    """Raise InvalidRules unless ``value`` is one of the allowed values (bools are not ints)."""
    allowed = RULE_CHOICES[name]
    for choice in allowed:
        if type(value) is type(choice) and value == choice:
            return
    raise InvalidRules(
        f"Invalid value {value!r} for rule '{name}': allowed values are "
        + ", ".join(repr(c) for c in allowed)
    )


@dataclass(frozen=True)
class Rules:
    """Immutable rule settings; defaults are page 000's rules (docs/RULES.md#sources) with a 36-card deck,
    each for himself."""

    deck_size: int = 36
    variant: Variant = "podkidnoy"
    pairs: bool = False
    cheater: bool = False
    transfer_with_trump: bool = True
    transfer_by_showing_trump: bool = False
    transfer_in_first_round: bool = True
    throw_in: ThrowIn = "starter_first"
    round_limit: int | None = 6
    first_round_limit: int = 6
    first_move: FirstMove = "lowest_trump"
    trump_swap: TrumpSwap = "nobody"
    refill: bool = True
    auto_bito: bool = False
    draw: bool = True
    timeout: Timeout = "auto"
    # display only: the table page shows the seat memory (views' ``known``, which every view
    # carries anyway: it is public); the engine and the bots never read it
    memory_aid: bool = False
    # derived in __post_init__, not settings: to_dict's cache (views call it on every frame) and the
    # per-round attack-card caps (flow.round_cap): round 1, later rounds
    _as_dict: dict[str, Any] = field(init=False, repr=False, compare=False)
    _cap1: int = field(init=False, repr=False, compare=False)
    _capn: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        settings = {}
        for f in fields(self):
            if f.init:
                value = getattr(self, f.name)
                _check(f.name, value)
                settings[f.name] = value
        object.__setattr__(self, "_as_dict", settings)
        cap1 = self.first_round_limit
        if self.round_limit is not None:
            cap1 = min(cap1, self.round_limit)
        object.__setattr__(self, "_cap1", cap1)
        object.__setattr__(self, "_capn", self.round_limit if self.round_limit is not None else 99)

    @classmethod
    def from_dict(cls, d: Any) -> Rules:
        """Build validated Rules from a (possibly partial) JSON dict; unknown keys are refused."""
        if d is None:
            return cls()
        if not isinstance(d, dict):
            raise InvalidRules(f"Rules must be a dict, got {type(d).__name__}")
        for key in d:
            if key not in RULE_CHOICES:
                raise InvalidRules(f"Unknown rule '{key}'")
        return cls(**d)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict of every field (a fresh copy)."""
        return dict(self._as_dict)

    @property
    def transfers(self) -> bool:
        return self.variant == "perevodnoy"

    def check_players(self, players: Any) -> None:
        """Raise InvalidRules unless ``players`` seats can play under these rules (lobby uses it)."""
        if type(players) is not int or not 2 <= players <= 6:
            raise InvalidRules(f"players must be an integer from 2 to 6, got {players!r}")
        if self.pairs and players != 4:
            raise InvalidRules("pairs requires exactly 4 players (seats 1&3 vs 2&4)")
        if self.deck_size < 6 * players:
            raise InvalidRules(
                f"deck_size {self.deck_size} is too small for {players} players (6 cards each)"
            )
