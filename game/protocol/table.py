"""The table socket's own messages (game/consumers.py), in and out: the game and the waiting room.

The apps above declare theirs next to their code and register them in their ready() (the chat's,
the site's news social carries here, notifications' visibility), as they register their hooks
(game/socket_hooks.py). The meanings here are docs/PROTOCOL.md's field tables (game/protocol/doc.py).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, Required, TypedDict

from game.engine.types import CheaterView, Phase, TableSlot
from game.protocol.schema import TABLE, Refuse, register_in, register_out

Iso = Annotated[str, "an ISO 8601 time"]

# ---------------------------------------------------------------- client -> server


class Ping(TypedDict):
    """Answered at once with `pong`; at most every 4 s also a heartbeat (see below)."""

    type: Literal["ping"]


class Resync(TypedDict):
    """Send me the current frame: answered like a connect, with a `state` frame (always, even if not
    newer) or a `lobby` frame."""

    type: Literal["resync"]


class Hello(TypedDict):
    """The same as `resync`."""

    type: Literal["hello"]


class MoveAction(TypedDict, total=False):
    """A move in the engine's action form (game/engine/README.md)."""

    type: Required[Annotated[str, "`attack`, `defend`, `transfer`, `take`, `pass`, `swap_trump` or `catch`"
                                  " (else `unknown_action`)"]]
    card: Annotated[str, "the card played (at most 16 characters, as every string of a move)"]
    target: Annotated[str, "`defend`: the unbeaten attack card it beats"]
    show: Annotated[bool, "`transfer`: shown, not laid (a transfer by showing the trump)"]


class Action(TypedDict):
    """A move. The browser leaves `type` out: a message with an `action` field and no `type` is a move."""

    type: NotRequired[Literal["action"]]
    id: Annotated[str, Refuse("bad_id"),
                  "the client's message id: 1–64 printable characters, unique per move (a resend keeps it)"]
    version: Annotated[int, Refuse("bad_version"),
                       "the game version the client last saw; a move on an older one is refused (`stale_version`)"
                       " and the current frame follows"]
    action: Annotated[MoveAction, Refuse("bad_action"), "the move: an object of at most 4 keys"]


# ---------------------------------------------------------------- server -> client


class Pong(TypedDict):
    """The answer to `ping`: the client measures its round trip and the server clock offset with it."""

    type: Literal["pong"]
    version: Annotated[int | None, "the version of the last game frame this socket was sent; null with no game"]


class Ack(TypedDict):
    """The move `id` was applied and the game is now at `version`."""

    type: Literal["ack"]
    id: Annotated[str, "the move's id"]
    version: Annotated[int, "the game's version after it"]
    duplicate: Annotated[bool, "the same id had been applied before (a resend after a reconnect): nothing was"
                               " applied twice"]


class Error(TypedDict):
    """A refused message, or the reason the socket closes."""

    type: Literal["error"]
    id: Annotated[str | None, "the refused message's id; null when it had none, its id was refused (`bad_id`: a"
                              " bad id is never echoed) or the error is the socket's own (`flooding`, `too_large`,"
                              " `internal_error`, a session end)"]
    code: Annotated[str, "stable: one of the [error codes](#error-codes)"]
    message: Annotated[str, "for people, in the socket's language"]


class Lobby(TypedDict):
    """The waiting room changed (a seat, a bot, «Готово», the rules, the countdown, the rematch window)."""

    type: Literal["lobby"]
    version: Annotated[int, "`Table.version`: the page fetches the waiting room fragment again"
                            " (`GET /tables/<id>/room/`) unless it already shows that version"]


class GameStarted(TypedDict):
    """The countdown ended and a game was dealt: the socket joins the game's frame group and a `state`
    frame follows. The waiting room page loads the game table."""

    type: Literal["game_started"]
    game_id: Annotated[int, "the new game"]


class EngineResult(TypedDict):
    """How the board ended a game (game/engine/flow.py)."""

    loser: Annotated[int | None, "the durak's seat, or null (a draw, pairs, or a game ended otherwise)"]
    losers: Annotated[list[int], "the losing seats (pairs: both of a team)"]
    winners: Annotated[list[int], "the winning seats"]
    draw: Annotated[bool, "nobody lost"]
    reason: Annotated[str, "`normal` (the board), `cap` (the move cap: a draw), or a resignation's reason"
                           " (`resign`, `timeout`, …)"]


