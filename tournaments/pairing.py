"""Who plays whom: the pure part of tournament pairing (no database), tested on its own.

Both formats use networkx's maximum-weight matching (Edmonds' blossom algorithm) on a graph whose
edges are the allowed pairs and whose weights say how good a pair is; `maxcardinality` first
seats as many players as the rules allow, then the weights choose among those seatings.

Arena: the pool (players waiting now) is ordered by rank in the event's standings (at the start
everybody has 0 points, so the order is the rating: the first pairing goes by rating). A pair is
better the nearer its two ranks are, then the nearer their ratings; the same opponent twice in a
row, and two accounts the club knows as one network, are no edge at all. The ordered pool is
matched in consecutive chunks of CHUNK players (whoever a chunk cannot seat is carried into the
next), so a wave of a thousand costs a thousand players' worth of small matchings, not one huge
graph. With an odd pool the one who has waited least waits for the next wave.

Table arenas (pods of 3 or 4, or two pairs): the ordered pool is cut into pods of the event's size
the same way, chunk by chunk (two pods' worth at a time, whoever a chunk cannot seat carried on):
within a chunk every way of forming pods is tried, and the one that seats the most players wins,
then the nearest ranks (and ratings), then the fewest players who sat at one table last time. The
very same table twice in a row is allowed only once all its players have waited REPEAT_AFTER
seconds (a small event would otherwise stop); one network never shares a table. Pairs are then
made inside the pod: the first in rank with the last, against the two in the middle.

Swiss: score groups in the spirit of the Dutch system: a player meets someone of his own score if
he can (a penalty grows with the square of the score gap), within a group the upper half meets the
lower half (the first against the first of the lower half), never a player he met before. With an
odd number the lowest-ranked player who has not had a bye gets it (worth a win).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import networkx as nx

CHUNK = 8  # players per arena matching (even): 8 keeps a wave of 1,000 well under 100 ms
RANK_WEIGHT = 1000  # an arena pair's cost per place between the two
RATING_WEIGHT_CAP = 999  # ... and its cost of the rating gap (points / 10, capped below one place)
WAIT_BONUS_CAP = 60  # seconds of waiting that make a player likelier to be seated in an odd chunk
BASE = 10**7


@dataclass(frozen=True)
class Waiting:
    """A player in an arena's pool as the pairer sees him."""

    player_id: int
    rank: int  # his place in the standings (1: the top)
    rating: int
    last_opponent: int | None = None
    waited: float = 0.0  # seconds since he entered the pool
    avoid: frozenset[int] = field(default_factory=frozenset)  # accounts he may not meet (one network)
    last_table: frozenset[int] = frozenset()  # the others at his last table (table arenas)


def arena_allowed(a: Waiting, b: Waiting) -> bool:
    return (a.player_id != b.player_id and a.last_opponent != b.player_id and b.last_opponent != a.player_id
            and b.player_id not in a.avoid and a.player_id not in b.avoid)


def _arena_weight(a: Waiting, b: Waiting) -> int:
    gap = min(RATING_WEIGHT_CAP, abs(a.rating - b.rating) // 10)
    bonus = int(min(a.waited, WAIT_BONUS_CAP) + min(b.waited, WAIT_BONUS_CAP))
    return BASE - RANK_WEIGHT * abs(a.rank - b.rank) - gap + bonus


def _match(players: list, allowed, weight) -> tuple[list[tuple], list]:
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(len(players)))
    for i, a in enumerate(players):
        for j in range(i + 1, len(players)):
            b = players[j]
            if allowed(a, b):
                graph.add_edge(i, j, weight=weight(a, b))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    seated: set[int] = set()
    pairs = []
    for i, j in matching:
        first, second = (i, j) if i < j else (j, i)
        pairs.append((players[first], players[second]))
        seated.update((i, j))
    pairs.sort(key=lambda p: players.index(p[0]))
    return pairs, [p for k, p in enumerate(players) if k not in seated]


def arena(pool: list[Waiting]) -> list[tuple[int, int]]:
    """The pairs (player ids, the better-ranked first) of one arena wave."""
    ordered = sorted(pool, key=lambda w: (w.rank, -w.rating, w.player_id))
    pairs: list[tuple[int, int]] = []
    carry: list[Waiting] = []
    i = 0
    while i < len(ordered):
        take = max(2, CHUNK - len(carry))
        chunk = carry + ordered[i:i + take]
        i += take
        matched, carry = _match(chunk, arena_allowed, _arena_weight)
        pairs.extend((a.player_id, b.player_id) for a, b in matched)
    return pairs


REPEAT_AFTER = 20  # seconds all of a table's players wait before the same table may sit again
MET_WEIGHT = 3 * RANK_WEIGHT  # a pod's cost per two players who sat at one table last time


def _pod_allowed(pod: tuple[Waiting, ...]) -> bool:
    ids = {w.player_id for w in pod}
    if any(w.avoid & ids for w in pod):
        return False
    same_table = all(w.last_table == ids - {w.player_id} for w in pod)
    return not same_table or all(w.waited >= REPEAT_AFTER for w in pod)


