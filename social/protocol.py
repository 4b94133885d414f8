"""The site socket's messages (social/consumers.py), and the site's news both sockets carry
(social/notify.py: the table socket passes them on as they are, social/table_socket.py), declared
in game/protocol's registry from SocialConfig.ready() (`register`).

The site socket answers a refusal with an `error` frame without `id`; its `pong` carries nothing.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, Required, TypedDict

from game.protocol import TABLE, register_in, register_out

SITE = "site"  # the site socket (/ws/site/)
BOTH = (SITE, TABLE)  # the news and the invitation's answer come on whichever socket a page holds

# ---------------------------------------------------------------- client -> server (site socket)


class Ping(TypedDict):
    """Sent every 20 s; answered with `pong`; every 35 s it also re-checks the session and refreshes presence."""

    type: Literal["ping"]


class Page(TypedDict):
    """The page this tab shows: at a matched table it presses «Готово» for the player; the lobby subscribes
    to the online list, the quick-play page to the queue's counts; the apps' page hooks join their groups
    (an event page: its live standings)."""

    type: Literal["page"]
    path: Annotated[str, "the page's path, at most 200 characters (else `bad_message`)"]


class Search(TypedDict):
    """Enter the quick-play search; answered with `search`."""

    type: Literal["search"]
    choices: NotRequired[Annotated[dict[str, Any] | None,
                                   "`mode` (`classic`/`cheater`/`pairs`), `variant` (`podkidnoy`/`perevodnoy`/`any`),"
                                   " `players`, `deck`, `turn_seconds`, `rated`, `bot_fill`, each optional (else `unknown_setting`; a bad value: its"
                                   " setting's code); none: the last ones"]]


class Cancel(TypedDict):
    """Leave the search; answered with `search`."""

    type: Literal["cancel"]


class Answer(TypedDict):
    """Answer an invitation; answered with `invitation_answered` (on the table socket too, whose refusal is
    an `error` frame with `id` null)."""

    type: Literal["invitation"]
    id: Annotated[int, "the invitation"]
    accept: Annotated[bool, "accept (he is seated in the first free seat) or decline"]


# ---------------------------------------------------------------- server -> client (site socket)


class Choices(TypedDict):
    """A search's choices (`SearchRequest.choices()`)."""

    mode: Annotated[str, "`classic`, `cheater` or `pairs` (four players, two against two)"]
    variant: Annotated[str, "`podkidnoy`, `perevodnoy`, or empty for any"]
    players: Annotated[int, "seats"]
    deck: Annotated[int, "cards in the deck"]
    turn_seconds: Annotated[int, "the turn timer"]
    rated: Annotated[bool, "a rated game"]
    bot_fill: Annotated[int, "seconds before bots fill the empty seats (0: never)"]


class SearchState(TypedDict, total=False):
    """His search as his waiting page shows it (social/queue.py `status_for`)."""

    state: Required[Annotated[Literal["idle", "searching", "matched"], "where the search is"]]
    since: Annotated[str, "`searching`: ISO, when he joined the queue"]
    others: Annotated[int, "`searching`: others waiting whose choices could meet his"]
    choices: Annotated[Choices, "`searching`: his choices"]
    url: Annotated[str, "`matched`: the table to go to"]


class Hello(TypedDict):
    """On connect: the search's state."""

    type: Literal["hello"]
    search: Annotated[SearchState, "as in `search`"]


class Pong(TypedDict):
    """The answer to `ping`."""

    type: Literal["pong"]


class SearchNews(TypedDict):
    """After `search` / `cancel`, and (at most once a second) when the queue changes."""

    type: Literal["search"]
    search: Annotated[SearchState, "his search now"]


class OnlinePlayer(TypedDict):
    """A player in the lobby's online list."""

    id: Annotated[int, "the player"]
    nick: Annotated[str, "his nick"]
    rating: Annotated[int, "his rating"]
    reliability: Annotated[str, "his reliability mark (social/reliability.py)"]
    status: Annotated[Literal["lobby", "searching", "playing"], "what he does now"]
    watch: NotRequired[Annotated[str | None, "`playing`: the table to watch, null for a private one"]]


class Online(TypedDict):
    """To a lobby page, at most once a second."""

    type: Literal["online"]
    online: Annotated[int, "players online"]
    playing: Annotated[int, "of them in a game"]
    players: Annotated[list[OnlinePlayer], "the list (the first 100 by nick), without who blocked the viewer"]


class Error(TypedDict):
    """A refused message, or why the socket closes."""

    type: Literal["error"]
    code: Annotated[str, "one of the [error codes](#error-codes)"]
    message: Annotated[str, "for people, in the socket's language"]