class LastMove(TypedDict, total=False):
    """The last event in public form (game/engine/events.py): the move, and how its round closed."""

    seat: Annotated[int | None, "who made it"]
    type: Annotated[str | None, "the move's `action.type`, or `resign`"]
    card: Annotated[str, "the card laid, beaten with, transferred, swapped in or caught"]
    target: Annotated[str, "`defend`: the attack card beaten"]
    to: Annotated[int, "`transfer`: the new defender"]
    show: Annotated[bool, "`transfer`: shown, not laid"]
    took: Annotated[str, "`swap_trump`: the face-up trump taken"]
    cheater: Annotated[int | None, "`catch`: the seat caught cheating, null for a wrong call"]
    caught: Annotated[bool, "`catch`: whether the card was a cheat"]
    penalty: Annotated[bool, "`catch`: a wrong call drew the catcher a card"]
    reason: Annotated[str, "`resign`: why (`resign`, `timeout`, `left`, …)"]
    closed: Annotated[str, "how the round closed with this move: `bito`, `take` or `caught`"]


class LogEntry(LastMove, total=False):
    """One move of the move log: `view.last`'s public form, and who made it."""

    by: Annotated[str, "`player`, `bot` or `timeout`: who made it"]


class FrameView(TypedDict):
    """`engine.view_for(state, seat)` (game/engine/views.py; game/engine/README.md "View fields"), less
    the table's reads, which only the bots and the analysis use. Never in a frame: other hands, the
    stock's order, whether a card was honest, the seed."""

    seat: Annotated[int | None, "the viewer's seat; null for a spectator"]
    players: Annotated[int, "seats in the game"]
    pairs: Annotated[bool, "two against two"]
    partner: Annotated[int | None, "pairs: the viewer's partner's seat"]
    variant: Annotated[str, "`podkidnoy` or `perevodnoy`"]
    rules: Annotated[dict[str, Any], "every rule setting ([RULES](RULES.md))"]
    phase: Annotated[Phase, "`play`; `check` (cheater mode's window after a round: only catches); `over`"]
    round: Annotated[int, "the round's number"]
    hand: Annotated[list[str], "this seat's cards; `[]` for a spectator"]
    table: Annotated[list[TableSlot], "the round's cards: each attack card and its defence (null: unbeaten)"]
    trump: Annotated[str, "the trump suit: `S`, `H`, `D` or `C`"]
    trump_card: Annotated[str, "the face-up trump card"]
    stock: Annotated[int, "cards left in the stock, the face-up trump included"]
    discard: Annotated[int, "cards in the discard"]
    gone: Annotated[list[str], "cards seen going to the discard (`[]` when the memory aid is off)"]
    hand_counts: Annotated[dict[str, int], "cards in each seat's hand (`{\"1\": n, …}`)"]
    leader: Annotated[int | None, "the round's first attacker; null once the game is over"]
    attacker: Annotated[int | None, "the seat that attacks now"]
    defender: Annotated[int | None, "the seat that defends"]
    turn: Annotated[list[int], "the seats awaited"]
    legal: Annotated[list[MoveAction], "this seat's legal moves now, in the `action` form"]
    took: Annotated[bool, "the defender said «Беру»"]
    passed: Annotated[list[int], "the seats that passed this round"]
    limit: Annotated[int, "how many attack cards the round may hold"]
    out: Annotated[list[int], "the seats out of the game (no cards, stock empty)"]
    result: Annotated[EngineResult | None, "the board's result once the game is over"]
    last: Annotated[LastMove | None, "the last event"]
    swap_used: Annotated[bool, "the trump swap (менка) was made"]
    shown: Annotated[list[int], "seats that showed a trump to transfer this round"]
    bots: Annotated[list[int], "seats a bot plays"]
    cheater: Annotated[CheaterView, "cheater mode: `enabled`, `check` (the window is open), `pending` (how the"
                                    " round will close), `banned` (seats that may no longer catch), `can_catch`"]
    moves: Annotated[int, "moves made in the game"]
    known: Annotated[dict[str, list[str]], "[seat memory](RULES.md#seat-memory): per seat, the publicly seen"
                                           " cards it still holds (`{}` when the memory aid is off)"]


class SeatFacts(TypedDict):
    """The public facts of a seat (game/frames.py `seat_facts`)."""

    number: Annotated[int, "the seat, 1..N"]
    nick: Annotated[str, "its player's nick (empty for a bot's seat)"]
    bot: Annotated[bool, "a bot plays it (its own, or one that took over)"]
    bot_level: Annotated[str, "that bot's level, or empty"]
    takeover: Annotated[bool, "a bot plays a disconnected or departed player's seat"]
    connected: Annotated[bool, "its player's socket is open (a bot's seat: always)"]
    away: Annotated[bool, "disconnected for 15 s or more"]
    takeover_at: Annotated[str | None, "ISO: when a bot takes over, by the [disconnect policy](RULES.md#disconnect)"]
    lose_at: Annotated[str | None, "ISO: when he loses, by the \"lose\" disconnect policy"]
    left: Annotated[bool, "he left the game"]


