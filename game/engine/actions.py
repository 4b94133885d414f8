"""apply_action and legal_actions: the two halves of the move contract, kept in one module so
that what legal_actions lists is exactly what apply_action accepts."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.engine.cards import (
    BEATERS,
    BIT,
    CARD_CODE,
    CARD_STR,
    CHUNKS,
    LOWEST_RANK,
    RANK_OF,
    SUIT_MASK,
    card_strs,
)
from game.engine.cheater import catch, catch_targets
from game.engine.checks import (
    card_field,
    honest_transfer_cards,
    own_card,
    show_cards,
    transfer_problem,
)
from game.engine.errors import IllegalAction
from game.engine.flow import (
    MAX_MOVES,
    resign_result,
    round_cap,
    set_result,
    settle,
)
from game.engine.seats import is_active, thrower_mask
from game.engine.state import GameState

RESIGN_REASONS = ("resign", "timeout")
_C0, _C1, _C2, _C3 = CHUNKS


# ---------------------------------------------------------------- apply

def apply_action(state: GameState, seat: int, action: Any) -> GameState:
    """Apply ``action`` (JSON dict) by ``seat`` (1-based) and return a NEW state; the input is
    never changed. Anything wrong raises IllegalAction(code, message), never another type."""
    try:
        if type(state) is not GameState:
            raise IllegalAction("bad_state", "not a GameState")
        if type(seat) is not int or not 0 < seat <= state.n:
            raise IllegalAction("no_such_seat", f"no seat {str(seat)[:20]!r} at this table")
        if not isinstance(action, dict):
            raise IllegalAction("bad_action", "an action must be a JSON object with a 'type'")
        t = action.get("type")
        handler = _HANDLERS.get(t) if type(t) is str else None
        if handler is None:
            raise IllegalAction("unknown_action", f"unknown action type {str(t)[:20]!r}")
        i = seat - 1
        if state.phase != "play":
            if state.phase == "over":
                raise IllegalAction("game_over", "the game is over")
            if t != "catch" and t != "resign":
                raise IllegalAction(
                    "check_phase", "the round is being checked: only catches are allowed"
                )
        if t == "resign":
            reason = action.get("reason", "resign")
            if type(reason) is not str or reason not in RESIGN_REASONS:
                raise IllegalAction("bad_action", "reason must be 'resign' or 'timeout'")
            return do_resign(state, i, reason)
        if state.out_mask >> i & 1:
            raise IllegalAction("player_out", "you have finished this game")
        # shallow clone: every handler replaces (never mutates) the lists it changes
        s = object.__new__(GameState)
        s.__dict__ = state.__dict__.copy()
        handler(s, i, action)
        s.moves += 1
        if s.moves >= MAX_MOVES and s.phase != "over":
            set_result(s, None, [], [], True, "cap")
        return s
    except IllegalAction:
        raise
    except Exception as e:  # defensive: the contract is "only IllegalAction"
        raise IllegalAction("internal_error", f"engine error: {e!r}") from e


def check_seat(state: Any, seat: Any) -> int:
    """0-based seat index or IllegalAction."""
    if not isinstance(state, GameState):
        raise IllegalAction("bad_state", "not a GameState")
    if type(seat) is not int or not 1 <= seat <= state.n:
        raise IllegalAction("no_such_seat", f"no seat {str(seat)[:20]!r} at this table")
    return seat - 1


def do_resign(state: GameState, i: int, reason: str) -> GameState:
    """Leaving = loss (000 §11); an each-for-himself player who is already out has nothing to
    lose."""
    if state.phase == "over":
        raise IllegalAction("game_over", "the game is over")
    if not state.pairs and not is_active(state, i):
        raise IllegalAction("player_out", "you have already finished this game")
    s = state.copy()
    resign_result(s, i, reason)
    s.last = {"seat": i + 1, "type": "resign", "reason": reason}
    s.moves += 1
    return s


def _place_attack(s: GameState, i: int, c: int, honest: bool) -> None:
    """Lay an attack card (transfer path; copies the lists it changes)."""
    s.atk = s.atk[:]
    s.dfn = s.dfn[:]
    s.atk_by = s.atk_by[:]
    s.hands = s.hands[:]
    k = len(s.atk)
    s.atk.append(c)
    s.dfn.append(-1)
    s.atk_by.append(i)
    s.hands[i] &= ~BIT[c]
    s.rmask |= RANK_OF[c]
    if not honest:
        s.cheats |= 1 << k


def _card(s: GameState, i: int, a: dict) -> int:
    """The action's card, held by seat i (hot path: one dict lookup, errors via card_field)."""
    v = a.get("card")
    c = CARD_CODE.get(v) if type(v) is str else None
    if c is None:
        card_field(a)  # raises bad_card with a helpful message
    if not s.hands[i] & BIT[c]:
        raise IllegalAction("card_not_in_hand", "you do not hold that card")
    return c


