"""Nick rules: 3-20 Cyrillic/Latin letters, digits, `_` and `-`; reserved names and their look-alikes refused.

A nick's *skeleton* folds case, drops `_`/`-` and maps look-alike characters (Cyrillic letters that look
Latin, digits that look like letters) onto one form, so `Аdmin`, `adm1n` and `a_d_m_i_n` all read `admin`.
Two nicks with one skeleton cannot both exist: nobody can pose as another player or as staff.
"""

from __future__ import annotations

import re
import unicodedata

from durak_site.errors import ServiceError

MIN_LENGTH = 3
MAX_LENGTH = 20
_ALLOWED = re.compile(r"^[0-9A-Za-z\u0400-\u045F_-]+$")
_LETTER = re.compile(r"[A-Za-z\u0400-\u045F]")

_LOOKALIKES = str.maketrans({
    # Cyrillic letters that read as Latin ones (lower case: the skeleton is case-folded first)
    "а": "a", "б": "b", "в": "b", "е": "e", "ё": "e", "з": "e", "и": "u", "й": "u", "к": "k", "м": "m",
    "н": "h", "о": "o", "п": "n", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ь": "b", "ъ": "b",
    "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ɡ": "g",
    # digits that read as letters, and Latin letters easily confused with each other
    "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "6": "b", "7": "t", "8": "b", "9": "g", "l": "i",
    "_": None, "-": None,
})

# Exact names (after folding, also with leading/trailing digits dropped: `bot7`, `admin_1`).
RESERVED = (
    "admin", "administrator", "moderator", "moder", "mod", "system", "sys", "durak", "durakclub", "bot",
    "bots", "root", "support", "staff", "server", "dealer", "official", "anonymous", "guest", "null",
    "none", "undefined", "spectator", "everyone", "help",
    "админ", "администратор", "модератор", "модер", "система", "бот", "дурак", "поддержка", "сервер",
    "крупье", "гость", "зритель",
)
# Words refused anywhere inside a nick.
RESERVED_INSIDE = ("admin", "moderator", "official", "support", "админ", "модератор", "поддержк")


def normalize(nick: str) -> str:
    """What the player meant: surrounding spaces dropped, Unicode composed (й is one character)."""
    return unicodedata.normalize("NFC", (nick or "").strip())


def skeleton(nick: str) -> str:
    return normalize(nick).casefold().translate(_LOOKALIKES).replace("rn", "m").replace("vv", "w")


_RESERVED_SKELETONS = frozenset(skeleton(word) for word in RESERVED)
_RESERVED_INSIDE_SKELETONS = tuple(skeleton(word) for word in RESERVED_INSIDE)


def is_reserved(nick: str) -> bool:
    nick = normalize(nick)
    core = re.sub(r"^[\d_-]+|[\d_-]+$", "", nick)
    if skeleton(nick) in _RESERVED_SKELETONS or (core and skeleton(core) in _RESERVED_SKELETONS):
        return True
    return any(word in skeleton(nick) for word in _RESERVED_INSIDE_SKELETONS)


def check_format(nick: str) -> str:
    """The nick, normalised, or ServiceError with a message telling what to change."""
    nick = normalize(nick)
    if not nick:
        raise ServiceError("nick_required")
    if len(nick) < MIN_LENGTH or len(nick) > MAX_LENGTH:
        raise ServiceError("nick_length", min=MIN_LENGTH, max=MAX_LENGTH, n=len(nick))
    if not _ALLOWED.match(nick):
        raise ServiceError("nick_chars")
    if not _LETTER.search(nick):
        raise ServiceError("nick_letters")
    if is_reserved(nick):
        raise ServiceError("nick_reserved", nick=nick)
    return nick
