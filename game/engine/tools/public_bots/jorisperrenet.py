"""Adapter for ``DeterminizedMCTS`` of github.com/jorisperrenet/durak (commit
bf419e6a5e2ac92ae59cbc044a084bca673e9c6d, ``python_version/``): for each of ``deals`` random
determinizations a plain MCTS with uniformly random playouts, statistics summed over the deals,
the best winning percentage played. Class defaults: deals=10, rollouts=100 (per deal),
expl_const=0.7.

Its game model has unknown cards built in (``Card.is_unknown``): we give it our hand (private),
the opponent's hand as unknown cards except those everyone saw it take (public), the stock as
unknown cards with the face-up trump (public) at the bottom, the table and the discard (public).
Its own ``random_deal`` fills the unknowns, so no world of ours is needed. Rules: traditional
durak with «reflecting» (transfer) by playing a card of the rank or by showing the trump of that
rank once per trick, so we play it under perevodnoy with ``transfer_by_showing_trump``. After a
take it throws its extra cards as one set (our rules: one per action, ``split``).
"""
from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

from game.engine.card_strings import RANK_INDEX, RANKS, rank_of, suit_of
from game.engine.tools.public_bots.base import Move, PublicBot, Seen, load_module

REPO = "jorisperrenet/durak"
COMMIT = "bf419e6a5e2ac92ae59cbc044a084bca673e9c6d"
SUIT_INDEX = {"C": 0, "S": 1, "H": 2, "D": 3}  # its '♣♠♥♦'
SUIT_OF = {v: k for k, v in SUIT_INDEX.items()}
LOWEST = RANK_INDEX["6"]


class JorisDeterminized(PublicBot):
    name = "jorisperrenet"
    rules_note = "perevodnoy with transfer_by_showing_trump (its «reflect by showing the trump»)"
    rules: dict[str, Any] = {"variant": "perevodnoy", "transfer_by_showing_trump": True}
    deals: int | None = None  # None: the class defaults
    rollouts: int | None = None

    def load(self, path: Path) -> None:
        root = path / "python_version" if (path / "python_version").is_dir() else path
        self.tools: ModuleType = load_module(root, "tools")
        self.players: ModuleType = load_module(root, "players")
        self.main: ModuleType = load_module(root, "main")

    def _card(self, c: str, trump: int, how: str) -> Any:
        card = self.tools.Card()
        card.from_suit_value(SUIT_INDEX[suit_of(c)], RANK_INDEX[rank_of(c)] - LOWEST)
        card.trump_suit = trump
        card.is_public = how == "public"
        card.is_private = how == "private"
        return card

    def _unknown(self, trump: int) -> Any:
        card = self.tools.Card()
        card.trump_suit = trump
        return card

    def game(self, seen: Seen) -> Any:
        t = SUIT_INDEX[seen.trump]
        kwargs = {k: v for k, v in (("deals", self.deals), ("rollouts", self.rollouts)) if v}
        me = self.players.DeterminizedMCTS("me", **kwargs)
        opp = self.players.Random("opp")
        me.hand = [self._card(c, t, "private") for c in seen.hand]
        known = set(seen.opp_known)
        opp.hand = [self._card(c, t, "public") for c in seen.opp_known]
        opp.hand += [self._unknown(t) for _ in range(seen.opp_count - len(known))]
        deck = [self._unknown(t) for _ in range(max(seen.stock - 1, 0))]
        if seen.stock:
            deck.append(self._card(seen.trump_card, t, "public"))
        pairs = [(self._card(a, t, "public"), self._card(d, t, "public")) for a, d in seen.table if d]
        to_defend = [self._card(a, t, "public") for a in seen.unbeaten]
        gone = [self._card(c, t, "public") for c in seen.gone]

        g = self.main.GameTree(None, None, None, do_init=False)
        g.players = [me, opp]
        g.computer_shuffle = True
        g.print_info = False
        g.is_end_state = False
        g.loser = None
        g.all_cards = {(s, v) for s in range(4) for v in range(9)}
        g.deck = deck
        g.card_collection = me.hand + opp.hand + deck + [c for p in pairs for c in p] + to_defend + gone
        g.history = []
        defending = seen.role == "defend"
        attacker, defender = (opp, me) if defending else (me, opp)
        g.attackers = [attacker]
        g.defender = defender
        g.current_attacker = 0
        g.draw_order = [attacker, defender]
        g.attacker_to_start_throwing = 0 if seen.role == "throw" else None
        g.last_played_attacker = attacker if seen.table else None
        g.reflected_trumps = []
        g.pairs_finished = pairs
        g.cards_to_defend = to_defend
        g.current_action = {"defend": "Defend", "throw": "ThrowCards"}.get(seen.role, "Attack")
        g.player_to_play = me
        return g

    def decide(self, seen: Seen) -> Move:
        g = self.game(seen)
        a = g.player_to_play.choose_action(g)
        return self.move(a, seen)

    @staticmethod
    def ours(sv: tuple[int, int]) -> str:
        return RANKS[sv[1] + LOWEST] + SUIT_OF[sv[0]]

    def move(self, a: tuple[Any, ...], seen: Seen) -> Move:
        kind, arg = a[0], a[1]
        if kind == "Take":
            return Move("take")
        if kind == "PassAttack" or (kind == "ThrowCards" and arg[0] is None):
            return Move("pass")
        if kind == "ThrowCards":
            return Move("attack", tuple(self.ours(sv) for sv in arg))
        card = self.ours(arg)
        if kind == "Defend":
            return Move("defend", (card,), seen.unbeaten[:1])
        if kind in ("Reflect", "ReflectTrump"):
            return Move("transfer", (card,), show=kind == "ReflectTrump")
        return Move("attack", (card,))
