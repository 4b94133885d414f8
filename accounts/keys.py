"""Recovery keys: 140 random bits from `secrets`, shown as seven groups of four characters.

The alphabet is Crockford's base 32 (no I, L, O, U), so a key read aloud or typed on a phone survives:
typing is forgiving (any case, spaces or dashes, O for 0, I/L for 1, Russian look-alike letters).
Only a hash of the normalised key is stored, as the player's password.
"""

from __future__ import annotations

import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
GROUPS = 7
GROUP = 4
LENGTH = GROUPS * GROUP  # 28 characters x 5 bits = 140 bits

_TYPING = str.maketrans({
    "O": "0", "I": "1", "L": "1",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "0", "Р": "P", "С": "C", "Т": "T",
    "Х": "X", "У": "Y", "З": "3",
})


def generate() -> str:
    """A new key, normalised (no dashes)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalize(typed: str) -> str:
    """What the player typed, reduced to the stored form; may be invalid (see is_well_formed)."""
    kept = "".join(ch for ch in (typed or "").upper() if ch.isalnum())
    return kept.translate(_TYPING)


def is_well_formed(key: str) -> bool:
    return len(key) == LENGTH and all(ch in ALPHABET for ch in key)


def display(key: str) -> str:
    """XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX."""
    return "-".join(key[i:i + GROUP] for i in range(0, len(key), GROUP))
