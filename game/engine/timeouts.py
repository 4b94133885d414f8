"""What happens when a seat's clock runs out (docs/RULES.md#turn-timer), and resign (docs/RULES.md#leaving)."""
from __future__ import annotations

from typing import Any

from game.engine.actions import check_seat, do_resign
from game.engine.cards import CARD_STR, SUIT_MASK, lowest
from game.engine.errors import IllegalAction
from game.engine.state import GameState
from game.engine.types import Action


def timeout_action(state: GameState, seat: Any) -> Action:
    """The automatic move for an awaited ``seat`` whose time ran out: the defender takes, a
    thrower passes, the leader plays his lowest non-trump (else lowest trump). With
    timeout="lose" a leader or a defender facing unbeaten cards resigns (reason "timeout")."""
    i = check_seat(state, seat)
    if state.phase == "over":
        raise IllegalAction("game_over", "the game is over")
    if state.phase == "check":
        raise IllegalAction("check_phase", "the check phase is ended by end_check")
    if not state.turn >> i & 1:
        raise IllegalAction("not_your_turn", "this seat's action is not awaited")
    lose = state.rules.timeout == "lose"
    if not state.atk:
        if lose:
            return {"type": "resign", "reason": "timeout"}
        h = state.hands[i]
        nt = h & ~SUIT_MASK[state.trump]
        return {"type": "attack", "card": CARD_STR[lowest(nt if nt else h)]}
    if i == state.defender:
        if lose:
            return {"type": "resign", "reason": "timeout"}
        return {"type": "take"}
    return {"type": "pass"}


def resign(state: GameState, seat: Any, reason: str = "resign") -> GameState:
    """Leaving = loss; the game ends at once, in pairs the pair loses (docs/RULES.md#leaving). ``reason`` is
    "resign" or "timeout" (shown in the result)."""
    i = check_seat(state, seat)
    if reason not in ("resign", "timeout"):
        raise IllegalAction("bad_action", "reason must be 'resign' or 'timeout'")
    return do_resign(state, i, reason)


def set_bot_seats(state: GameState, seats: Any) -> GameState:
    """A new state whose bot seats are ``seats`` (1-based), e.g. after a bot takes a seat over
    (docs/RULES.md#disconnect); matters for trump_swap "humans"/"bots"."""
    if not isinstance(state, GameState):
        raise IllegalAction("bad_state", "not a GameState")
    m = 0
    try:
        for x in seats:
            if type(x) is not int or not 1 <= x <= state.n:
                raise IllegalAction("no_such_seat", f"no seat {str(x)[:20]!r}")
            m |= 1 << (x - 1)
    except TypeError:
        raise IllegalAction("bad_action", "seats must be a list of seat numbers") from None
    s = state.copy()
    s.bots = m
    return s
