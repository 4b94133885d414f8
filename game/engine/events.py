"""The last public event of a game (for animations and "X caught Y" in the UI)."""
from __future__ import annotations


def last_event(last: tuple | dict | None) -> dict | None:
    """The public form of ``state.last`` (hot actions store a tuple: seat, type, card, target
    [, closed])."""
    if last is None:
        return None
    if type(last) is dict:
        return dict(last)
    d = {"seat": last[0], "type": last[1]}
    if last[2] is not None:
        d["card"] = last[2]
    if last[3] is not None:
        d["target"] = last[3]
    if len(last) > 4:
        d["closed"] = last[4]
    return d