def _attack(s: GameState, i: int, a: dict) -> None:
    atk = s.atk
    rules = s.rules
    if not atk:  # leading a round: any card (000 §6)
        if i != s.starter:
            raise IllegalAction("not_your_turn", f"seat {s.starter + 1} leads this round")
        c = _card(s, i, a)
        honest = True
    else:
        if i == s.defender:
            raise IllegalAction("not_your_turn", "the defender cannot throw in")
        if not s.elig >> i & 1:
            raise IllegalAction("not_your_turn", "you may not throw in to your partner")
        hands = s.hands
        room = len(atk) < s.limit and s.dfn.count(-1) < hands[s.defender].bit_count()
        if rules.throw_in == "starter_first":
            if s.passed >> i & 1:
                raise IllegalAction("already_passed", "you already passed this round")
            st = s.starter
            if (
                i != st
                and room
                and (s.elig & ~s.passed) >> st & 1
                and (hands[st] if rules.cheater else hands[st] & s.rmask)
            ):  # starter_open(s), inlined
                raise IllegalAction("not_your_turn", f"seat {st + 1} throws in first (000 §7)")
        c = _card(s, i, a)
        if not room:
            raise IllegalAction("limit_reached", "no more cards may be thrown in this round")
        honest = bool(s.rmask & RANK_OF[c])
        if not honest:
            if not rules.cheater:
                raise IllegalAction(
                    "rank_not_on_table", "you may only throw in ranks on the table"
                )
            s.cheats |= 1 << len(atk)
        if rules.throw_in == "anyone":
            s.passed = 0  # 004: a new card resets the passes
    s.atk = atk + [c]
    s.dfn = s.dfn + [-1]
    s.atk_by = s.atk_by + [i]
    hands = s.hands[:]
    hands[i] &= ~BIT[c]
    s.hands = hands
    s.rmask |= RANK_OF[c]
    s.last = (i + 1, "attack", CARD_STR[c], None)
    if s.took:
        settle(s)
    else:  # a fresh unbeaten card: the defender is awaited (what settle() would find)
        s.awaiting = (s.defender,)


def _defend(s: GameState, i: int, a: dict) -> None:
    if i != s.defender or not s.atk:
        raise IllegalAction("not_your_turn", "you are not defending")
    if s.took:
        raise IllegalAction("already_took", "you already said «Беру»")
    v = a.get("target")
    t = CARD_CODE.get(v) if type(v) is str else None
    if t is None:
        t = card_field(a, "target", "bad_target")
    dfn = s.dfn
    try:
        k = s.atk.index(t)
    except ValueError:
        k = -1
    if k < 0 or dfn[k] >= 0:
        raise IllegalAction("bad_target", "target must be an unbeaten attack card on the table")
    c = _card(s, i, a)
    beats = BEATERS[s.trump][t] >> c & 1
    if not beats:
        if not s.rules.cheater:
            raise IllegalAction("does_not_beat", f"{CARD_STR[c]} does not beat {CARD_STR[t]}")
        s.cheats |= 1 << (16 + k)
    s.dfn = dfn = dfn[:]
    dfn[k] = c
    hands = s.hands[:]
    hands[i] &= ~BIT[c]
    s.hands = hands
    s.rmask |= RANK_OF[c]
    if s.rules.throw_in == "anyone":
        s.passed = 0
    s.last = (i + 1, "defend", CARD_STR[c], CARD_STR[t])
    settle(s)


