"""Adapter for the «hybrid» bot of github.com/larsenbier/Durak-Endgame-Monte-Carlo-Tree-Search
(commit 59b031c00aa9e52e5144a0b893bee90dd4a3de33, Python, perevodnoy heads-up).

Its decision rule is the one its own drivers (``main.py``, ``test.py: heuristicVsHybrid``) apply:
a single action is played at once; while the talon holds more than 4 cards
``Player.chooseActionHeuristic()`` (lowest card, trumps hoarded early); otherwise
``search.MCTS(game, num_iterations=250)`` (``main.py``'s NUM_MCTS_PLAYOUTS) with its heuristic
playouts over worlds drawn by ``TransferDurak.sampleBelief``. Their code runs unchanged; we only
build its ``TransferDurak`` through its own copy constructor from a ``Seen``.

Its search walks the tree on the state it is given (opponent moves come from that state's
opponent hand), so the hidden part of that state is ``Seen.world_*``: a deal sampled from the
view, never the real hands. Rule differences: its lead may be several cards of one rank, its
defence of a multi-card attack and its transfer several cards at once (our rules: one card per
action, so these are ``split``); it has no face-up trump (ours lies at the stock's bottom: we put
it at the bottom of its talon and keep it in its talon belief). Its rules end the game as soon
as a hand empties with the talon gone; when ours still ask for a move then, its own heuristic
answers (counted as ``fallback``).

In podkidnoy (``--rule variant=podkidnoy``) its move generator is the same with the transfers
left out (``Player.defenderActions`` filtered), so its heuristic and its search both play the
game without them: the nearest it has to a podkidnoy player.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

from game.engine.card_strings import RANK_INDEX, RANKS, rank_of, suit_of
from game.engine.tools.public_bots.base import Move, PublicBot, Seen, load_module

REPO = "larsenbier/Durak-Endgame-Monte-Carlo-Tree-Search"
COMMIT = "59b031c00aa9e52e5144a0b893bee90dd4a3de33"
SUIT_INDEX = {"S": 0, "C": 1, "H": 2, "D": 3}  # its SUITMAP: spade, club, heart, diamond
SUIT_OF = {v: k for k, v in SUIT_INDEX.items()}
LOWEST = RANK_INDEX["6"]
TALON_THRESHOLD = 4  # its drivers: MCTS only once len(game.talon) <= 4
PLAYOUTS = 250  # main.py NUM_MCTS_PLAYOUTS


class LarsenbierHybrid(PublicBot):
    name = "larsenbier"
    rules_note = "perevodnoy (transfer by playing a card of the attack's rank)"
    rules: dict[str, Any] = {"variant": "perevodnoy"}

    def load(self, path: Path) -> None:
        self.durak: ModuleType = load_module(path, "durak")
        self.search: ModuleType = load_module(path, "search")
        self.transfers = True
        self._filter_transfers(self.durak.Player)

    def _filter_transfers(self, player_cls: Any) -> None:
        """Wrap its defender's move list once so that ``self.transfers`` switches transfers off."""
        own = player_cls.__dict__.get("_own_defender_actions", player_cls.defenderActions)
        player_cls._own_defender_actions = own
        adapter = self

        def defender_actions(player: Any) -> list[tuple[Any, ...]]:
            actions: list[tuple[Any, ...]] = own(player)
            return actions if adapter.transfers else [a for a in actions if a[0] != "t"]

        player_cls.defenderActions = defender_actions

    def card(self, c: str) -> Any:
        return self.durak.Card(RANK_INDEX[rank_of(c)] - LOWEST, SUIT_INDEX[suit_of(c)])

    def cards(self, cs: tuple[str, ...] | list[str]) -> list[Any]:
        return [self.card(c) for c in cs]

    @staticmethod
    def ours(card: Any) -> str:
        return str(RANKS[card.rank + LOWEST] + SUIT_OF[card.suit])

    def game(self, seen: Seen) -> Any:
        """A ``TransferDurak`` with us at position 0, built by its own copy constructor."""
        atk = [a for a, _ in seen.table]
        dfn = [d for _, d in seen.table if d]
        opp_hand = list(seen.world_opp)
        if seen.role == "throw":  # it models a take as picking the table up at once
            opp_hand += atk + dfn
        talon_cards = set(seen.unseen) | ({seen.trump_card} if seen.stock else set())
        my_private = set(seen.hand) - set(seen.my_known)
        me = SimpleNamespace(
            position=0, hand=self.cards(seen.hand),
            hand_beliefs=[set(), set(self.cards(seen.opp_known + ((*atk, *dfn) if seen.role == "throw" else ())))],
            talon_belief=set(self.cards(sorted(talon_cards))),
        )
        opp = SimpleNamespace(
            position=1, hand=self.cards(opp_hand),
            hand_beliefs=[set(self.cards(seen.my_known)), set()],
            talon_belief=set(self.cards(sorted((talon_cards | my_private) - set(opp_hand)))),
        )
        defending = seen.role == "defend"
        beaten = [a for a, d in seen.table if d]
        other = SimpleNamespace(
            player_numbers=[0, 1], players=[me, opp], last_move=None, last_player=1,
            attack_cards=[] if seen.role == "throw" else self.cards(beaten + list(seen.unbeaten)),
            defense_cards=[] if seen.role == "throw" else self.cards(dfn),
            talon=self.cards(list(reversed(seen.world_stock))),  # it draws with pop(-1)
            discard=set(self.cards(seen.gone)),
            last_attack=self.cards(atk) if seen.role == "throw" else [],
            last_defense=self.cards(dfn) if seen.role == "throw" else [],
            is_attacker_move=not defending, defender_eating=seen.role == "throw",
            attacker_pos=1 if defending else 0, defender_pos=0 if defending else 1,
            round=0, trump=SUIT_INDEX[seen.trump],
        )
        return self.durak.TransferDurak(other)

    def decide(self, seen: Seen) -> Move:
        self.transfers = seen.rules.get("variant") == "perevodnoy"
        game = self.game(seen)
        player = game.getCurrentPlayer()
        actions = player.actions()
        if game.isTerminal():  # its rules end the game when a hand empties: no search to run
            return replace(self.move(player.chooseActionHeuristic(), seen), fallback=True)
        if len(actions) == 1:
            a = actions[0]
        elif len(game.talon) > TALON_THRESHOLD:
            a = player.chooseActionHeuristic()
        else:
            a = self.search.MCTS(game, num_iterations=PLAYOUTS)
        return self.move(a, seen)

    def move(self, a: tuple[Any, ...], seen: Seen) -> Move:
        kind, cards = a
        cs = tuple(self.ours(c) for c in cards)
        if kind == "e":
            return Move("take")
        if kind in ("r", "b", "p"):
            return Move("pass")
        if kind == "t":
            return Move("transfer", cs)
        if kind == "d":  # with a pair beaten already it beats its last attack card only
            beaten = any(d for _, d in seen.table)
            targets = seen.unbeaten[-1:] if beaten else seen.unbeaten[: len(cs)]
            return Move("defend", cs, targets)
        return Move("attack", cs)