def _pod_cost(pod: tuple[Waiting, ...]) -> int:
    ranks = [w.rank for w in pod]
    ratings = [w.rating for w in pod]
    met = sum(1 for a, b in combinations(pod, 2) if b.player_id in a.last_table)
    waited = sum(int(min(w.waited, WAIT_BONUS_CAP)) for w in pod)
    return (RANK_WEIGHT * (max(ranks) - min(ranks)) + min(RATING_WEIGHT_CAP, (max(ratings) - min(ratings)) // 10)
            + MET_WEIGHT * met - waited)


def _best_pods(chunk: list[Waiting], size: int) -> list[tuple[Waiting, ...]]:
    """The disjoint allowed pods of a chunk that seat the most players at the least cost: every
    allowed pod once (with its cost), then the best choice for each set of players still free, the
    first free player either in one of his pods or left out (a memo on a bit mask: at most 2^8 sets)."""
    starting: dict[int, list[tuple[int, int]]] = {}  # first member's index -> [(members' mask, cost)]
    for combo in combinations(range(len(chunk)), size):
        pod = tuple(chunk[k] for k in combo)
        if _pod_allowed(pod):
            starting.setdefault(combo[0], []).append((sum(1 << k for k in combo), _pod_cost(pod)))
    memo: dict[int, tuple[int, int, tuple[int, ...]]] = {}

    def best(free: int) -> tuple[int, int, tuple[int, ...]]:  # (-pods, cost, the pods' masks)
        if free.bit_count() < size:
            return (0, 0, ())
        if free in memo:
            return memo[free]
        first = (free & -free).bit_length() - 1
        answer = best(free & ~(1 << first))
        for mask, cost in starting.get(first, ()):
            if mask & free == mask:
                count, total, masks = best(free & ~mask)
                candidate = (count - 1, total + cost, (mask, *masks))
                if candidate[:2] < answer[:2]:
                    answer = candidate
        memo[free] = answer
        return answer

    _count, _cost, masks = best((1 << len(chunk)) - 1)
    return [tuple(w for k, w in enumerate(chunk) if mask >> k & 1) for mask in masks]


def pods(pool: list[Waiting], size: int) -> list[tuple[int, ...]]:
    """The tables (player ids, in rank order) of one table-arena wave."""
    ordered = sorted(pool, key=lambda w: (w.rank, -w.rating, w.player_id))
    tables: list[tuple[int, ...]] = []
    carry: list[Waiting] = []
    i = 0
    while i < len(ordered):
        take = max(size, 2 * size - len(carry))
        chunk = carry + ordered[i:i + take]
        i += take
        chosen = _best_pods(chunk, size)
        seated = {w.player_id for pod in chosen for w in pod}
        tables.extend(tuple(w.player_id for w in sorted(pod, key=lambda w: (w.rank, -w.rating, w.player_id)))
                      for pod in chosen)
        carry = [w for w in chunk if w.player_id not in seated][-size:]  # the rest wait for the next wave
    return tables


def pairs_seating(pod: tuple[int, ...]) -> tuple[int, ...]:
    """Seats 1-4 of a pairs table from a pod of four in rank order: seats 1 and 3 (the first and the
    last in rank) against seats 2 and 4 (the two in the middle)."""
    first, second, third, fourth = pod
    return first, second, fourth, third


@dataclass(frozen=True)
class SwissPlayer:
    """A player before a Swiss round: his score so far and whom he met."""

    player_id: int
    score: int  # half-points
    rating: int
    opponents: frozenset[int] = field(default_factory=frozenset)
    had_bye: bool = False
    avoid: frozenset[int] = field(default_factory=frozenset)


SCORE_GAP_WEIGHT = 10**4  # per (half-point gap)²
DUTCH_WEIGHT = 10  # per place away from the ideal upper-half/lower-half partner


def swiss_allowed(a: SwissPlayer, b: SwissPlayer) -> bool:
    return (a.player_id != b.player_id and b.player_id not in a.opponents and a.player_id not in b.opponents
            and b.player_id not in a.avoid and a.player_id not in b.avoid)


def _standing_order(players: list[SwissPlayer]) -> list[SwissPlayer]:
    return sorted(players, key=lambda p: (-p.score, -p.rating, p.player_id))


def _swiss_weights(players: list[SwissPlayer]):
    groups: dict[int, list[int]] = {}
    for p in players:  # already in standing order: rating order within each score group
        groups.setdefault(p.score, []).append(p.player_id)
    place = {pid: (k, len(ids)) for ids in groups.values() for k, pid in enumerate(ids)}

    def weight(a: SwissPlayer, b: SwissPlayer) -> int:
        gap = abs(a.score - b.score)
        w = BASE - SCORE_GAP_WEIGHT * gap * gap
        if gap == 0:
            (ka, size), (kb, _size) = place[a.player_id], place[b.player_id]
            w -= DUTCH_WEIGHT * abs(abs(ka - kb) - size // 2)
        return w

    return weight


def _perfect(players: list[SwissPlayer]) -> bool:
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(len(players)))
    graph.add_edges_from((i, j) for i, a in enumerate(players) for j in range(i + 1, len(players))
                         if swiss_allowed(a, players[j]))
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(players)


def swiss(players: list[SwissPlayer]) -> tuple[list[tuple[int, int]], list[int]]:
    """(pairs, byes) of one Swiss round. One bye when the number is odd: the lowest-ranked player
    without a bye whose absence still lets everyone else be paired. Whoever no allowed pairing can
    seat (only when rematches run out) gets a bye too, rather than a rematch."""
    ordered = _standing_order(players)
    byes: list[int] = []
    if len(ordered) % 2:
        candidates = [p for p in reversed(ordered) if not p.had_bye] or list(reversed(ordered))
        chosen = candidates[0]
        for p in candidates[:8]:  # the lowest few: the first whose absence leaves a perfect pairing
            if _perfect([q for q in ordered if q is not p]):
                chosen = p
                break
        byes.append(chosen.player_id)
        ordered = [p for p in ordered if p is not chosen]
    matched, left = _match(ordered, swiss_allowed, _swiss_weights(ordered))
    byes.extend(p.player_id for p in left)
    return [(a.player_id, b.player_id) for a, b in matched], byes
