"""The chat's messages on the table socket (game/protocol): registered with its hooks (chat/socket.py).

A malformed chat message is refused in a `chat_error` frame, with the code its service would give.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

from game.protocol import TABLE, Refuse, register_in, register_out

# ---------------------------------------------------------------- client -> server


class ChatSend(TypedDict):
    """Write a message."""

    type: Literal["chat_send"]
    text: Annotated[str, Refuse("chat_bad_text"), "plain text, at most 200 characters after control characters"
                                                  " are removed and whitespace folded"]


class ChatReact(TypedDict):
    """A quick phrase or emoji reaction shown over the sender's seat."""

    type: Literal["chat_react"]
    key: Annotated[str, Refuse("chat_bad_reaction"), "a key from chat/services.py `REACTIONS`"]


class ChatReport(TypedDict):
    """Report a message to the moderators; answered with `chat_reported`."""

    type: Literal["chat_report"]
    message_id: Annotated[int, Refuse("chat_no_message"), "the message"]
    reason: Annotated[str, Refuse("chat_bad_reason"), "at most 300 characters"]


class ChatSettings(TypedDict):
    """The host changes the table's chat settings ([RULES](RULES.md#chat-settings)); either field may be left out."""

    type: Literal["chat_settings"]
    spectators: NotRequired[Annotated[str, Refuse("chat_bad_setting"), "`write`, `read` or `hidden`"]]
    profanity_filter: NotRequired[Annotated[bool, Refuse("chat_bad_setting"), "mask swear words"]]


class ChatSync(TypedDict):
    """Send me `chat_state` again."""

    type: Literal["chat_sync"]


# ---------------------------------------------------------------- server -> client


class ChatMessage(TypedDict):
    """A chat message as it is shown."""

    id: Annotated[int, "the message"]
    author_id: Annotated[int, "its author"]
    nick: Annotated[str, "his nick"]
    seat: Annotated[int | None, "his game seat, or null"]
    text: Annotated[str, "as shown: masked if the filter is on"]
    at: Annotated[str, "ISO: when it was written"]


class ChatSettingsNow(TypedDict):
    """The table's chat settings."""

    spectators: Annotated[str, "`write`, `read` or `hidden`"]
    profanity_filter: Annotated[bool, "swear words are masked"]


class MuteNotice(TypedDict):
    """A mute on the viewer."""

    until: Annotated[str, "ISO: when it ends"]
    reason: Annotated[str, "the moderator's reason"]


class ChatState(TypedDict):
    """On connect, on `chat_sync` and on a change of the viewer's rights: what he may do, and when he
    may read, the chat itself."""

    type: Literal["chat_state"]
    read: Annotated[bool, "may read the chat"]
    write: Annotated[bool, "may write"]
    manage: Annotated[bool, "may change the settings"]
    me: Annotated[int, "the viewer's player id"]
    version: NotRequired[Annotated[int, "when `read`: the chat's version, bumped by every message, deletion and"
                                        " setting change"]]
    messages: NotRequired[Annotated[list[ChatMessage], "when `read`: the last 50, oldest first"]]
    settings: NotRequired[Annotated[ChatSettingsNow, "when `read`"]]
    muted: NotRequired[Annotated[MuteNotice | None, "when `read`: the viewer's mute, or null"]]


class Chat(TypedDict):
    """A new message."""

    type: Literal["chat"]
    message: Annotated[ChatMessage, "the message"]
    version: Annotated[int, "the chat's version now"]


class ChatDeleted(TypedDict):
    """A moderator deleted a message."""

    type: Literal["chat_deleted"]
    id: Annotated[int, "the message"]
    version: Annotated[int, "the chat's version now"]


class ChatReaction(TypedDict):
    """A quick reaction."""

    type: Literal["chat_reaction"]
    key: Annotated[str, "the phrase or emoji"]
    author_id: Annotated[int, "who sent it"]
    nick: Annotated[str, "his nick"]
    seat: Annotated[int | None, "his game seat, over which it shows, or null"]


class ChatReported(TypedDict):
    """Your report was filed."""

    type: Literal["chat_reported"]
    message_id: Annotated[int, "the message reported"]


class ChatError(TypedDict):
    """A chat message was refused."""

    type: Literal["chat_error"]
    code: Annotated[str, "one of the [error codes](#error-codes), those starting with `chat_`"]
    message: Annotated[str, "for people, in the socket's language"]


def register() -> None:
    register_in(ChatSend, ChatReact, ChatReport, ChatSettings, ChatSync, sockets=(TABLE,), error_frame="chat_error")
    register_out(ChatState, Chat, ChatDeleted, ChatReaction, ChatReported, ChatError, sockets=(TABLE,))
