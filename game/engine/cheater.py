"""Cheater mode («Шулер», docs/RULES.md#cheater): catching a card of this round and the check phase."""
from __future__ import annotations

from typing import Any

from game.engine.cards import BIT, CARD_STR, bits
from game.engine.checks import card_field
from game.engine.deal import rng_for
from game.engine.errors import IllegalAction
from game.engine.events import event
from game.engine.flow import finish_round, settle
from game.engine.seats import same_team
from game.engine.state import GameState


def catch_targets(s: GameState, i: int) -> list[int]:
    """Table cards seat i may catch: laid this round, not by himself or his partner; none once he
    falsely accused this round."""
    if not s.rules.cheater or s.banned >> i & 1 or s.out_mask >> i & 1:
        return []
    if s.phase not in ("play", "check"):
        return []
    res = []
    for k, c in enumerate(s.atk):
        if not same_team(s, i, s.atk_by[k]):
            res.append(c)
    if not same_team(s, i, s.defender):
        for c in s.dfn:
            if c >= 0:
                res.append(c)
    return res


def catch(s: GameState, i: int, a: dict[str, Any]) -> None:
    """«Поймать!»: a dishonest card → its player takes the table and the round ends (as a take
    if he defended, else as a bito); an honest one → the accuser draws a penalty card (stock, else a
    random discard card) and may not catch again this round."""
    if not s.rules.cheater:
        raise IllegalAction("not_cheater_mode", "catching is only allowed in cheater mode")
    c = card_field(a)
    laid = -1
    dishonest = False
    for k, x in enumerate(s.atk):
        if x == c:
            laid = s.atk_by[k]
            dishonest = bool(s.cheats >> k & 1)
            break
        if s.dfn[k] == c:
            laid = s.defender  # defence cards are always the current defender's (no transfer
            dishonest = bool(s.cheats >> (16 + k) & 1)  # once a card is beaten)
            break
    if laid < 0:
        raise IllegalAction("bad_target", "that card is not on the table")
    if same_team(s, i, laid):
        raise IllegalAction("own_card", "you cannot catch your own or your partner's card")
    if s.banned >> i & 1:
        raise IllegalAction("catch_banned", "after a false accusation you cannot catch this round")
    if dishonest:
        s.last = event(i + 1, "catch", CARD_STR[c], cheater=laid + 1, caught=True)
        finish_round(s, "caught", laid)
        return
    penalty = False
    s.hands = s.hands[:]
    if s.stock:
        s.hands[i] |= BIT[s.stock[0]]
        if len(s.stock) == 1:  # the face-up trump: everyone sees who gets it
            s.known |= BIT[s.stock[0]]
        s.stock = s.stock[1:]
        penalty = True
    elif s.discard:
        pile = list(bits(s.discard))
        pick = pile[rng_for(s).randrange(len(pile))]
        s.discard &= ~BIT[pick]
        s.hands[i] |= BIT[pick]
        s.known &= ~BIT[pick]  # a hidden draw: even a card once known in his hand is not now
        penalty = True
    s.last = event(i + 1, "catch", CARD_STR[c], cheater=None, caught=False, penalty=penalty)
    s.banned |= 1 << i
    settle(s)


def end_check(state: GameState | Any) -> GameState:
    """Called by the server's clock 4 s after a round reached its check phase (docs/RULES.md#check-phase): closes
    the round as it was pending (bito or take). Returns a new state."""
    if not isinstance(state, GameState):
        raise IllegalAction("bad_state", "not a GameState")
    if state.phase != "check":
        raise IllegalAction("not_check_phase", "no check phase is running")
    s = state.copy()
    finish_round(s, s.pending or "bito")
    s.moves += 1
    return s