def _transfer(s: GameState, i: int, a: dict) -> None:
    show = a.get("show", False)
    if type(show) is not bool:
        raise IllegalAction("bad_action", "'show' must be true or false")
    code, nd = transfer_problem(s, i, 0 if show else 1)
    if code is not None:
        raise IllegalAction(code, nd)
    c = own_card(s, i, a)
    if show:
        if not s.rules.transfer_by_showing_trump:
            raise IllegalAction("transfer_not_allowed", "transfer by showing a trump is off")
        if s.shown >> i & 1:
            raise IllegalAction("transfer_not_allowed", "you already showed a trump this round")
        if not show_cards(s, i) & BIT[c]:
            raise IllegalAction("rank_mismatch", "show a trump of the rank on the table")
        s.shown |= 1 << i
    else:
        honest = bool(honest_transfer_cards(s, i) & BIT[c])
        if not honest and not s.rules.cheater:
            if s.rmask != RANK_OF[c]:
                raise IllegalAction("rank_mismatch", "transfer with a card of the attack's rank")
            raise IllegalAction("transfer_not_allowed", "no transfer with a trump at this table")
        _place_attack(s, i, c, honest)
    s.defender = nd
    s.elig = thrower_mask(s)
    s.starter = i  # 000 §8: the transferrer throws in first
    s.passed = 0
    s.limit = min(round_cap(s), s.hands[nd].bit_count())
    s.last = {"seat": i + 1, "type": "transfer", "card": CARD_STR[c], "to": nd + 1}
    if show:
        s.last["show"] = True
    settle(s)


def _take(s: GameState, i: int, a: dict) -> None:
    if i != s.defender or not s.atk:
        raise IllegalAction("not_your_turn", "you are not defending")
    if s.took:
        raise IllegalAction("already_took", "you already said «Беру»")
    if -1 not in s.dfn:
        raise IllegalAction("nothing_to_take", "every card is beaten")
    s.took = True
    s.last = (i + 1, "take", None, None)
    settle(s)


def _pass(s: GameState, i: int, a: dict) -> None:
    if not s.atk:
        raise IllegalAction("not_your_turn", "lead a card: the table is empty")
    if i == s.defender:
        raise IllegalAction("not_your_turn", "the defender cannot pass; defend or take")
    elig = s.elig
    if not elig >> i & 1:
        raise IllegalAction("not_your_turn", "you do not throw in this round")
    passed = s.passed
    if passed >> i & 1:
        raise IllegalAction("already_passed", "you already passed")
    # has_right() and throw_cards(), inlined
    hands = s.hands
    room = len(s.atk) < s.limit and s.dfn.count(-1) < hands[s.defender].bit_count()
    rm = -1 if s.rules.cheater else s.rmask
    st = s.starter
    if (
        s.rules.throw_in != "anyone"
        and i != st
        and room
        and (elig & ~passed) >> st & 1
        and hands[st] & rm
    ):
        raise IllegalAction("not_your_turn", f"seat {st + 1} throws in first (000 §7)")
    if not room or not hands[i] & rm:
        raise IllegalAction("not_your_turn", "you have nothing to throw in")
    s.passed |= 1 << i
    s.last = (i + 1, "pass", None, None)
    settle(s)


def swap_card(s: GameState) -> int:
    """The lowest trump of the deck (6 in 36, 9 in 24, 2 in 52), the card that may be swapped."""
    return LOWEST_RANK[s.rules.deck_size] * 4 + s.trump


def swap_allowed(s: GameState, i: int) -> bool:
    """Менка (002): holder of the lowest trump, at a round start, face-up trump still under the
    stock, once per game, by the trump_swap setting."""
    who = s.rules.trump_swap
    if who == "nobody" or s.swap_used or s.atk or s.phase != "play" or len(s.stock) < 2:
        return False
    if who == "humans" and s.bots >> i & 1:
        return False
    if who == "bots" and not s.bots >> i & 1:
        return False
    return bool(s.hands[i] & BIT[swap_card(s)])


def _swap_trump(s: GameState, i: int, a: dict) -> None:
    c = own_card(s, i, a)
    if c != swap_card(s) or not swap_allowed(s, i):
        raise IllegalAction("swap_not_allowed", "you may not swap the trump now")
    up = s.trump_card
    s.hands = s.hands[:]
    s.hands[i] = (s.hands[i] & ~BIT[c]) | BIT[up]
    s.stock = s.stock[:-1] + (c,)
    s.trump_card = c
    s.swap_used = True
    s.last = {"seat": i + 1, "type": "swap_trump", "card": CARD_STR[c], "took": CARD_STR[up]}
    settle(s)


