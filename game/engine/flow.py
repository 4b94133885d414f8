"""Round flow: who may throw in, when a round closes, refill, going out, the result.

All functions here mutate the fresh copy that apply_action works on.
"""
from __future__ import annotations

from game.engine.cards import BIT
from game.engine.seats import (
    _NEXT_ACTIVE,
    _NEXT_OPPONENT,
    _OPPONENTS,
    _SEATS_OF,
    SEAT_BIT,
    is_active,
    next_opponent,
    partner,
    team_of,
)
from game.engine.state import GameState
from game.engine.types import RoundEnd

MAX_MOVES = 5000     # hard cap on actions in one game (bot games can never loop)
STALL_ROUNDS = 100   # rounds without the discard growing or anyone going out → draw


def round_cap(s: GameState) -> int:
    """The attack-card cap of this round before the defender's hand: first_round_limit in round 1,
    round_limit after (None = «больше шести»; docs/RULES.md#attack-limit)."""
    r = s.rules
    return r._cap1 if s.round == 1 else r._capn  # precomputed in Rules.__post_init__


def room(s: GameState) -> bool:
    """May one more attack card go on the table? (docs/RULES.md#attack-limit: ≤ limit, unbeaten ≤ hand)"""
    return len(s.atk) < s.limit and s.dfn.count(-1) < s.hands[s.defender].bit_count()


def waits_for_starter(s: GameState, i: int, ranks: int) -> bool:
    """starter_first (docs/RULES.md#throw-in-order): seat i waits while the starter, not passed, holds a card of
    ``ranks`` (the table ranks; every card in cheater mode)."""
    st = s.starter
    return i != st and bool(s.elig & ~s.passed & SEAT_BIT[st]) and bool(s.hands[st] & ranks)


def throw_mask(s: GameState, i: int) -> int:
    """The throw-in right, written once: the cards thrower i (not the defender) may throw in now
    (0: none), the table being non-empty. Eligible (not the defender's partner, not out), room on
    the table (room), cards of a table rank (any card in cheater mode), and with starter_first
    not passed and not waiting for the starter (waits_for_starter); with anyone (docs/RULES.md#throw-in-order) a pass does
    not stop a later throw. Those two helpers are inlined here: this runs for every thrower after
    most moves (defender_done, legal_actions).

    An awaited thrower (in ``s.turn``) skips the tests defender_done made before awaiting him
    (eligible, room, not passed: the usual caller, and room is two method calls); whether the
    starter still goes first is asked again, as it reads another hand (a bot's sampled world
    keeps the real ``turn`` but deals the hidden hands anew)."""
    bit = SEAT_BIT[i]
    rules = s.rules
    ranks = -1 if rules.cheater else s.rmask
    hands = s.hands
    m = hands[i] & ranks
    if not m:
        return 0
    if not s.turn & bit:
        if not s.elig & bit or len(s.atk) >= s.limit or s.dfn.count(-1) >= hands[s.defender].bit_count():
            return 0
        if rules.throw_in == "anyone":
            return m
        if s.passed & bit:
            return 0
    elif rules.throw_in == "anyone":
        return m
    st = s.starter
    if i != st and s.elig & ~s.passed & SEAT_BIT[st] and hands[st] & ranks:
        return 0
    return m


def settle(s: GameState) -> None:
    """After an action: close the round if nobody can or will act, else cache who is awaited
    (``s.turn``)."""
    if s.phase != "play":
        s.turn = 0
    elif not s.atk:
        s.turn = SEAT_BIT[s.starter]
    elif not s.took and -1 in s.dfn:
        s.turn = SEAT_BIT[s.defender]
    else:
        defender_done(s)


