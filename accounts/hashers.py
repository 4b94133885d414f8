"""The recovery key's hasher: PBKDF2 with few rounds, for keys only.

A key is 140 random bits (accounts/keys.py): guessing one is hopeless whatever the hash costs, so the
million rounds Django spends on a password (chosen by a person, often guessable) buy a key nothing
and cost each sign-up, new key and key login about a second of a web process's CPU. Staff passwords
keep Django's default hasher (settings.PASSWORD_HASHERS[0]); ``Player.set_password`` picks this one
for a well-formed key only, and a key stored with the full cost is re-hashed at its next login.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher, make_password


class RecoveryKeyHasher(PBKDF2PasswordHasher):
    algorithm = "pbkdf2_sha256_key"
    iterations = 1000


PATH = f"{RecoveryKeyHasher.__module__}.{RecoveryKeyHasher.__qualname__}"


def available() -> bool:
    """Configured (tests may swap PASSWORD_HASHERS for a single fast one)."""
    return PATH in settings.PASSWORD_HASHERS


def is_key_hash(encoded: str) -> bool:
    return encoded.startswith(RecoveryKeyHasher.algorithm + "$")


def hash_key(key: str) -> str:
    return make_password(key, hasher=RecoveryKeyHasher.algorithm)
