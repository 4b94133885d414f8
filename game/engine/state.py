"""The full game state: a slotted object that apply_action copies cheaply.

Seats are stored 0-based inside (``seat - 1``); cards are int codes, hands and piles int bitmasks.
Nothing here is secret-safe: the state never leaves the server, views are made by views.py.
"""
from __future__ import annotations

from typing import Any

from game.engine.cards import CARD_CODE, CARD_STR, RANK_OF, SUITS, from_strs, to_strs
from game.engine.events import Event, from_public, last_event
from game.engine.rules import Rules
from game.engine.seats import TURN_OF, seat_mask, thrower_mask
from game.engine.types import Phase, RoundEnd

STATE_FORMAT = 1


def _seats(mask: int) -> list[int]:
    """Bitmask of 0-based seats → sorted 1-based seat list."""
    return [i + 1 for i in range(mask.bit_length()) if mask >> i & 1]


class GameState:
    """One Durak game. Treat as immutable from the outside: engine functions return new states.

    Fields (all set by deal.new_game / from_json; "out" is replaced, never mutated):

    Instances keep a plain ``__dict__`` (``__slots__ = ("__dict__",)``, no ``__init__``):
    ``GameState()`` plus ``__dict__`` assignment is the cheapest clone CPython 3.11 offers, about
    a quarter cheaper than ``object.__new__`` on a class with inline (managed) attribute values.
    Compiled by mypyc (game/engine/build.py) it is a native class with no ``__dict__``: ``clone``
    copies it field by field, and callers must not reach for ``__dict__``.
    """

    __slots__ = ("__dict__",)

    rules: Rules
    n: int                  # players
    pairs: bool
    hands: list[int]        # bitmask per seat index
    stock: tuple[int, ...]  # draw order; stock[-1] is the face-up trump while the stock lasts
    trump: int              # suit 0..3
    trump_card: int         # the face-up card (code)
    discard: int            # bitmask (the bito pile)
    gone: int               # every card ever seen going to the discard (public memory)
    known: int              # the seat memory: cards publicly seen entering (or shown from) a hand
    #                         (a take, a caught table, a shown or drawn face-up trump, менка), a bit
    #                         cleared when the card enters a hand unseen; a card is in one hand at
    #                         a time, so seat j's known cards are known & hands[j] (views.py). One
    #                         int, not one per seat: a take is one |= (random play stays fast)
    atk: tuple[int, ...]    # attack cards in table order
    dfn: tuple[int, ...]    # defence per attack slot, -1 = unbeaten
    atk_by: tuple[int, ...]  # seat index that laid each attack card
    cheats: int             # cheater mode: bit i = attack slot i dishonest, bit 16+i = defence
    rmask: int              # union of RANK_MASK of all table cards (throw-in ranks)
    leader: int             # who opened this round (refill starts with him)
    starter: int            # who throws in first (the leader, or the last transferrer)
    defender: int
    took: bool              # defender said «Беру»
    passed: int             # seats (bitmask) that passed this round
    limit: int              # max attack cards this round
    round: int              # 1-based
    phase: Phase            # "play" | "check" | "over"
    pending: RoundEnd | None  # in the check phase: how the round will close ("bito" | "take")
    out: list[int]          # seat indexes that finished, in order
    out_mask: int
    result: dict[str, Any] | None
    swap_used: bool
    shown: int              # seats that transferred by showing a trump this round
    banned: int             # seats that falsely accused this round (may not catch again)
    bots: int               # bot seats (bitmask)
    seed: int | str
    rng_n: int              # how many random draws were made (RNG = Random(f"{seed}:{rng_n}"))
    moves: int              # actions applied (monotonic)
    last: Event | None      # events.py: always a 6-tuple
    stall: int              # rounds closed since the discard last grew or someone went out
    best: int               # largest discard size seen
    dealer: int
    turn: int               # seats (bitmask) whose action is awaited: whose_turn's answer
    #                         (seats.TURN_OF[turn]), cached by flow.settle after every move
    elig: int               # cached thrower mask for the current defender (seats.thrower_mask)

    def copy(self) -> GameState:
        """A new state sharing immutable parts (the table is tuples); the hands list, which
        callers (tests) may change in place, is copied."""
        if NATIVE:
            c = clone(self)
            c.hands = self.hands[:]
            return c
        c = GameState()
        d = self.__dict__.copy()
        d["hands"] = self.hands[:]
        c.__dict__ = d
        return c

    # --- read-only conveniences for callers (bots, bench, server) ---
    @property
    def players(self) -> int:
        return self.n

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def is_over(self) -> bool:
        """The game has ended (``result`` is set)."""
        return self.phase == "over"

    def in_check_phase(self) -> bool:
        """Cheater mode's window after a round: only catches until ``end_check``."""
        return self.phase == "check"

    def in_play(self) -> bool:
        """Seats act (neither the check window nor the end)."""
        return self.phase == "play"

    def hand(self, seat: int) -> list[str]:
        """Cards of ``seat`` (1-based) as strings, lowest first. Server-side only."""
        return to_strs(self.hands[seat - 1])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return f"<GameState players={self.n} round={self.round} phase={self.phase} moves={self.moves}>"

    # --- persistence ---
    def to_json(self) -> dict[str, Any]:
        """The full state (RNG position included) as a JSON-ready dict; from_json restores it."""
        return {
            "format": STATE_FORMAT,
            "rules": self.rules.to_dict(),
            "players": self.n,
            "hands": [to_strs(h) for h in self.hands],
            "stock": [CARD_STR[c] for c in self.stock],
            "trump": SUITS[self.trump],
            "trump_card": CARD_STR[self.trump_card],
            "discard": to_strs(self.discard),
            "gone": to_strs(self.gone),
            "known": [to_strs(self.known & h) for h in self.hands],
            "table": [
                {
                    "attack": CARD_STR[a],
                    "defense": CARD_STR[d] if d >= 0 else None,
                    "by": self.atk_by[k] + 1,
                    "attack_honest": not (self.cheats >> k & 1),
                    "defense_honest": not (self.cheats >> (16 + k) & 1),
                }
                for k, (a, d) in enumerate(zip(self.atk, self.dfn, strict=False))
            ],
            "leader": self.leader + 1,
            "starter": self.starter + 1,
            "defender": self.defender + 1,
            "took": self.took,
            "passed": _seats(self.passed),
            "limit": self.limit,
            "round": self.round,
            "phase": self.phase,
            "pending": self.pending,
            "out": [i + 1 for i in self.out],
            "result": self.result,
            "swap_used": self.swap_used,
            "shown": _seats(self.shown),
            "banned": _seats(self.banned),
            "bots": _seats(self.bots),
            "seed": self.seed,
            "rng_n": self.rng_n,
            "moves": self.moves,
            "last": last_event(self.last),
            "stall": self.stall,
            "best": self.best,
            "dealer": self.dealer + 1,
            "awaiting": list(TURN_OF[self.turn]),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameState:
        """Rebuild a state saved by to_json (raises ValueError on a malformed dict)."""
        try:
            s = cls()
            s.rules = Rules.from_dict(d["rules"])
            s.n = int(d["players"])
            s.pairs = s.rules.pairs
            s.hands = [from_strs(h) for h in d["hands"]]
            s.stock = tuple(CARD_CODE[c] for c in d["stock"])
            s.trump = SUITS.index(d["trump"])
            s.trump_card = CARD_CODE[d["trump_card"]]
            s.discard = from_strs(d["discard"])
            s.gone = from_strs(d["gone"])
            # per seat, as views show it; states saved before the seat memory existed remember
            # nothing (a known card that has left every hand changes nothing: whenever it comes
            # back into a hand the bit is set or cleared)
            known = d.get("known") or [[]] * s.n
            if len(known) != s.n:
                raise ValueError("known must list one card set per seat")
            s.known = 0
            for cards in known:
                s.known |= from_strs(cards)
            table = d["table"]
            s.atk = tuple(CARD_CODE[t["attack"]] for t in table)
            s.dfn = tuple(
                CARD_CODE[t["defense"]] if t["defense"] is not None else -1 for t in table
            )
            s.atk_by = tuple(int(t["by"]) - 1 for t in table)
            cheats = 0
            rmask = 0
            for k, t in enumerate(table):
                if not t["attack_honest"]:
                    cheats |= 1 << k
                if not t["defense_honest"]:
                    cheats |= 1 << (16 + k)
            for c in s.atk + tuple(x for x in s.dfn if x >= 0):
                rmask |= RANK_OF[c]
            s.cheats = cheats
            s.rmask = rmask
            s.leader = int(d["leader"]) - 1
            s.starter = int(d["starter"]) - 1
            s.defender = int(d["defender"]) - 1
            s.took = bool(d["took"])
            s.passed = seat_mask(d["passed"])
            s.limit = int(d["limit"])
            s.round = int(d["round"])
            s.phase = d["phase"]
            s.pending = d["pending"]
            s.out = [int(x) - 1 for x in d["out"]]
            s.out_mask = seat_mask(d["out"])
            s.result = d["result"]
            s.swap_used = bool(d["swap_used"])
            s.shown = seat_mask(d["shown"])
            s.banned = seat_mask(d["banned"])
            s.bots = seat_mask(d["bots"])
            s.seed = d["seed"]
            s.rng_n = int(d["rng_n"])
            s.moves = int(d["moves"])
            s.last = from_public(d["last"])
            s.stall = int(d["stall"])
            s.best = int(d["best"])
            s.dealer = int(d["dealer"]) - 1
            s.turn = seat_mask([int(x) for x in d["awaiting"]])
            s.elig = thrower_mask(s)
            # states saved with the table's reads ("reads", "drawn") load without them: the reads
            # are replayed from the game's log when a bot or the analysis asks (reads.py)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            raise ValueError(f"malformed game state: {e!r}") from e
        return s


def clone(s: GameState) -> GameState:
    """A shallow copy, field by field: apply_action's clone when this module is compiled (a
    mypyc native class has no ``__dict__``; its field copies are plain C stores)."""
    c = GameState()
    c.rules = s.rules
    c.n = s.n
    c.pairs = s.pairs
    c.stock = s.stock
    c.trump = s.trump
    c.trump_card = s.trump_card
    c.discard = s.discard
    c.gone = s.gone
    c.known = s.known
    c.atk = s.atk
    c.dfn = s.dfn
    c.atk_by = s.atk_by
    c.cheats = s.cheats
    c.rmask = s.rmask
    c.leader = s.leader
    c.starter = s.starter
    c.defender = s.defender
    c.took = s.took
    c.passed = s.passed
    c.limit = s.limit
    c.round = s.round
    c.phase = s.phase
    c.pending = s.pending
    c.out = s.out
    c.out_mask = s.out_mask
    c.result = s.result
    c.swap_used = s.swap_used
    c.shown = s.shown
    c.banned = s.banned
    c.bots = s.bots
    c.seed = s.seed
    c.rng_n = s.rng_n
    c.moves = s.moves
    c.last = s.last
    c.stall = s.stall
    c.best = s.best
    c.dealer = s.dealer
    c.turn = s.turn
    c.elig = s.elig
    c.hands = s.hands
    return c


# True when this module runs compiled by mypyc (game/engine/build.py): GameState is then a native
# class, with no instance ``__dict__``; the pure-Python module keeps the ``__dict__`` clone
NATIVE: bool = not hasattr(GameState(), "__dict__")