def defender_done(s: GameState) -> None:
    """The defender has nothing left to do (every card beaten, or «Беру»): await the throwers
    who may and can still add (the right, not passed, room on the table, something to throw),
    else close the round (at once with auto_bito, docs/RULES.md#auto-bito). This is throw_mask for every thrower,
    inlined (it runs after most moves: calling throw_mask per seat cost 7-9 % more instructions
    per random game); tests/engine/test_throw_in.py holds the two to the same answer."""
    rules = s.rules
    took = s.took
    if took or not rules.auto_bito:  # docs/RULES.md#auto-bito
        elig = s.elig & ~s.passed
        hands = s.hands
        # room(): unbeaten cards < the defender's hand; with all beaten (not took) that is
        # "the defender holds a card", without counting either
        if elig and len(s.atk) < s.limit and (
            s.dfn.count(-1) < hands[s.defender].bit_count() if took else hands[s.defender]
        ):
            rmask = -1 if rules.cheater else s.rmask
            if rules.throw_in == "starter_first":  # the starter first (docs/RULES.md#throw-in-order)
                st = s.starter
                if elig & SEAT_BIT[st]:
                    if hands[st] & rmask:
                        s.turn = SEAT_BIT[st]
                        return
                    elig ^= SEAT_BIT[st]
            m = 0
            for j in _SEATS_OF[elig]:
                if hands[j] & rmask:
                    m |= SEAT_BIT[j]
            if m:
                s.turn = m
                return
    how: RoundEnd = "take" if took else "bito"
    if rules.cheater:  # docs/RULES.md#check-phase: it comes before the close
        s.phase = "check"
        s.pending = how
        s.turn = 0
    else:
        finish_round(s, how)


# BIT extended so that index -1 (the defence of an unbeaten slot) maps to no card
_TABLE_BIT = (*BIT, 0)
_table_bit = _TABLE_BIT.__getitem__  # bound once: a bound method is an allocation
_bit = BIT.__getitem__


def table_mask(s: GameState) -> int:
    """The cards on the table as a mask (a sum of distinct bits is their union)."""
    return sum(map(_table_bit, s.atk)) + sum(map(_table_bit, s.dfn))


def finish_round(s: GameState, how: str, cheater: int = -1) -> None:
    """Move the table (bito: discard; take: defender; caught: the cheater), refill (docs/RULES.md#refill), mark
    players out (docs/RULES.md#going-out), decide the game or set up the next round."""
    d = s.defender
    cards = sum(map(_table_bit, s.atk)) + sum(map(_table_bit, s.dfn))  # table_mask(s), inlined
    hands = s.hands = [*s.hands]  # take / refill change hands: never mutate the caller's list
    if how == "bito":
        s.discard |= cards
        s.gone |= cards
        after = "bito"
    elif how == "take":
        hands[d] |= cards
        s.known |= cards  # the seat memory: everyone saw them go to him
        after = "take"
    else:  # "caught" (docs/RULES.md#cheater): the cheater takes everything
        hands[cheater] |= cards
        s.known |= cards
        after = "take" if cheater == d else "bito"
    s.atk = ()
    s.dfn = ()
    s.atk_by = ()
    s.cheats = 0
    s.rmask = 0
    s.pending = None
    last = s.last  # the last event, marked with how the round closed (events.py)
    s.last = (last[0], last[1], last[2], last[3], how, last[5]) if last else (
        None, None, None, None, how, None)

    out = s.out_mask
    order = _REFILL.get((s.n, s.leader, d, out)) or _refill_order(s)
    stock = s.stock
    refill = s.rules.refill
    if refill and stock:
        for i in order:
            need = 6 - hands[i].bit_count()
            if need > 0 and stock:
                hands[i] |= sum(map(_bit, stock[:need]))  # distinct cards: | = +
                stock = stock[need:]
                if not stock:  # everyone saw who drew the face-up trump
                    s.known |= BIT[s.trump_card]
        s.stock = stock
    went_out = False
    if not refill or not stock:
        for i in order:
            if not hands[i]:
                if not went_out:
                    went_out = True
                    s.out = s.out[:]  # "out" is replaced, never mutated
                s.out.append(i)
                out |= 1 << i
        s.out_mask = out

    # progress bookkeeping for the hard cap
    dc = s.discard.bit_count()
    if dc > s.best or went_out:
        s.best = max(s.best, dc)
        s.stall = 0
    else:
        s.stall += 1

    if out and _decide(s, d):
        return
    if s.stall >= STALL_ROUNDS:
        set_result(s, None, [], [], True, "cap")
        return
    _next_round(s, after, d)


_ALL_SEATS = tuple((1 << n) - 1 for n in range(7))  # mask of every seat of an n-seat table
_ROT = {n: tuple(tuple((a + k) % n for k in range(n)) for a in range(n)) for n in range(2, 7)}


_REFILL: dict[tuple[int, int, int, int], tuple[int, ...]] = {}


def _refill_order(s: GameState) -> tuple[int, ...]:
    """refill_order as a tuple, memoised on (players, leader, defender, out seats) (finish_round
    looks the memo up itself first)."""
    key = (s.n, s.leader, s.defender, s.out_mask)
    order = _REFILL.get(key)
    if order is None:
        order = _REFILL[key] = tuple(refill_order(s))
    return order


