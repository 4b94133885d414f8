"""Flood control for a socket: token buckets, so a burst of legal moves passes and a stream does not.

A client that replays a queue of moves after a reconnect sends a burst well above the steady rate;
a per-second cap closed it. A bucket holds `burst` tokens, refills `rate` per second, and each
message takes one; an empty bucket means abuse. Pings use their own bucket, so the heartbeat never
eats into the moves' allowance.
"""

from __future__ import annotations

import time

from django.core.cache import cache

REPUBLISH_MEMORY = 60  # seconds a republished version is remembered


class TokenBucket:
    """`burst` messages at once, then `rate` a second on average."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float, now: float | None = None) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic() if now is None else now

    def take(self, now: float | None = None) -> bool:
        """Take one token; False when the bucket is empty (nothing is taken then)."""
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def first_republish(game_id: int, version: int) -> bool:
    """Is this the first resent move that asks for `version`'s frames to go out again (to every
    viewer)? A frame lost with a dying process needs one republish; each later resend of the same
    move gets at most its sender's own frame, so resending cannot make the server rebuild and
    send every viewer's frame again and again. Shared by the processes through the cache."""
    return cache.add(f"republished:{game_id}:{version}", 1, timeout=REPUBLISH_MEMORY)
