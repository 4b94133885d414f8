"""apply_action and legal_actions: the two halves of the move contract, kept in one module so
that what legal_actions lists is exactly what apply_action accepts."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn, cast

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
    chunk_tables,
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
from game.engine.events import event
from game.engine.flow import (
    MAX_MOVES,
    defender_done,
    resign_result,
    room,
    round_cap,
    set_result,
    settle,
    throw_mask,
    waits_for_starter,
)
from game.engine.seats import SEAT_BIT, is_active, thrower_mask
from game.engine.state import NATIVE, GameState, clone
from game.engine.types import Action

RESIGN_REASONS = ("resign", "timeout")
_C0, _C1, _C2, _C3 = CHUNKS


# ---------------------------------------------------------------- apply

def apply_action(state: GameState | Any, seat: int | Any, action: Any) -> GameState:
    """Apply ``action`` (JSON dict) by ``seat`` (1-based) and return a NEW state; the input is
    never changed. Anything wrong raises IllegalAction(code, message), never another type."""
    try:
        if type(state) is not GameState:
            raise IllegalAction("bad_state", "not a GameState")
        if type(seat) is not int or not 0 < seat <= state.n:
            raise IllegalAction("no_such_seat", f"no seat {str(seat)[:20]!r} at this table")
        if type(action) is not dict and not isinstance(action, dict):
            raise IllegalAction("bad_action", "an action must be a JSON object with a 'type'")
        t = action.get("type")
        handler = _HANDLERS.get(t) if type(t) is str else None
        if handler is None:
            raise IllegalAction("unknown_action", f"unknown action type {str(t)[:20]!r}")
        i = seat - 1
        if state.phase != "play" or handler is _resign or state.out_mask & SEAT_BIT[i]:
            resigned = _off_the_hot_path(state, i, t, action)  # raises, or resigns
            if resigned is not None:
                return resigned
        # shallow clone: every handler replaces (never mutates) the lists it changes
        if NATIVE:  # compiled (game/engine/build.py): a native class, copied field by field
            s = clone(state)
        else:
            s = GameState()
            s.__dict__ = state.__dict__.copy()
        handler(s, i, action)
        s.moves = m = state.moves + 1  # no handler changes moves
        if m >= MAX_MOVES and s.phase != "over":
            set_result(s, None, [], [], True, "cap")
        return s
    except IllegalAction:
        raise
    except Exception as e:  # defensive: the contract is "only IllegalAction"
        raise IllegalAction("internal_error", f"engine error: {e!r}") from e


def _off_the_hot_path(state: GameState, i: int, t: str | None, action: dict[str, Any]) -> GameState | None:
    """apply_action's rarer cases, kept out of its hot path: the game is over, the check phase
    (only catches), resign, a seat that is out. Raises, returns the resigned state, or None when
    the action goes on as usual (a catch in the check phase)."""
    if state.phase == "over":
        raise IllegalAction("game_over", "the game is over")
    if state.phase != "play" and t != "catch" and t != "resign":
        raise IllegalAction("check_phase", "the round is being checked: only catches are allowed")
    if t == "resign":
        reason = action.get("reason", "resign")
        if type(reason) is not str or reason not in RESIGN_REASONS:
            raise IllegalAction("bad_action", "reason must be 'resign' or 'timeout'")
        return do_resign(state, i, reason)
    if state.out_mask & SEAT_BIT[i]:
        raise IllegalAction("player_out", "you have finished this game")
    return None


def check_seat(state: Any, seat: Any) -> int:
    """0-based seat index or IllegalAction."""
    if not isinstance(state, GameState):
        raise IllegalAction("bad_state", "not a GameState")
    if type(seat) is not int or not 1 <= seat <= state.n:
        raise IllegalAction("no_such_seat", f"no seat {str(seat)[:20]!r} at this table")
    return seat - 1


def do_resign(state: GameState, i: int, reason: str) -> GameState:
    """Leaving = loss (docs/RULES.md#leaving); an each-for-himself player who is already out has nothing to
    lose."""
    if state.phase == "over":
        raise IllegalAction("game_over", "the game is over")
    if not state.pairs and not is_active(state, i):
        raise IllegalAction("player_out", "you have already finished this game")
    s = state.copy()
    resign_result(s, i, reason)
    s.last = event(i + 1, "resign", None, reason=reason)
    s.moves += 1
    return s


def _place_attack(s: GameState, i: int, c: int, honest: bool) -> None:
    """Lay an attack card (transfer path; copies the hands list it changes)."""
    k = len(s.atk)
    s.atk = s.atk + (c,)
    s.dfn = s.dfn + (-1,)
    s.atk_by = s.atk_by + (i,)
    s.hands = [*s.hands]
    s.hands[i] &= ~BIT[c]
    s.rmask |= RANK_OF[c]
    if not honest:
        s.cheats |= 1 << k


_CODE = CARD_CODE.get
_ONE_CARD = tuple((c,) for c in range(52))
_ONE_SEAT = tuple((j,) for j in range(6))
_UNBEATEN = (-1,)


def _attack(s: GameState, i: int, a: dict[str, Any]) -> None:
    """Lead a round with any card (docs/RULES.md#round) or throw in a card of a rank on the table
    (docs/RULES.md#throw-in-ranks).
    The card check (_card) is inlined here and in _defend: these two are most of all moves."""
    atk = s.atk
    if not atk:  # leading a round
        if i != s.starter:
            raise IllegalAction("not_your_turn", f"seat {s.starter + 1} leads this round")
        v = a.get("card")
        c = _CODE(v) if type(v) is str else None
        if c is None:
            c = card_field(a)  # raises bad_card with a helpful message
        bit = BIT[c]
        if not s.hands[i] & bit:
            raise IllegalAction("card_not_in_hand", "you do not hold that card")
        s.atk = _ONE_CARD[c]  # shared one-element tuples: a lead allocates no table
        s.dfn = _UNBEATEN
        s.atk_by = _ONE_SEAT[i]
        s.rmask = RANK_OF[c]  # the table was empty
    else:
        if i == s.defender:
            raise IllegalAction("not_your_turn", "the defender cannot throw in")
        if not s.elig >> i & 1:
            raise IllegalAction("not_your_turn", "you may not throw in to your partner")
        v = a.get("card")
        c = _CODE(v) if type(v) is str else None
        if c is None or not throw_mask(s, i) & BIT[c]:
            _refuse_throw_in(s, i, a)  # raises
        bit = BIT[c]
        rules = s.rules
        dfn = s.dfn
        rank = RANK_OF[c]
        if not s.rmask & rank:  # only listed in cheater mode
            s.cheats |= 1 << len(atk)
        if rules.throw_in == "anyone":
            s.passed = 0  # a new card resets the passes (docs/RULES.md#throw-in-order)
        s.atk = atk + _ONE_CARD[c]  # tuple + shared tuple: one allocation each
        s.dfn = dfn + _UNBEATEN
        s.atk_by = s.atk_by + _ONE_SEAT[i]
        s.rmask |= rank
    s.hands = hands = [*s.hands]  # [*x] copies without building a slice object
    hands[i] ^= bit
    s.last = (i + 1, "attack", v, None, None, None)
    if s.took:
        settle(s)
    else:  # a fresh unbeaten card: the defender is awaited (what settle() would find)
        s.turn = SEAT_BIT[s.defender]


def _refuse_throw_in(s: GameState, i: int, a: dict[str, Any]) -> NoReturn:
    """Why seat i may not throw in card ``a["card"]`` (throw_mask said no), checked in the order
    players expect: a pass, the starter's turn, the card, the room, the rank."""
    rules = s.rules
    ranks = -1 if rules.cheater else s.rmask
    has_room = room(s)
    if rules.throw_in == "starter_first":
        if s.passed >> i & 1:
            raise IllegalAction("already_passed", "you already passed this round")
        if has_room and waits_for_starter(s, i, ranks):
            raise IllegalAction("not_your_turn", f"seat {s.starter + 1} throws in first")  # docs/RULES.md#throw-in-order
    c = card_field(a)
    if not s.hands[i] & BIT[c]:
        raise IllegalAction("card_not_in_hand", "you do not hold that card")
    if not has_room:
        raise IllegalAction("limit_reached", "no more cards may be thrown in this round")
    raise IllegalAction("rank_not_on_table", "you may only throw in ranks on the table")


def _defend(s: GameState, i: int, a: dict[str, Any]) -> None:
    """Beat one unbeaten attack card (docs/RULES.md#defence); in cheater mode any card may be laid."""
    atk = s.atk
    if i != s.defender or not atk:
        raise IllegalAction("not_your_turn", "you are not defending")
    if s.took:
        raise IllegalAction("already_took", "you already said «Беру»")
    vt = a.get("target")
    t = _CODE(vt) if type(vt) is str else None
    if t is None:
        t = card_field(a, "target", "bad_target")
    dfn = s.dfn
    try:
        k = atk.index(t)
    except ValueError:
        k = -1
    if k < 0 or dfn[k] >= 0:
        raise IllegalAction("bad_target", "target must be an unbeaten attack card on the table")
    v = a.get("card")
    c = _CODE(v) if type(v) is str else None
    if c is None:
        c = card_field(a)
    bit = BIT[c]
    hands = s.hands
    if not hands[i] & bit:
        raise IllegalAction("card_not_in_hand", "you do not hold that card")
    if not BEATERS[s.trump][t] & bit:
        if not s.rules.cheater:
            raise IllegalAction("does_not_beat", f"{v} does not beat {vt}")
        s.cheats |= 1 << (16 + k)
    # one attack card (the usual case): a shared tuple; else rebuild around slot k
    s.dfn = dfn = _ONE_CARD[c] if len(dfn) == 1 else dfn[:k] + _ONE_CARD[c] + dfn[k + 1:]
    s.hands = hands = [*hands]
    hands[i] ^= bit
    s.rmask |= RANK_OF[c]
    if s.rules.throw_in == "anyone":
        s.passed = 0
    s.last = (i + 1, "defend", v, vt, None, None)
    if -1 in dfn:  # what settle() would find: the defender is still awaited
        s.turn = SEAT_BIT[i]
    else:
        defender_done(s)


def _transfer(s: GameState, i: int, a: dict[str, Any]) -> None:
    show = a.get("show", False)
    if type(show) is not bool:
        raise IllegalAction("bad_action", "'show' must be true or false")
    code, problem = transfer_problem(s, i, 0 if show else 1)
    if code is not None:
        raise IllegalAction(code, cast(str, problem))
    nd = cast(int, problem)
    c = own_card(s, i, a)
    if show:
        if not s.rules.transfer_by_showing_trump:
            raise IllegalAction("transfer_not_allowed", "transfer by showing a trump is off")
        if s.shown >> i & 1:
            raise IllegalAction("transfer_not_allowed", "you already showed a trump this round")
        if not show_cards(s, i) & BIT[c]:
            raise IllegalAction("rank_mismatch", "show a trump of the rank on the table")
        s.shown |= 1 << i
        s.known |= BIT[c]
    else:
        honest = bool(honest_transfer_cards(s, i) & BIT[c])
        if not honest and not s.rules.cheater:
            if s.rmask != RANK_OF[c]:
                raise IllegalAction("rank_mismatch", "transfer with a card of the attack's rank")
            raise IllegalAction("transfer_not_allowed", "no transfer with a trump at this table")
        _place_attack(s, i, c, honest)
    s.defender = nd
    s.elig = thrower_mask(s)
    s.starter = i  # the transferrer throws in first (docs/RULES.md#transfer)
    s.passed = 0
    s.limit = min(round_cap(s), s.hands[nd].bit_count())
    if show:
        s.last = event(i + 1, "transfer", CARD_STR[c], to=nd + 1, show=True)
    else:
        s.last = event(i + 1, "transfer", CARD_STR[c], to=nd + 1)
    settle(s)


def _take(s: GameState, i: int, a: dict[str, Any]) -> None:
    if i != s.defender or not s.atk:
        raise IllegalAction("not_your_turn", "you are not defending")
    if s.took:
        raise IllegalAction("already_took", "you already said «Беру»")
    if -1 not in s.dfn:
        raise IllegalAction("nothing_to_take", "every card is beaten")
    s.took = True
    s.last = (i + 1, "take", None, None, None, None)
    defender_done(s)  # what settle() would do after «Беру»


def _pass(s: GameState, i: int, a: dict[str, Any]) -> None:
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
    if not throw_mask(s, i):
        if s.rules.throw_in != "anyone" and room(s) and waits_for_starter(
            s, i, -1 if s.rules.cheater else s.rmask
        ):
            raise IllegalAction("not_your_turn", f"seat {s.starter + 1} throws in first")  # docs/RULES.md#throw-in-order
        raise IllegalAction("not_your_turn", "you have nothing to throw in")
    s.passed = passed | 1 << i
    s.last = (i + 1, "pass", None, None, None, None)
    if not s.took and -1 in s.dfn:  # settle(), inlined: the defender is still awaited
        s.turn = SEAT_BIT[s.defender]
    else:
        defender_done(s)


def swap_card(s: GameState) -> int:
    """The lowest trump of the deck (6 in 36, 9 in 24, 2 in 52), the card that may be swapped."""
    return LOWEST_RANK[s.rules.deck_size] * 4 + s.trump


def swap_allowed(s: GameState, i: int) -> bool:
    """Менка (docs/RULES.md#trump-swap): holder of the lowest trump, at a round start, face-up trump still under the
    stock, once per game, by the trump_swap setting."""
    who = s.rules.trump_swap
    if who == "nobody" or s.swap_used or s.atk or s.phase != "play" or len(s.stock) < 2:
        return False
    if who == "humans" and s.bots >> i & 1:
        return False
    if who == "bots" and not s.bots >> i & 1:
        return False
    return bool(s.hands[i] & BIT[swap_card(s)])


def _swap_trump(s: GameState, i: int, a: dict[str, Any]) -> None:
    c = own_card(s, i, a)
    if c != swap_card(s) or not swap_allowed(s, i):
        raise IllegalAction("swap_not_allowed", "you may not swap the trump now")
    up = s.trump_card
    s.hands = s.hands[:]
    s.hands[i] = (s.hands[i] & ~BIT[c]) | BIT[up]
    s.stock = s.stock[:-1] + (c,)
    s.trump_card = c
    s.swap_used = True
    s.known |= BIT[up]
    s.last = event(i + 1, "swap_trump", CARD_STR[c], took=CARD_STR[up])
    settle(s)


def _resign(s: GameState, i: int, a: dict[str, Any]) -> None:
    """Never called: apply_action sends resign to do_resign (it needs the original state)."""
    raise IllegalAction("internal_error", "resign is not dispatched as a move")


_HANDLERS: dict[str, Callable[[GameState, int, dict[str, Any]], None]] = {
    "attack": _attack,
    "defend": _defend,
    "transfer": _transfer,
    "take": _take,
    "pass": _pass,
    "swap_trump": _swap_trump,
    "catch": catch,
    "resign": _resign,
}


# ---------------------------------------------------------------- legal

# Every listed action is a fresh copy of a template dict (callers may keep or change what they
# get): map(dict.copy, ...) runs in C, cheaper than building each dict in a comprehension.
_copy = cast("Callable[[Any], Action]", dict.copy)  # the tables hold Action-shaped dicts
# attack templates by 13-bit mask slice (cards.chunk_tables): listing a hand's attacks is four
# subscripts and one map, no per-card lookup
_A0, _A1, _A2, _A3 = chunk_tables([{"type": "attack", "card": x} for x in CARD_STR])
_TRANSFER_T = {x: {"type": "transfer", "card": x} for x in CARD_STR}.__getitem__
_SHOW_T = {x: {"type": "transfer", "card": x, "show": True} for x in CARD_STR}.__getitem__
# _DEFEND_T[target code](card string) → {"type": "defend", "card": ..., "target": ...}
_DEFEND_T = tuple(
    {x: {"type": "defend", "card": x, "target": CARD_STR[t]} for x in CARD_STR}.__getitem__
    for t in range(52)
)


def legal_actions(state: GameState | Any, seat: Any) -> list[Action]:
    """Every action ``seat`` may take now, one dict per concrete move, in the action JSON form;
    [] for a seat with nothing to do (or not at the table). Resign is always possible and is not
    listed. Order: attacks/defences lowest card first (defences by table slot), transfers, take
    or pass, swap, catches."""
    if type(state) is not GameState or type(seat) is not int or not 0 < seat <= state.n:
        return []
    s = state
    i = seat - 1
    bit = SEAT_BIT[i]
    if s.phase != "play" or s.out_mask & bit:
        res: list[Action] = []
        if s.phase == "check" and not s.out_mask & bit:
            _add_catches(s, i, res)
        return res
    rules = s.rules
    atk = s.atk
    hands = s.hands
    if not atk:
        if i == s.starter:
            m = hands[i]
            res = list(map(_copy, (
                _A0[m & 8191] + _A1[m >> 13 & 8191] + _A2[m >> 26 & 8191] + _A3[m >> 39]
            )))
        else:
            res = []
        if rules.trump_swap != "nobody" and swap_allowed(s, i):
            res.append({"type": "swap_trump", "card": CARD_STR[swap_card(s)]})
        return res
    if i == s.defender:
        res = _defender_moves(s, i) if not s.took and -1 in s.dfn else []
    else:  # a thrower
        m = throw_mask(s, i)
        if m:
            res = list(map(_copy, (
                _A0[m & 8191] + _A1[m >> 13 & 8191] + _A2[m >> 26 & 8191] + _A3[m >> 39]
            )))
            if not s.passed & bit:
                res.append({"type": "pass"})
        else:
            res = []
    if rules.cheater:
        _add_catches(s, i, res)
    return res


def _defender_moves(s: GameState, i: int) -> list[Action]:
    """Defences of every unbeaten card, transfers (perevodnoy, nothing beaten yet), then take."""
    hand = s.hands[i]
    cheater = s.rules.cheater
    beaters = BEATERS[s.trump]
    dfn = s.dfn
    res: list[Action] = []
    for k, t in enumerate(s.atk):  # (zip(..., strict=False) costs twice as much: a kw call)
        if dfn[k] < 0:
            m = hand if cheater else hand & beaters[t]
            if m:
                res += map(_copy, map(_DEFEND_T[t], (
                    _C0[m & 8191] + _C1[m >> 13 & 8191] + _C2[m >> 26 & 8191] + _C3[m >> 39]
                )))
    if (
        s.rules.variant == "perevodnoy"
        and (cheater or hand & s.rmask)  # a transfer (laid or shown) needs a table-rank card
        and dfn.count(-1) == len(dfn)  # nothing beaten yet (docs/RULES.md#transfer)
    ):
        _add_transfers(s, i, hand, cheater, res)
    res.append({"type": "take"})
    return res


def _add_transfers(s: GameState, i: int, hand: int, cheater: bool, res: list[Action]) -> None:
    """Transfer options of the defender (perevodnoy, nothing beaten): by laying a card of the
    table rank (any card in cheater mode), and by showing the trump of that rank (docs/RULES.md#transfer-by-showing-trump)."""
    m = hand if cheater else honest_transfer_cards(s, i)
    if m and transfer_problem(s, i, 1)[0] is None:
        res += map(_copy, map(_TRANSFER_T, card_strs(m)))
    if s.rules.transfer_by_showing_trump:
        m = show_cards(s, i)
        if m and transfer_problem(s, i, 0)[0] is None:
            res += map(_copy, map(_SHOW_T, card_strs(m)))


def _add_catches(s: GameState, i: int, res: list[Action]) -> None:
    for c in catch_targets(s, i):
        res.append({"type": "catch", "card": CARD_STR[c]})


def trump_mask(s: GameState) -> int:
    return SUIT_MASK[s.trump]
