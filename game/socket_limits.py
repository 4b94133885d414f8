"""How many table sockets one account and one address may hold open on this process.

One account held 300 sockets open, each a share of the process's loop, memory and channel-layer
subscriptions. A web process admits at most PER_ACCOUNT sockets of an account and PER_ADDRESS of
an address (several people behind one home or office address share it); past that the socket is
closed with close_codes.TOO_MANY after an error frame. The counts are this process's own: exact, and
gone with it (a deployment of N web processes bounds an account at N times as many).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.conf import settings

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