def refill_order(s: GameState) -> list[int]:
    """Leader first, then the others clockwise, the defender last (docs/RULES.md#refill); active seats only."""
    d = s.defender
    out = s.out_mask
    order = [j for j in _ROT[s.n][s.leader] if j != d and not out >> j & 1]
    if not out >> d & 1:
        order.append(d)
    return order


def _decide(s: GameState, last_defender: int) -> bool:
    """Set the result if the game is over (docs/RULES.md#end, docs/RULES.md#pairs-end). True if it ended."""
    n = s.n
    if not s.out_mask:
        return False
    if s.pairs:
        team_out = [s.out_mask & 0b0101 == 0b0101, s.out_mask & 0b1010 == 0b1010]
        if not (team_out[0] or team_out[1]):
            return False
        if team_out[0] and team_out[1]:
            if s.rules.draw:
                set_result(s, None, [], [], True, "normal")
            else:  # draw off: the last defender's pair loses (docs/RULES.md#pairs-end)
                lose = last_defender % 2
                set_result(s, None, [lose + 1, lose + 3], [2 - lose, 4 - lose], False, "normal")
            return True
        win = 0 if team_out[0] else 1
        lose = 1 - win
        set_result(s, None, [lose + 1, lose + 3], [win + 1, win + 3], False, "normal")
        return True
    if n - s.out_mask.bit_count() > 1:
        return False
    active = [j for j in range(n) if is_active(s, j)]
    if len(active) == 1:
        loser = active[0]
    elif s.rules.draw:
        set_result(s, None, [], [], True, "normal")
        return True
    else:  # draw off: all emptied at once → the last defender loses (docs/RULES.md#end)
        loser = last_defender
    set_result(
        s, loser + 1, [loser + 1], [j + 1 for j in range(n) if j != loser], False, "normal"
    )
    return True


def set_result(
    s: GameState,
    loser: int | None,
    losers: list[int],
    winners: list[int],
    draw: bool,
    reason: str,
) -> None:
    """End the game (seats are 1-based here)."""
    s.result = {
        "loser": loser,
        "losers": sorted(losers),
        "winners": sorted(winners),
        "draw": draw,
        "reason": reason,
    }
    s.phase = "over"
    s.pending = None
    s.turn = 0
    # a game ended mid-round (resign, timeout, cap) leaves its cards on the table


def resign_result(s: GameState, i: int, reason: str) -> None:
    """Leaving = loss, the game ends at once; in pairs the pair loses (docs/RULES.md#leaving)."""
    losers = [j + 1 for j in team_of(s, i)]
    winners = [j + 1 for j in range(s.n) if j + 1 not in losers]
    set_result(s, i + 1, losers, winners, False, reason)


def _next_round(s: GameState, after: str, d: int) -> None:
    """Who leads next (docs/RULES.md#next-round) and the new round's limit (docs/RULES.md#attack-limit)."""
    out = s.out_mask
    if after == "bito":
        if not out & SEAT_BIT[d]:
            lead = d
        elif s.pairs and is_active(s, partner(s, d)):
            lead = partner(s, d)  # the lone partner plays for both (docs/RULES.md#pairs-end)
        else:
            lead = _NEXT_ACTIVE[s.n][out][d]  # next_active(s, d)
    else:
        lead = next_opponent(s, d) if s.pairs else _NEXT_ACTIVE[s.n][out][d]
    s.round += 1
    start_round(s, lead)


def start_round(s: GameState, lead: int) -> None:
    """Reset the per-round fields for a round led by ``lead`` (the defender is his next
    opponent; next_opponent, thrower_mask and round_cap inlined: this runs every round)."""
    n = s.n
    out = s.out_mask
    d = _NEXT_OPPONENT[n, s.pairs][out][lead]
    s.leader = lead
    s.starter = lead
    s.defender = d
    elig = _ALL_SEATS[n] & ~(out | 1 << d)
    s.elig = elig & _OPPONENTS[d & 1] if s.pairs else elig
    s.took = False
    s.passed = 0
    s.shown = 0
    s.banned = 0
    s.phase = "play"
    s.pending = None
    r = s.rules
    cap = r._cap1 if s.round == 1 else r._capn
    h = s.hands[d].bit_count()
    s.limit = cap if cap < h else h
    s.turn = SEAT_BIT[lead]
