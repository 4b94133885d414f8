"""view_for: the redacted, JSON-ready picture of a game for one seat or a spectator.

Only public facts and the seat's own hand: no other hand, no stock order, no cheater-mode honesty
flags, no RNG state.
"""
from __future__ import annotations

from game.engine.actions import legal_actions
from game.engine.cards import CARD_STR, SUITS, to_strs
from game.engine.cheater import catch_targets
from game.engine.events import last_event
from game.engine.seats import TURN_OF, partner
from game.engine.state import GameState
from game.engine.types import View

_SEAT_LISTS = tuple(tuple(j + 1 for j in range(6) if m >> j & 1) for m in range(64))
_KEYS = tuple(str(j + 1) for j in range(6))
_bit_count = int.bit_count
_DEFENSE_STR = (*CARD_STR, None)  # index -1 (an unbeaten slot) → None


def _seats(mask: int) -> list[int]:
    if 0 <= mask < 64:
        return list(_SEAT_LISTS[mask])
    return [j + 1 for j in range(mask.bit_length()) if mask >> j & 1]


def _known(s: GameState) -> dict[str, list[str]]:
    """The seat memory: per seat (only those with any), the publicly seen cards it still holds."""
    k = s.known
    return {_KEYS[j]: to_strs(k & h) for j, h in enumerate(s.hands) if k & h}


def whose_turn(state: GameState) -> list[int]:
    """Seats (1-based) whose action is awaited now; [] in the check phase and after the end.
    Cheap (the cached ``state.turn`` mask, looked up): the bench and the server's timers use it."""
    return [*TURN_OF[state.turn]]


def view_for(state: GameState, seat: int | None) -> View:
    """What ``seat`` (1-based) may see; ``None`` (or an unknown seat) gets the spectator view."""
    s = state
    i = seat - 1 if type(seat) is int and 1 <= seat <= s.n else -1
    playing = s.phase != "over"
    dfn = s.dfn
    # (no zip(..., strict=False) here: a keyword call costs about twice a plain one)
    return {
        "seat": i + 1 if i >= 0 else None,
        "players": s.n,
        "pairs": s.pairs,
        "partner": partner(s, i) + 1 if s.pairs and i >= 0 else None,
        "variant": s.rules.variant,
        "rules": s.rules.to_dict(),
        "phase": s.phase,
        "round": s.round,
        "hand": to_strs(s.hands[i]) if i >= 0 else [],
        "table": [
            {"attack": CARD_STR[a], "defense": _DEFENSE_STR[dfn[k]]} for k, a in enumerate(s.atk)
        ],
        "trump": SUITS[s.trump],
        "trump_card": CARD_STR[s.trump_card],
        "stock": len(s.stock),
        "discard": s.discard.bit_count(),
        "gone": to_strs(s.gone),
        "hand_counts": dict(zip(_KEYS, map(_bit_count, s.hands))),  # noqa: B905 (_KEYS is longer)
        "leader": s.leader + 1 if playing else None,
        "attacker": s.starter + 1 if playing else None,
        "defender": s.defender + 1 if playing else None,
        "turn": [*TURN_OF[s.turn]],  # whose_turn(s)
        "legal": legal_actions(s, i + 1) if i >= 0 else [],
        "took": s.took,
        "passed": _seats(s.passed),
        "limit": s.limit,
        "out": [j + 1 for j in s.out],
        "result": dict(s.result) if s.result else None,
        "last": last_event(s.last),
        "swap_used": s.swap_used,
        "shown": _seats(s.shown),
        "bots": _seats(s.bots),
        "cheater": {
            "enabled": s.rules.cheater,
            "check": s.phase == "check",
            "pending": s.pending,
            "banned": _seats(s.banned),
            "can_catch": bool(i >= 0 and s.rules.cheater and catch_targets(s, i)),
        },
        "moves": s.moves,
        # seat memory: cards each seat was publicly seen getting and still holds (additive key)
        "known": _known(s) if s.known else {},
    }
