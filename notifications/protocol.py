"""The table socket's message the notifications app adds (game/protocol), registered with its hook."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from game.protocol import TABLE, register_in


class Visibility(TypedDict):
    """This tab shows the table (sent on open, on each change and every 20 s while visible) or no longer
    does; while any tab of the player shows the table, no «Ваш ход» push is sent
    ([settings](settings.md#web-push-notifications)). No answer."""

    type: Literal["visibility"]
    visible: Annotated[bool, "whether the tab is in view"]


def register() -> None:
    register_in(Visibility, sockets=(TABLE,))
