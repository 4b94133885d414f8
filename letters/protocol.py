"""Letters' news on the sockets (game/protocol), registered from LettersConfig.ready(): a player's own
tabs hear them (his `site-<id>` group, through social/notify.py), on whichever socket a page holds."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

from game.protocol import register_out
from social.protocol import BOTH


class LetterShown(TypedDict):
    """A letter as the page and the socket show it (letters/services/conversations.py `payload`)."""

    id: Annotated[int, "the letter"]
    author_id: Annotated[int, "who wrote it"]
    nick: Annotated[str, "his nick"]
    text: Annotated[str, "as shown (masked)"]
    at: Annotated[str, "ISO: when it was written"]


class Letter(TypedDict):
    """A friend's private message (written over HTTP), or your own, to your other tabs."""

    type: Literal["letter"]
    partner: Annotated[int, "the other player of the conversation"]
    letter: Annotated[LetterShown, "the letter"]
    url: Annotated[str, "the conversation's page"]
    unread: NotRequired[Annotated[int, "a received letter: his unread letters in all"]]
    mine: NotRequired[Annotated[bool, "your own letter, to your other tabs"]]


class LettersRead(TypedDict):
    """You read that conversation in another tab."""

    type: Literal["letters_read"]
    partner: Annotated[int, "the other player of the conversation"]
    unread: Annotated[int, "his unread letters in all now"]


class LetterDeleted(TypedDict):
    """A moderator deleted a letter of that conversation."""

    type: Literal["letter_deleted"]
    partner: Annotated[int, "the other player of the conversation"]
    id: Annotated[int, "the letter"]


def register() -> None:
    register_out(Letter, LettersRead, LetterDeleted, sockets=BOTH)