class Outcome(TypedDict):
    """A seat's outcome (game/outcomes.py) and its rating change (ratings)."""

    seat: Annotated[int, "the seat"]
    outcome: Annotated[Literal["won", "durak", "draw", "left", "lost_on_time", "did_not_return", "banned",
                               "aborted"], "[RULES](RULES.md#outcomes)"]
    rating_change: Annotated[int | None, "null where the seat's rating did not move"]
    rating_after: Annotated[int | None, "the rating after the game, or null"]
    win_withheld: NotRequired[Annotated[bool, "true: won by the board but collected nothing, because the clock"
                                              " or a bot made most of its moves ([RULES](RULES.md#ratings))"]]


class GameResult(TypedDict, total=False):
    """`Game.result`: the engine's result plus the server's. A game stopped before the board decided
    has the board's keys empty."""

    loser: Annotated[int | None, "as in `view.result`"]
    losers: Annotated[list[int], "as in `view.result`"]
    winners: Annotated[list[int], "as in `view.result`"]
    draw: Annotated[bool, "as in `view.result`"]
    reason: Annotated[str, "as in `view.result`; `abandoned` (everybody left), `aborted` (a moderator)"]
    by: Annotated[str, "an aborted game: why"]
    outcomes: Annotated[list[Outcome], "per seat"]
    left: Annotated[list[int], "the seats that left"]
    timed_out: Annotated[list[int], "the seats that lost on time"]
    rated: Annotated[bool, "the game moved ratings"]
    unrated_reason: Annotated[str, "why not, when it did not"]


class BotPlayed(TypedDict):
    """The last stretch a bot played the viewer's seat for him (game/frames.py `bot_played`)."""

    since: Annotated[str | None, "ISO: when the bot took the seat"]
    until: Annotated[str | None, "ISO: when it handed it back; null while it still plays"]
    moves: Annotated[int, "the moves it made for him"]
    finished: NotRequired[Annotated[bool, "a finished game's: the bot was in the seat at the end"]]


class State(TypedDict):
    """The game frame: sent after every committed change of the game (a move, a bot's move, a timeout, a
    takeover, a disconnect), on connect and on `resync`. The socket never sends an older frame after a
    newer one of the same game."""

    type: Literal["state"]
    game_id: Annotated[int, "the game"]
    table_id: Annotated[int, "its table"]
    status: Annotated[Literal["playing", "finished", "aborted"], "`game.models.Game.Status`"]
    version: Annotated[int, "the game's version: +1 per committed change; moves quote it"]
    seat: Annotated[int | None, "this viewer's seat (1..N), null for a spectator"]
    view: Annotated[FrameView, "the redacted game"]
    hints: Annotated[dict[str, str], "`{card: error code}` for every card of the hand with no legal use now"
                                     " (`{}` for spectators; game/engine/hints.py)"]
    deadline: Annotated[str | None, "ISO time of the running deadline, or null"]
    deadline_kind: Annotated[Literal["turn", "check"] | None, "`turn`, or `check` (cheater mode's check phase)"]
    deadline_seconds: Annotated[float | None, "the deadline's full length (the table's turn timer, halved for a"
                                              " berserk seat, or the 4 s check)"]
    deadline_seats: Annotated[list[int], "the seats the deadline runs for"]
    seats: Annotated[list[SeatFacts], "per seat, in order"]
    result: Annotated[GameResult | None, "null while playing"]
    log: NotRequired[Annotated[list[LogEntry], "on a (re)connect to a running game only: its last 60 moves,"
                                               " oldest first, one entry per move with how its round closed"
                                               " (game/move_log.py); the move log starts from it"]]
    bot_played: NotRequired[Annotated[BotPlayed | None, "on a (re)connect, a seated viewer's own seat only (while"
                                                        " playing, if it ended within 10 min; of a finished game"
                                                        " however old)"]]


def register() -> None:
    """The game's messages (GameConfig.ready())."""
    register_in(Ping, Resync, Hello, Action, sockets=(TABLE,))
    register_out(Pong, Ack, Error, Lobby, GameStarted, State, sockets=(TABLE,))