_HANDLERS: dict[str, Callable[[GameState, int, dict], None]] = {
    "attack": _attack,
    "defend": _defend,
    "transfer": _transfer,
    "take": _take,
    "pass": _pass,
    "swap_trump": _swap_trump,
    "catch": catch,
    "resign": _take,  # never dispatched: _apply handles resign before the phase checks
}


# ---------------------------------------------------------------- legal

def legal_actions(state: GameState, seat: Any) -> list[dict]:
    """Every action ``seat`` may take now, one dict per concrete move, in the action JSON form;
    [] for a seat with nothing to do (or not at the table). Resign is always possible and is not
    listed."""
    if type(state) is not GameState or type(seat) is not int or not 0 < seat <= state.n:
        return []
    s = state
    i = seat - 1
    if s.phase != "play" or s.out_mask >> i & 1:
        if s.phase == "check" and not s.out_mask >> i & 1:
            res: list[dict] = []
            _add_catches(s, i, res)
            return res
        return []
    res = []
    if not s.atk:
        if i == s.starter:
            h = s.hands[i]
            res = [
                {"type": "attack", "card": x}
                for x in _C0[h & 8191] + _C1[(h >> 13) & 8191] + _C2[(h >> 26) & 8191]
                + _C3[h >> 39]
            ]
        if s.rules.trump_swap != "nobody" and swap_allowed(s, i):
            res.append({"type": "swap_trump", "card": CARD_STR[swap_card(s)]})
        return res
    if i == s.defender:
        if not s.took and -1 in s.dfn:
            _defender_moves(s, i, s.hands[i], res)
            res.append({"type": "take"})
    elif (
        s.elig >> i & 1
        and len(s.atk) < s.limit
        and s.dfn.count(-1) < s.hands[s.defender].bit_count()
    ):  # can_add() and has_right(), inlined (starter_open() = the starter has a throw)
        hands = s.hands
        rm = -1 if s.rules.cheater else s.rmask
        passed = s.passed
        st = s.starter
        if s.rules.throw_in == "anyone" or not passed >> i & 1 and (
            i == st or not ((s.elig & ~passed) >> st & 1 and hands[st] & rm)
        ):
            m = hands[i] & rm
            if m:
                res = [
                    {"type": "attack", "card": x}
                    for x in _C0[m & 8191] + _C1[(m >> 13) & 8191] + _C2[(m >> 26) & 8191]
                    + _C3[m >> 39]
                ]
                if not passed >> i & 1:
                    res.append({"type": "pass"})
    if s.rules.cheater:
        _add_catches(s, i, res)
    return res


def _defender_moves(s: GameState, i: int, hand: int, res: list[dict]) -> None:
    cheater = s.rules.cheater
    beaters = BEATERS[s.trump]
    for k, t in enumerate(s.atk):
        if s.dfn[k] >= 0:
            continue
        m = hand if cheater else hand & beaters[t]
        if m:
            ts = CARD_STR[t]
            res += [{"type": "defend", "card": x, "target": ts} for x in card_strs(m)]
    if s.rules.variant != "perevodnoy" or s.dfn.count(-1) != len(s.dfn):
        return  # podkidnoy, or a card is already beaten: no transfer (000 §8)
    m = hand if cheater else honest_transfer_cards(s, i)
    if m and transfer_problem(s, i, 1)[0] is None:
        while m:
            low = m & -m
            res.append({"type": "transfer", "card": CARD_STR[low.bit_length() - 1]})
            m ^= low
    m = show_cards(s, i)
    if m and transfer_problem(s, i, 0)[0] is None:
        while m:
            low = m & -m
            res.append({"type": "transfer", "card": CARD_STR[low.bit_length() - 1], "show": True})
            m ^= low


def _add_catches(s: GameState, i: int, res: list[dict]) -> None:
    for c in catch_targets(s, i):
        res.append({"type": "catch", "card": CARD_STR[c]})


def trump_mask(s: GameState) -> int:
    return SUIT_MASK[s.trump]
