"""The table's reads: what each move publicly suggests about the mover's hidden cards.

A player who takes a six when a seven of that suit would have covered it probably had no such
seven; one who leads a nine probably holds no lower plain card; one who passes probably has no plain
card of the table's ranks left. Each move of a seat gives one or two *reads*: the kind of move and
the mask of cards a sound player making it would probably not have held then. Only public facts
go into a read (the card played, the table, the trump, how many cards the seat had drawn unseen so
far), so every seat reads the same list and a bot taking over a seat reads exactly what the seat
could; how strongly a read counts is the belief's business (bots/belief.py), not the rules'.

Only the bots and the analysis use reads, so the rules never record them: a live move, a view and
a saved state cost what they cost without them. A ``Reading`` is built beside the states, from the
game's log (``replay``) or move by move (``advance``) by whoever drives the game for a bot, and
``reading_view`` adds it to the seat's view.

``Read = (seat, kind, mask, drawn)``: 1-based seat, kind (``KINDS``), card mask, and the seat's
unseen draws before the move (its later draws may have brought such cards in since).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from game.engine.cards import BEATERS, CARD_CODE, RANK_OF, SUIT_MASK
from game.engine.checks import transfer_problem
from game.engine.log import apply_event
from game.engine.state import GameState
from game.engine.types import View
from game.engine.views import view_for

Read = tuple[int, str, int, int]
Event = tuple[int | None, Mapping[str, Any]]  # (seat or None for a server event, the action)


# lead: no cheaper card; throw: no cheaper card of the table's ranks; pass: no plain card of the
# table's ranks; cover: no cheaper cover of that card; take / take_trump: no plain / trump cover of
# the one unbeaten card; keep (perevodnoy): no plain card of the attack's rank to transfer with;
# none: a thrower the rules did not await (room on the table, its right to throw, not passed) holds
# no card of the table's ranks at all: a fact, not a habit
KINDS = ("lead", "throw", "pass", "cover", "take", "take_trump", "keep", "none")


def _cheaper(trump: int, c: int) -> int:
    """Cards a habit player spends before ``c``: lower plain ranks for a plain card, every plain
    card and the lower trumps for a trump."""
    plain = (1 << 52) - 1 & ~SUIT_MASK[trump]
    rank = c >> 2
    below = (1 << (rank * 4)) - 1  # every card of a lower rank
    if c & 3 == trump:
        return plain | below & SUIT_MASK[trump]
    return below & plain


CHEAPER: tuple[tuple[int, ...], ...] = tuple(
    tuple(_cheaper(t, c) for c in range(52)) for t in range(4)
)
PLAIN: tuple[int, ...] = tuple(((1 << 52) - 1) & ~SUIT_MASK[t] for t in range(4))


class Reading:
    """The table's reads of a game so far and each seat's draws from the stock since the reading
    began (public counts: a read is dated by them). A value: ``advance`` returns a new one."""

    reads: tuple[Read, ...]
    drawn: tuple[int, ...]

    def __init__(self, reads: tuple[Read, ...], drawn: tuple[int, ...]) -> None:
        self.reads = reads
        self.drawn = drawn


def start(state: GameState) -> Reading:
    """Nothing read yet, at ``state`` (the deal, usually; the draws count from here)."""
    return Reading((), (0,) * state.n)


def advance(r: Reading, before: GameState, after: GameState, seat: int | None,
            action: Mapping[str, Any]) -> Reading:
    """``r`` with the reads of one logged event (``before`` → ``after``; a server event has no
    seat) and the draws of the refill it caused."""
    t = action.get("type")
    new: tuple[Read, ...] = ()
    if seat is not None and (t == "attack" or t == "defend" or t == "take" or t == "pass"):
        new = _move(before, after, seat - 1, t, r.drawn)
    drawn = r.drawn
    k = len(before.stock) - len(after.stock)  # a refill draws from the front of the stock
    if k > 0:
        m = 0
        for c in before.stock[:k]:
            m |= 1 << c
        drawn = tuple([d + (h & m).bit_count() for d, h in zip(drawn, after.hands, strict=True)])
    if not new and k <= 0:
        return r
    return Reading(r.reads + new, drawn)


def replay(initial: GameState, events: Iterable[Event]) -> tuple[GameState, Reading]:
    """The state after a game's logged ``events`` from ``initial`` (log.apply_event, the server's
    interpreter: IllegalAction if one does not apply) and the table's reads along the way."""
    s = initial
    r = start(initial)
    for seat, action in events:
        after = apply_event(s, seat, action)
        r = advance(r, s, after, seat, action)
        s = after
    return s, r


def reading_view(state: GameState, seat: int | None, r: Reading) -> View:
    """``view_for(state, seat)`` with the table's reads, what a bot deciding for ``seat`` (or the
    analysis judging it) is given: ``reads`` [[seat, kind, card mask, drawn], ...] and ``drawn``
    (cards each seat drew from the stock)."""
    view = view_for(state, seat)
    view["reads"] = [[*x] for x in r.reads]
    view["drawn"] = [*r.drawn]
    return view