# ---------------------------------------------------------------- news, on either socket


class InvitationAnswered(TypedDict):
    """The answer to `invitation`."""

    type: Literal["invitation_answered"]
    id: Annotated[int, "the invitation"]
    accepted: Annotated[bool, "as answered"]
    url: Annotated[str | None, "the table, when accepted"]


class Match(TypedDict):
    """The search (or a tournament's pairing) found a table: go there."""

    type: Literal["match"]
    table_id: Annotated[int, "the table"]
    url: Annotated[str, "its page"]
    tournament: NotRequired[Annotated[int, "the event, when a tournament paired him"]]


class SearchEnded(TypedDict):
    """The search ended without a game."""

    type: Literal["search_ended"]
    reason: NotRequired[Annotated[Literal["no_show", "partner"],
                                  "`no_show`: he did not come to the table he was matched to; `partner`: the other"
                                  " half of his party left the search, closed every tab, was banned or did not come"]]


class Requeued(TypedDict):
    """Someone matched with you did not come: back to the search at your old place."""

    type: Literal["requeued"]
    url: Annotated[str, "the search page"]


class Invitation(TypedDict):
    """A player invites you to his table."""

    type: Literal["invitation"]
    id: Annotated[int, "the invitation (answer it with `invitation`)"]
    nick: Annotated[str, "the host"]
    table: Annotated[str, "the table's name"]
    expires_in: Annotated[int, "seconds until it expires"]


class InvitationAccepted(TypedDict):
    """The answer to your invitation."""

    type: Literal["invitation_accepted"]
    nick: Annotated[str, "who accepted"]


class InvitationDeclined(TypedDict):
    """The answer to your invitation."""

    type: Literal["invitation_declined"]
    nick: Annotated[str, "who declined"]


class InvitationWithdrawn(TypedDict):
    """An invitation to you is void: its host withdrew it or was banned, or invited you again (whose new
    `invitation` follows); answering it gets `invitation_expired`. The page drops its notice and says so (not when
    renewed)."""

    type: Literal["invitation_withdrawn"]
    id: Annotated[int, "the invitation"]
    nick: Annotated[str, "its host"]
    renewed: Annotated[bool, "he invited you again"]


class FriendRequest(TypedDict):
    """A friend request."""

    type: Literal["friend_request"]
    nick: Annotated[str, "who asks"]
    player_id: Annotated[int, "his id"]
    url: Annotated[str, "the friends page"]


class FriendAccepted(TypedDict):
    """Your friend request was accepted."""

    type: Literal["friend_accepted"]
    nick: Annotated[str, "who accepted"]


class PartyInvitation(TypedDict):
    """A friend asks you into his party; answered over HTTP (`POST /play/party/invitations/<id>/`, `op`
    `accept`/`decline`)."""

    type: Literal["party_invitation"]
    id: Annotated[int, "the party invitation"]
    nick: Annotated[str, "who asks"]
    expires_in: Annotated[int, "seconds until it expires"]


class PartyInvitationWithdrawn(TypedDict):
    """A party invitation to you is void (its host was banned)."""

    type: Literal["party_invitation_withdrawn"]
    id: Annotated[int, "the party invitation"]


class PartyDeclined(TypedDict):
    """Your party invitation was declined."""

    type: Literal["party_declined"]
    nick: Annotated[str, "who declined"]


class PartyFormed(TypedDict):
    """Your friend accepted: you two are a party (and search together if you were searching)."""

    type: Literal["party_formed"]
    nick: Annotated[str, "the friend"]
    url: Annotated[str, "the search page"]


class PartyLeft(TypedDict):
    """The other left the party (or it ended): your waiting search goes on alone."""

    type: Literal["party_left"]
    nick: Annotated[str, "who left"]
    url: Annotated[str, "the search page"]


class PartySearch(TypedDict):
    """Your party's leader started the search for you both: go there."""

    type: Literal["party_search"]
    nick: Annotated[str, "the leader"]
    url: Annotated[str, "the search page"]


NEWS = (InvitationAnswered, Match, SearchEnded, Requeued, Invitation, InvitationAccepted, InvitationDeclined,
        InvitationWithdrawn, FriendRequest, FriendAccepted, PartyInvitation, PartyInvitationWithdrawn, PartyDeclined,
        PartyFormed, PartyLeft, PartySearch)


def register() -> None:
    register_in(Ping, Page, Search, Cancel, sockets=(SITE,))
    register_in(Answer, sockets=BOTH)
    register_out(Hello, Pong, SearchNews, Online, Error, sockets=(SITE,))
    register_out(*NEWS, sockets=BOTH)
