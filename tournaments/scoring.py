"""Points and tie-breaks: pure (no database), so every rule is tested on its own.

Scores are half-points. Arena: a win 2 (4 while «в ударе», after two wins in a row, until a game
that is not a win), a draw 1, a loss 0; a berserk win adds 1 (not doubled) when the game lasted at
least BERSERK_MIN_MOVES moves. Swiss: a win 2, a draw 1, a loss 0, a bye 2 (shown as 1, ½, 0).

Table arenas: a pod of 3 or 4 scores by the order of going out (POD_POINTS; the durak 0), going out
first is the win (doubled «в ударе», +1 berserk, the streak goes on); a middle place is neither a
win nor a loss: it ends a streak. Pairs 2×2 score like heads-up, by the pair's result.
"""

from __future__ import annotations

from dataclasses import dataclass

WIN, DRAW, LOSS, BYE = "W", "D", "L", "B"
BERSERK_MIN_MOVES = 7  # moves of the whole game (every seat's) before a berserk win earns its bonus
ON_FIRE_AFTER = 2  # wins in a row that make a player «в ударе»
PERFORMANCE_SPREAD = 400  # the performance rating's step per net win, as usual for Elo


@dataclass(frozen=True)
class Scored:
    points: int  # half-points this game earned
    streak: int  # wins in a row after it
    berserk_bonus: bool


def on_fire(streak: int) -> bool:
    return streak >= ON_FIRE_AFTER


def arena(result: str, streak_before: int, berserk: bool = False, moves: int = 0) -> Scored:
    """What one arena game earns, given the player's streak before it."""
    if result == WIN:
        base = 4 if on_fire(streak_before) else 2
        bonus = berserk and moves >= BERSERK_MIN_MOVES
        return Scored(base + (1 if bonus else 0), streak_before + 1, bonus)
    if result == DRAW:
        return Scored(1, 0, False)
    return Scored(0, 0, False)


def swiss(result: str) -> int:
    return {WIN: 2, BYE: 2, DRAW: 1}.get(result, 0)


def performance(opponents_rating: int, games: int, wins: int, draws: int) -> int:
    """Performance rating: the opponents' mean rating plus PERFORMANCE_SPREAD per net win per game
    (a draw is half a win); 0 with no games. The arena's tie-break."""
    if games <= 0:
        return 0
    losses = games - wins - draws
    return round(opponents_rating / games + PERFORMANCE_SPREAD * (wins - losses) / games)


@dataclass(frozen=True)
class SwissGame:
    player: int
    opponent: int | None  # None: a bye
    result: str  # W / D / L / B


def buchholz(player: int, games: list[SwissGame], scores: dict[int, int]) -> int:
    """The sum of his opponents' scores (half-points); a bye adds nothing."""
    return sum(scores.get(g.opponent, 0) for g in games if g.player == player and g.opponent is not None)


def sonneborn_berger(player: int, games: list[SwissGame], scores: dict[int, int]) -> int:
    """Beaten opponents' scores plus half of drawn ones' (in half-points of half-points: ×2)."""
    total = 0
    for g in games:
        if g.player != player or g.opponent is None:
            continue
        if g.result == WIN:
            total += 2 * scores.get(g.opponent, 0)
        elif g.result == DRAW:
            total += scores.get(g.opponent, 0)
    return total


def display(half_points: int) -> str:
    """Half-points as people read them: 5, 2½."""
    whole, half = divmod(half_points, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


POD_POINTS = {3: (2, 1, 0), 4: (3, 2, 1, 0)}  # by place: out first, second, ...; the durak last, 0


def pod_places(seats: list[int], out: list[int], losers: set[int], draw: bool) -> dict[int, int]:
    """Each seat's place at a table of 3 or 4: the durak (or whoever lost by leaving, the clock or a
    ban) last; the others in the order they went out. Those still holding cards when a game stopped
    early (someone left) share the lowest place above the durak's: nobody gains by another's leaving.
    A draw (the last ones out together, no durak): the last one out takes the place before his."""
    n = len(seats)
    places: dict[int, int] = {}
    finished = [s for s in out if s in seats and s not in losers]
    for k, seat in enumerate(finished, start=1):
        places[seat] = k
    still_in = [s for s in seats if s not in losers and s not in places]
    for seat in still_in:
        places[seat] = n - len(losers) if losers else n - 1
    for seat in losers:
        places[seat] = n
    if draw and not losers and finished and len(finished) == n:
        places[finished[-1]] = n - 1
    return places


def pod_mark(place: int, size: int) -> str:
    """His mark in the standings: W out first, L the durak, else his place ("2", "3")."""
    if place == 1:
        return WIN
    return LOSS if place == size else str(place)


def pod(place: int, size: int, streak_before: int, berserk: bool = False, moves: int = 0) -> Scored:
    """What one game at a table of `size` earns for a player in `place`, given his streak before it."""
    base = POD_POINTS[size][place - 1]
    if place == 1:
        bonus = berserk and moves >= BERSERK_MIN_MOVES
        return Scored(base * (2 if on_fire(streak_before) else 1) + (1 if bonus else 0), streak_before + 1, bonus)
    return Scored(base, 0, False)
