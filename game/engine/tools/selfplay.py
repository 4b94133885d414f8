"""Seeded self-play across every rule setting, with the engine's invariants checked after every
action. ``python -m game.engine.tools.selfplay --games 20000`` is the long run; the property tests
(tests/engine/test_properties.py) use the same ``Checker`` on shorter runs.

Why a library module and not only a test helper: the same checks guard the engine when someone
changes it for speed, and a failing seed printed here replays exactly (everything is seeded).

The checker reads the state's internals (``hands`` masks, ``stock``, ``atk``/``dfn``, ``discard``)
only in ``card_places``; everything else goes through the public API.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from game.engine import (
    MAX_MOVES,
    RULE_CHOICES,
    GameState,
    IllegalAction,
    Rules,
    apply_action,
    end_check,
    legal_actions,
    new_game,
    resign,
    timeout_action,
    view_for,
    whose_turn,
)
from game.engine.bots import choose_action
from game.engine.card_strings import RANK_INDEX, beats, rank_of
from game.engine.types import View

FULL_DECKS: dict[int, list[str]] = {}


def deck_of(size: int) -> list[str]:
    """The cards of a 24/36/52 deck as strings (computed here, independently of the engine)."""
    if size not in FULL_DECKS:
        low = {24: "9", 36: "6", 52: "2"}[size]
        FULL_DECKS[size] = [
            r + s for r in RANK_INDEX if RANK_INDEX[r] >= RANK_INDEX[low] for s in "SHDC"
        ]
    return FULL_DECKS[size]


def _strs(mask: int) -> list[str]:
    from game.engine.cards import to_strs

    return to_strs(mask)


def card_places(state: GameState) -> dict[str, list[str]]:
    """Where every card is, from the state's internals: one list per hand, table, stock, discard."""
    from game.engine.cards import CARD_STR

    places: dict[str, list[str]] = {}
    for i, h in enumerate(state.hands):
        places[f"hand{i + 1}"] = _strs(h)
    places["table"] = [CARD_STR[c] for c in state.atk] + [CARD_STR[c] for c in state.dfn if c >= 0]
    places["stock"] = [CARD_STR[c] for c in state.stock]
    places["discard"] = _strs(state.discard)
    return places


def round_cap(rules: Rules, rnd: int) -> int:
    """The attack-card cap before the defender's hand, from the rule text (not the engine's code)."""
    cap = 10**6 if rules.round_limit is None else rules.round_limit
    if rnd == 1:
        cap = min(cap, rules.first_round_limit)
    return cap


_CARD_TOKEN = re.compile(r'"((?:10|[2-9JQKA])[SHDC])"')


def cards_in_json(text: str) -> set[str]:
    """Every card string anywhere inside a JSON document (as a whole JSON string value)."""
    return set(_CARD_TOKEN.findall(text))


class InvariantError(AssertionError):
    """An engine invariant does not hold (message says which and where)."""


