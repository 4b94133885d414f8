"""The tournaments' news on the sockets (game/protocol), registered from TournamentsConfig.ready().

`tournament` reaches the tabs that show the event (the group `tournament-<id>`, tournaments/announce.py);
the others a player's own tabs (his `site-<id>` group, through social/notify.py). Both sockets pass
them on as they are. A pairing's `match` is social's (social/protocol.py), with the event's id.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from game.protocol import register_out
from social.protocol import BOTH


class Tournament(TypedDict):
    """The standings changed: read once per change for every open page of the event
    (tournaments/live.py), at most one frame a second from each server process."""

    type: Literal["tournament"]
    id: Annotated[int, "the event"]
    standings: Annotated[str, "one JSON string, encoded once for every tab: `status`, `round`, `players`, "
                              "`order` (listed players' ids in standings order), `lines` (`id`, `nick`, "
                              "`shown`, `marks`, `state`, `fire`), `recent`, `running` (`[table_id, nick, "
                              "…]`: every player of the table in seat order), `at` (ms); `finished`, `next_round` at those moments"]


class TournamentSoon(TypedDict):
    """A joined event starts in a minute."""

    type: Literal["tournament_soon"]
    tournament: Annotated[int, "the event"]
    toast: Annotated[dict[str, str], "the notice in each language (`ru`, `en`)"]
    url: Annotated[str, "the event's page"]
    starts_at: Annotated[str, "ISO: its start"]


class TournamentAbsent(TypedDict):
    """He did not come to his tournament table in time: the game is lost (docs/TOURNAMENTS.md)."""

    type: Literal["tournament_absent"]
    tournament: Annotated[int, "the event"]


def register() -> None:
    register_out(Tournament, TournamentSoon, TournamentAbsent, sockets=BOTH)
