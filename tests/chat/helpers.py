"""Sockets at a table with chat: open one and wait for its chat state."""

from __future__ import annotations

from tests.game.helpers import open_socket, receive_until


async def chat_socket(table_id: int, player, **kwargs):
    """An open socket at the table and the chat_state it got on connect."""
    comm, connected, _code = await open_socket(table_id, player, **kwargs)
    assert connected
    state = await receive_until(comm, lambda f: f["type"] == "chat_state")
    return comm, state


async def next_chat(comm, kind: str, timeout: float = 5.0) -> dict:
    return await receive_until(comm, lambda f: f["type"] == kind, timeout)


async def no_chat(comm, quiet: float = 0.5) -> list[dict]:
    """The chat frames that arrive within `quiet` seconds (the caller asserts there are none)."""
    from tests.game.helpers import drain

    return [f for f in await drain(comm, quiet) if f["type"].startswith("chat")]