@dataclass
class Checker:
    """Checks one game's invariants after every action; keeps what has been public so far.

    ``roundtrip_every``: JSON round-trip of the state every k-th check (1 = always; 0 = never)."""

    rules: Rules
    players: int
    roundtrip_every: int = 1
    public: set[str] = field(default_factory=set)
    checks: int = 0

    def fail(self, msg: str) -> None:
        raise InvariantError(msg)

    # -- after every action ------------------------------------------------------------------

    def check(self, s: GameState) -> list[View]:
        """Check state ``s``; returns the views (index 0: spectator, k: seat k) for reuse."""
        self.checks += 1
        n = self.players
        views = [view_for(s, None)] + [view_for(s, k) for k in range(1, n + 1)]
        spec = views[0]
        # what became public with this state: the table, the face-up trump, shown/swapped cards
        for pair in spec["table"]:
            self.public.add(pair["attack"])
            if pair["defense"]:
                self.public.add(pair["defense"])
        self.public.add(spec["trump_card"])
        last = spec.get("last") or {}
        if last.get("type") in ("swap_trump", "transfer", "catch", "attack", "defend"):
            for key in ("card", "took", "target"):
                if last.get(key):
                    self.public.add(last[key])
        self._check_cards(s, spec)
        self._check_views(s, views)
        self._check_table(s, spec)
        self._check_turns(s, views)
        if self.roundtrip_every and self.checks % self.roundtrip_every == 0:
            self._check_roundtrip(s, views)
        return views

    def _check_cards(self, s: GameState, spec: Mapping[str, Any]) -> None:
        places = card_places(s)
        seen: Counter[str] = Counter()
        for cards in places.values():
            seen.update(cards)
        dup = [c for c, k in seen.items() if k > 1]
        if dup:
            self.fail(f"cards in more than one place: {sorted(dup)} ({places})")
        deck = set(deck_of(rules_deck(self.rules)))
        if set(seen) != deck:
            self.fail(
                f"cards missing {sorted(deck - set(seen))} / foreign {sorted(set(seen) - deck)}"
            )
        if spec["stock"] != len(places["stock"]) or spec["discard"] != len(places["discard"]):
            self.fail("view stock/discard counts differ from the state")
        if places["stock"] and places["stock"][-1] != spec["trump_card"]:
            self.fail("the face-up trump is not the last stock card")
        if spec["trump_card"][-1] != spec["trump"]:
            self.fail("trump suit differs from the face-up card's suit")

    def _check_views(self, s: GameState, views: list[Any]) -> None:
        spec = views[0]
        if spec["hand"] != [] or spec["legal"] != [] or spec["seat"] is not None:
            self.fail("spectator view shows a hand, legal moves or a seat")
        for k in range(1, self.players + 1):
            v = views[k]
            hand = v["hand"]
            if v["seat"] != k:
                self.fail(f"view for seat {k} says seat {v['seat']}")
            if sorted(hand) != sorted(s.hand(k)):
                self.fail(f"seat {k} view hand {hand} != state hand {s.hand(k)}")
            for other in views:
                if other["hand_counts"].get(str(k)) != len(hand):
                    self.fail(f"hand_counts[{k}] != {len(hand)} in a view")
            for key in ("table", "trump", "trump_card", "stock", "discard", "turn", "out", "result",
                        "phase", "attacker", "defender", "limit"):
                if v[key] != spec[key]:
                    self.fail(f"public field {key!r} differs between seat {k} and spectator")
        # secrecy: a view shows only its own hand and cards that have been public
        for k, v in enumerate(views):
            try:
                text = json.dumps(v)
            except (TypeError, ValueError) as e:
                self.fail(f"view is not JSON-ready: {e}")
            leak = cards_in_json(text) - set(v["hand"]) - self.public
            if leak:
                self.fail(f"view of {'spectator' if k == 0 else f'seat {k}'} leaks {sorted(leak)}")

    def _check_table(self, s: GameState, spec: Mapping[str, Any]) -> None:
        table = spec["table"]
        trump = spec["trump"]
        if spec["phase"] == "over":
            if spec["result"] is None:
                self.fail("phase over without a result")
            self._check_result(spec)
            return
        if spec["result"] is not None:
            self.fail("result set while the game is on")
        if len(table) > spec["limit"]:
            self.fail(f"{len(table)} attack cards > limit {spec['limit']}")
        if spec["limit"] > round_cap(self.rules, spec["round"]):
            self.fail(f"limit {spec['limit']} > cap {round_cap(self.rules, spec['round'])}")
        d = spec["defender"]
        unbeaten = sum(1 for p in table if not p["defense"])
        if spec["phase"] == "play" and unbeaten > spec["hand_counts"][str(d)]:
            self.fail(f"{unbeaten} unbeaten cards > defender {d}'s hand")
        if not self.rules.cheater:
            for p in table:
                if p["defense"] and not beats(p["attack"], p["defense"], trump):
                    self.fail(f"defence {p['defense']} does not beat {p['attack']}")
            ranks = {rank_of(c) for p in table for c in (p["attack"], p["defense"]) if c}
            for p in table[1:]:
                if rank_of(p["attack"]) not in ranks:
                    self.fail(f"attack {p['attack']} rank not on the table")
        a = spec["attacker"]
        if d == a or d in spec["out"] or a in spec["out"]:
            self.fail(f"attacker {a} / defender {d} invalid (out {spec['out']})")
        if self.rules.pairs and (a - d) % 2 == 0:
            self.fail(f"pairs: seat {a} attacks its partner {d}")

    def _check_result(self, spec: Mapping[str, Any]) -> None:
        r = spec["result"]
        losers, winners = set(r["losers"]), set(r["winners"])
        if losers & winners:
            self.fail(f"seats both won and lost: {r}")
        if r["draw"]:
            if r["loser"] is not None or losers:
                self.fail(f"a draw with losers: {r}")
        else:
            if not losers or (r["loser"] is not None and r["loser"] not in losers):
                self.fail(f"no loser in a decided game: {r}")
            if self.rules.pairs and len(losers) != 2:
                self.fail(f"pairs: a pair loses together: {r}")

    def _check_turns(self, s: GameState, views: list[Any]) -> None:
        spec = views[0]
        turn = spec["turn"]
        if turn != whose_turn(s):
            self.fail("view turn differs from whose_turn")
        phase = spec["phase"]
        for k in range(1, self.players + 1):
            legal = views[k]["legal"]
            if legal != legal_actions(s, k):
                self.fail(f"view legal of seat {k} differs from legal_actions")
            kinds = {a["type"] for a in legal}
            if phase == "over" and legal:
                self.fail(f"seat {k} has legal actions after the end")
            if phase == "check" and kinds - {"catch"}:
                self.fail(f"seat {k} may {kinds} in the check phase")
            if k in turn and not legal:
                self.fail(f"seat {k} is awaited but has no legal action")
            d, a = spec["defender"], spec["attacker"]
            if k != d and kinds & {"defend", "take", "transfer"}:
                self.fail(f"seat {k} may {sorted(kinds)} but defender is {d}")
            if not spec["table"] and k != a and kinds & {"attack", "pass"}:
                self.fail(f"seat {k} may lead but the leader is {a}")
            if k == d and kinds & {"attack", "pass"}:
                self.fail(f"defender {k} may throw in or pass")
            if k in spec["out"] and legal:
                self.fail(f"seat {k} is out but may act")
            if not self.rules.cheater and "catch" in kinds:
                self.fail("catch offered outside cheater mode")
            if self.rules.pairs:
                d = spec["defender"]
                if "attack" in kinds and spec["table"] and k % 2 == d % 2:
                    self.fail(f"pairs: seat {k} may throw in on its partner {d}")
        if phase == "play" and not turn:
            self.fail("nobody is awaited in the play phase")

    def _check_roundtrip(self, s: GameState, views: list[Any]) -> None:
        blob = json.dumps(s.to_json())
        back = GameState.from_json(json.loads(blob))
        again = [view_for(back, None)] + [view_for(back, k) for k in range(1, self.players + 1)]
        if again != views:
            self.fail("views differ after a JSON round-trip of the state")
        if json.dumps(back.to_json()) != blob:
            self.fail("to_json differs after a round-trip")

    # -- per action ----------------------------------------------------------------------------

    def check_action(self, before: Mapping[str, Any], seat: int, action: dict[str, Any]) -> None:
        """Action-level rules that need the table before the move (``before``: spectator view)."""
        table = before["table"]
        kind = action["type"]
        if self.rules.pairs and kind in ("attack", "transfer") and table:
            d = before["defender"]
            if kind == "attack" and seat % 2 == d % 2:
                self.fail(f"pairs: seat {seat} threw in on its partner {d}")
        if self.rules.cheater:
            return
        ranks = {rank_of(c) for p in table for c in (p["attack"], p["defense"]) if c}
        if kind == "attack" and table and rank_of(action["card"]) not in ranks:
            self.fail(f"throw-in {action['card']} of a rank not on the table {sorted(ranks)}")
        if kind == "transfer":
            if any(p["defense"] for p in table):
                self.fail("transfer after a card was beaten")
            if {rank_of(p["attack"]) for p in table} != {rank_of(action["card"])}:
                self.fail(f"transfer {action['card']} of another rank")

    def check_refused(self, s: GameState, seat: Any, action: Any) -> None:
        """``action`` must be refused with IllegalAction and leave ``s`` unchanged."""
        before = json.dumps(s.to_json())
        try:
            apply_action(s, seat, action)
        except IllegalAction:
            pass
        except Exception as e:  # noqa: BLE001 - the contract: only IllegalAction
            self.fail(f"{action} by seat {seat} raised {type(e).__name__}: {e}")
        else:
            self.fail(f"out-of-turn/garbage {action} by seat {seat} was accepted")
        if json.dumps(s.to_json()) != before:
            self.fail(f"refused {action} changed the state")