def _move(before: GameState, s: GameState, i: int, t: str, drawn_by: tuple[int, ...]) -> tuple[Read, ...]:
    """The reads of seat ``i``'s move ``t`` (``before`` → ``s``)."""
    trump = before.trump
    drawn = drawn_by[i] if i < len(drawn_by) else 0
    seat = i + 1
    new: tuple[Read, ...] = ()
    if t == "attack":
        c = _code(s, i)
        if c >= 0 and before.stock:  # with the stock gone, habits lead what nobody can beat
            if before.atk:
                m = CHEAPER[trump][c] & before.rmask
                if m:
                    new = ((seat, "throw", m, drawn),)
            else:
                new = ((seat, "lead", CHEAPER[trump][c], drawn),)
    elif t == "pass":
        m = before.rmask & PLAIN[trump]
        if m:
            new = ((seat, "pass", m, drawn),)
    elif t == "defend":
        c = _code(s, i)
        target = _target(s)
        if c >= 0 and target >= 0:
            m = BEATERS[trump][target] & CHEAPER[trump][c]
            if m:
                new = ((seat, "cover", m, drawn),)
        new = new + _keep(before, i, seat, drawn)
    elif t == "take":
        unbeaten = [a for a, d in zip(before.atk, before.dfn, strict=True) if d < 0]
        if len(unbeaten) == 1:
            b = BEATERS[trump][unbeaten[0]]
            new = ((seat, "take", b & PLAIN[trump], drawn), (seat, "take_trump", b & SUIT_MASK[trump], drawn))
            new = tuple(r for r in new if r[2])
        new = new + _keep(before, i, seat, drawn)
    return new + _none(before, s, i, t, drawn_by)


def _none(before: GameState, s: GameState, i: int, t: str, drawn_by: tuple[int, ...]) -> tuple[Read, ...]:
    """The throwers flow.defender_done found nothing to throw for: with room on the table, a
    thrower that may throw, has not passed and is not awaited holds no card of the table's ranks
    (with starter_first, when the starter is awaited nothing is known of the others)."""
    rules = before.rules
    if rules.cheater or before.phase != "play":
        return ()
    closed = s.round != before.round or s.phase != "play"
    c = _code(s, i) if t in ("attack", "defend") else -1
    if not closed:
        if not s.atk or not (s.took or -1 not in s.dfn):
            return ()  # the defender is awaited: nothing was asked of the throwers
        if not s.took and rules.auto_bito:
            return ()
        rmask, passed, took, n_atk = s.rmask, s.passed, s.took, len(s.atk)
        unbeaten, dcount, awaited = s.dfn.count(-1), s.hands[s.defender].bit_count(), s.turn
        if rules.throw_in == "starter_first" and awaited == 1 << s.starter:
            return ()
    else:
        if not before.atk:
            return ()
        took = before.took or t == "take"
        if not took and rules.auto_bito:
            return ()
        rmask = before.rmask | (RANK_OF[c] if c >= 0 else 0)
        passed = before.passed | (1 << i if t == "pass" else 0)
        n_atk = len(before.atk) + (1 if t == "attack" else 0)
        unbeaten = before.dfn.count(-1) + (1 if t == "attack" else 0) - (1 if t == "defend" else 0)
        dcount = before.hands[before.defender].bit_count() - (1 if t == "defend" else 0)
        awaited = 0
    if n_atk >= before.limit or not (unbeaten < dcount if took else dcount > 0):
        return ()  # no room: the throwers were not asked
    elig = (s.elig if not closed else before.elig) & ~passed & ~awaited
    out: list[Read] = []
    j = 0
    while elig >> j:
        if elig >> j & 1:
            drawn = drawn_by[j] if j < len(drawn_by) else 0
            out.append((j + 1, "none", rmask, drawn))
        j += 1
    return tuple(out)


def _code(s: GameState, i: int) -> int:
    """The card seat ``i`` just laid (the last event's card), as a code; -1 if none."""
    last = s.last
    if last is None or last[2] is None:
        return -1
    return CARD_CODE.get(last[2], -1)


def _target(s: GameState) -> int:
    """The attack card the last defence beat, as a code; -1 if none."""
    last = s.last
    if last is None or last[3] is None:
        return -1
    return CARD_CODE.get(last[3], -1)


def _keep(before: GameState, i: int, seat: int, drawn: int) -> tuple[Read, ...]:
    """Perevodnoy: the defender covered or took where a transfer was open to him."""
    if before.rules.variant != "perevodnoy" or not before.atk:
        return ()
    rank = RANK_OF[before.atk[0]]
    if before.rmask != rank or transfer_problem(before, i, 1)[0] is not None:
        return ()
    m = rank & PLAIN[before.trump]
    for c in before.atk:
        m &= ~(1 << c)
    return ((seat, "keep", m, drawn),) if m else ()
