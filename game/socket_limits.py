"""How many sockets one account and one address may hold open on this process, and how fast an
account may open site sockets on all of them.

One account held 300 sockets open, each a share of the process's loop, memory and channel-layer
subscriptions. A web process admits at most PER_ACCOUNT sockets of an account and PER_ADDRESS of
an address (several people behind one home or office address share it); past that the socket is
closed with close_codes.TOO_MANY after an error frame. These counts are this process's own: exact, and
gone with it (a deployment of N web processes bounds an account at N times as many).

Opening and closing site sockets in a loop (78 a second) costs every process a handshake, a session
read and presence writes each time: `connect_allowed` is one allowance per account counted in the
shared cache (Redis when set), so N web processes do not give an account N times as many.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.conf import settings

from durak_site import ratelimit

CONNECTS = (30, 30)  # site sockets one account may open: 30 at once, then about 30 in 30 s (1 a second)

_accounts: Counter[int] = Counter()
_addresses: Counter[str] = Counter()


def admit(player_id: int, address: str) -> bool:
    """Count one more socket of `player_id` from `address`, or refuse it (nothing counted then)."""
    if _accounts[player_id] >= settings.SOCKETS_PER_ACCOUNT or _addresses[address] >= settings.SOCKETS_PER_ADDRESS:
        return False
    _accounts[player_id] += 1
    _addresses[address] += 1
    return True


def release(player_id: int, address: str) -> None:
    """The socket admitted for `player_id` from `address` has closed."""
    _drop(_accounts, player_id)
    _drop(_addresses, address)


def _drop(counter: Counter[Any], key: object) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


def connect_allowed(player_id: int) -> bool:
    """Whether `player_id` may open one more site socket (counted, refused or not: a loop of
    refused attempts stays refused). A page change reopens one, several tabs open at once; a
    loop opening and closing them is refused (close 4429). The cache's: run it off the loop."""
    return ratelimit.within_sliding("site-connects", player_id, CONNECTS)