def rules_deck(rules: Rules) -> int:
    return rules.deck_size


# -- random settings ----------------------------------------------------------------------------


def random_setup(rng: random.Random) -> tuple[Rules, int]:
    """A uniformly sampled rule combination and a seat count it allows."""
    kw = {name: rng.choice(values) for name, values in RULE_CHOICES.items()}
    rules = Rules(**kw)
    players = 4 if rules.pairs else rng.randint(2, min(6, rules.deck_size // 6))
    return rules, players


GARBAGE: list[Any] = [
    None, 5, "attack", {}, {"type": "fly"}, {"type": "attack"}, {"type": "attack", "card": "1Z"},
    {"type": "attack", "card": 10}, {"type": "defend", "card": "AS"}, {"type": "transfer"},
    {"type": "transfer", "card": "AS", "show": "yes"}, {"type": "swap_trump", "card": "XX"},
    {"type": "catch"}, {"type": "catch", "card": "7"}, {"type": "resign", "reason": "bored"},
]


@dataclass
class GameReport:
    seed: int
    rules: Rules
    players: int
    actions: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    log: list[tuple[int, Any]] = field(default_factory=list)


def play_checked_game(
    seed: int,
    rules: Rules | None = None,
    players: int | None = None,
    *,
    checker: bool = True,
    roundtrip_every: int = 1,
    refuse_every: int = 7,
    chooser: Callable[[random.Random, int], int] | None = None,
) -> GameReport:
    """Play one seeded game with a mixed policy (uniform random, bots, timeouts, rare resigns,
    catches, the check phase ended by end_check), checking every invariant after every action.

    ``chooser(rng, k)`` picks an index below k (Hypothesis passes its own to shrink choices)."""
    rng = random.Random(seed)
    if rules is None or players is None:
        rules, players = random_setup(rng)
    pick = chooser or (lambda r, k: r.randrange(k))
    bot_seats = [k for k in range(1, players + 1) if rng.random() < 0.5]
    levels = {k: rng.choice(("random", "random", "lowest", "heuristic")) for k in range(1, players + 1)}
    rep = GameReport(seed=seed, rules=rules, players=players)
    try:
        s = new_game(rules, players, seed=seed, dealer=rng.randint(1, players), bot_seats=bot_seats)
        chk = Checker(rules, players, roundtrip_every=roundtrip_every) if checker else None
        views = chk.check(s) if chk else None
        steps = 0
        while s.phase != "over":
            steps += 1
            if steps > MAX_MOVES + 10:
                raise InvariantError(f"game did not end within {MAX_MOVES} moves")
            spec = views[0] if views else view_for(s, None)
            seat, action = _next_move(s, spec, views, rng, pick, levels)
            if chk and refuse_every and steps % refuse_every == 0:
                _probe_refusals(s, spec, chk, rng)
            if action == "end_check":
                s = end_check(s)
                rep.log.append((0, "end_check"))
            else:
                if chk:
                    chk.check_action(spec, seat, action)
                if action == {"type": "resign", "reason": "resign"}:
                    s = resign(s, seat, "resign")
                else:
                    s = apply_action(s, seat, action)
                rep.log.append((seat, action))
            rep.actions += 1
            views = chk.check(s) if chk else None
        rep.result = s.result
    except (InvariantError, IllegalAction, AssertionError) as e:
        rep.error = f"{type(e).__name__}: {e}"
    except Exception as e:  # noqa: BLE001 - report any crash with its seed
        rep.error = f"crash {type(e).__name__}: {e}"
    return rep


def _next_move(
    s: GameState,
    spec: Mapping[str, Any],
    views: list[Any] | None,
    rng: random.Random,
    pick: Callable[[random.Random, int], int],
    levels: dict[int, str],
) -> tuple[int, Any]:
    n = s.n
    if spec["phase"] == "check":
        catchers = [k for k in range(1, n + 1) if legal_actions(s, k)]
        if catchers and pick(rng, 4) == 0:
            k = catchers[pick(rng, len(catchers))]
            acts = legal_actions(s, k)
            return k, acts[pick(rng, len(acts))]
        return 0, "end_check"
    turn = spec["turn"]
    roll = pick(rng, 1000)
    if roll == 0:  # a rare resign (also by a seat not awaited; in pairs also a finished one)
        seats = [k for k in range(1, n + 1) if s.pairs or k not in spec["out"]]
        return seats[pick(rng, len(seats))], {"type": "resign", "reason": "resign"}
    if roll < 20:  # somebody not awaited does what he may (swap the trump, catch)
        others = [k for k in range(1, n + 1) if k not in turn and legal_actions(s, k)]
        if others:
            k = others[pick(rng, len(others))]
            acts = legal_actions(s, k)
            return k, acts[pick(rng, len(acts))]
    seat = turn[pick(rng, len(turn))]
    if roll < (22 if s.rules.timeout == "lose" else 40):  # the clock ran out
        return seat, timeout_action(s, seat)
    level = levels[seat]
    if level == "random":
        acts = legal_actions(s, seat)
        return seat, acts[pick(rng, len(acts))]
    view = views[seat] if views else view_for(s, seat)
    action = choose_action(level, view, rng)
    if action is None:
        raise InvariantError(f"bot {level} at awaited seat {seat} returned None")
    if action not in view["legal"]:
        raise InvariantError(f"bot {level} chose {action}, not in its legal list")
    return seat, action


def _probe_refusals(s: GameState, spec: Mapping[str, Any], chk: Checker, rng: random.Random) -> None:
    """Out-of-turn moves (another seat's legal move), garbage and bad seats are refused cleanly."""
    n = s.n
    if spec["phase"] == "play":
        turn = spec["turn"]
        awaited = turn[rng.randrange(len(turn))]
        acts = legal_actions(s, awaited)
        a = acts[rng.randrange(len(acts))]
        for k in range(1, n + 1):
            if k != awaited and a not in legal_actions(s, k):
                chk.check_refused(s, k, a)
                break
    chk.check_refused(s, 1 + rng.randrange(n), GARBAGE[rng.randrange(len(GARBAGE))])
    chk.check_refused(s, rng.choice((0, n + 1, "1", None)), {"type": "pass"})


def replay(seed: int, log: Iterable[tuple[int, Any]], rules: Rules, players: int, **kw: Any) -> GameState:
    """Re-apply a logged game (determinism check)."""
    rng = random.Random(seed)
    random_setup(rng)  # keep the stream aligned with play_checked_game
    bot_seats = [k for k in range(1, players + 1) if rng.random() < 0.5]
    for _ in range(1, players + 1):
        rng.choice(("random", "random", "lowest", "heuristic"))
    s = new_game(rules, players, seed=seed, dealer=rng.randint(1, players), bot_seats=bot_seats)
    for seat, action in log:
        if action == "end_check":
            s = end_check(s)
        elif action == {"type": "resign", "reason": "resign"}:
            s = resign(s, seat, "resign")
        else:
            s = apply_action(s, seat, action)
    return s


# -- command line ---------------------------------------------------------------------------


def run_one(seed: int, checks: bool = True, roundtrip_every: int = 5) -> dict[str, Any]:
    """Play and check one seeded game (every 97th also replayed for determinism); JSON summary."""
    rep = play_checked_game(seed, checker=checks, roundtrip_every=roundtrip_every)
    if rep.error is None and seed % 97 == 0:
        again = replay(seed, rep.log, rep.rules, rep.players)
        if again.result != rep.result or again.moves != rep.actions:
            rep.error = "replay of the logged actions differs (nondeterminism)"
    return {
        "seed": seed, "players": rep.players, "rules": rep.rules.to_dict(),
        "actions": rep.actions, "result": rep.result, "error": rep.error,
    }


def _run_star(a: tuple[int, bool, int]) -> dict[str, Any]:
    return run_one(*a)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m game.engine.tools.selfplay",
        description="Seeded self-play across all rule settings with invariant checks after every "
        "action. Exits 1 on any failure and prints the seeds to reproduce.",
    )
    p.add_argument("--games", type=int, default=2000, help="number of games (default 2000)")
    p.add_argument("--seed", type=int, default=0, help="first seed (game k uses seed+k)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--roundtrip-every", type=int, default=5,
                   help="JSON round-trip check every k-th action (1 = all; default 5)")
    p.add_argument("--fast", action="store_true", help="no invariant checks, only crashes/ending")
    p.add_argument("--minutes", type=float, default=None,
                   help="stop after this many minutes and report the games played so far")
    p.add_argument("--show", type=int, default=20, help="failing seeds to print (default 20)")
    args = p.parse_args(argv)

    t0 = time.perf_counter()
    seeds = range(args.seed, args.seed + args.games)
    work = [(sd, not args.fast, args.roundtrip_every) for sd in seeds]
    budget = args.minutes * 60 if args.minutes else None
    results: list[dict[str, Any]] = []
    stopped = False

    def progress(k: int) -> bool:
        """Print progress; True when the time budget is spent."""
        if (k + 1) % 1000 == 0:
            print(f"  {k + 1} games, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        return bool(budget and time.perf_counter() - t0 > budget)

    if args.jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            for k, r in enumerate(pool.imap(_run_star, work, chunksize=20)):
                results.append(r)
                if progress(k):
                    stopped = True
                    pool.terminate()
                    break
    else:
        for k, w in enumerate(work):
            results.append(_run_star(w))
            if progress(k):
                stopped = True
                break
    if stopped:
        print(f"time budget of {args.minutes} min spent: {len(results)} of {args.games} games played")
    dt = time.perf_counter() - t0
    failures = [r for r in results if r["error"]]
    counts: Counter[str] = Counter()
    coverage: Counter[tuple[str, Any]] = Counter()
    actions = 0
    for r in results:
        actions += r["actions"]
        for name, value in r["rules"].items():
            coverage[(name, value)] += 1
        coverage[("players", r["players"])] += 1
        if r["error"]:
            counts["failed"] += 1
            continue
        res = r["result"] or {}
        counts["draw" if res.get("draw") else "decided"] += 1
        counts[f"end:{res.get('reason')}"] += 1
    print(f"games: {len(results)} (seeds {args.seed}..{args.seed + len(results) - 1}), "
          f"actions: {actions}, {dt:.1f} s on {args.jobs} process(es)"
          f"{' (no checks)' if args.fast else ''}")
    print("outcomes: " + ", ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    print("settings covered: " + ", ".join(
        f"{n}={v!r}:{c}" for (n, v), c in sorted(coverage.items(), key=lambda x: (x[0][0], str(x[0][1])))
    ))
    if failures:
        print(f"FAILURES: {len(failures)}")
        kinds = Counter(f["error"].split("[")[0][:70] for f in failures)
        for kind, c in kinds.most_common(10):
            print(f"  {c} x {kind}")
        for f in failures[: args.show]:
            print(f"  seed {f['seed']} players={f['players']} rules={f['rules']}\n    {f['error']}")
        print("reproduce one: python -c \"from game.engine.tools.selfplay import play_checked_game as p; "
              "print(p(SEED).error)\"")
        return 1
    print("all invariants held")
    return 0


if __name__ == "__main__":
    sys.exit(main())
