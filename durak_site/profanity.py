"""Mask (never block) swearing in Russian and English.

glin-profanity (MIT, maintained, no heavy dependencies) holds the word lists of both languages.
Its Russian list is short and whole-word only, so the common roots of Russian mat, which inflect
endlessly, are masked here too. A second pass sees through the usual disguises: each word (and each
run of single letters spaced or dotted apart) is normalised (accents dropped, Latin look-alikes and
digits read as the letters they stand for, repeated letters folded) and masked when that reads as
swearing, or as swear words joined together or to a few short words («fuckfuck», «fuckyou»,
«сукасука», «тысука»); the original text is what gets masked.

Joined words are read only as a whole made of swear words and JOINERS (pronouns and particles that
are written together with an insult): a word is never searched for swearing inside it, so «class»,
«therapist», «Scunthorpe», «корабля» or «барсука» stay as they are.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from glin_profanity import Filter

MASK = "*"
# the roots of Russian mat, anchored at a word's start (with the usual prefixes) so that ordinary
# words holding the same letters (корабля, требую, себе) are left alone; a match is masked whole
_RU_ROOTS = re.compile(
    r"\b\w*(?:пизд|ху[йяеёи])\w*"
    r"|\b(?:за|у|от|вы|до|на|по|про|рас|раз|с|съ|под|при|пере|из|въ|вз|объ|долбо)?[её]б(?:[аыуоиё]|н|л|т|\b)\w*"
    r"|\bбля(?:[дт]\w*|\b)"
    r"|\bсук(?:а|и|у|ой|ин\w*)\b"
    r"|\b(?:муда[кч]|залуп|шлюх|гандон|п[иеё]д[оа]р)\w*",
    re.IGNORECASE,
)

# a run of three or more single characters set apart by spaces, dots, dashes ("х у й", "с.у.к.а"),
# else one word; @ and $ stand for letters inside a word
_L = r"[\w@$\u0300-\u036f]"  # a word's character: a letter, a digit, @, $ or an accent
_SPAN = re.compile(rf"(?<!{_L}){_L}(?:[\s.\-_*,]{{1,2}}{_L}){{2,}}(?!{_L})|{_L}+")
_SEPARATORS = re.compile(r"[\s.\-_*,]+")
_CYRILLIC = re.compile(r"[а-яё]")
# in a word with a Cyrillic letter: the Latin letters and digits that look like Cyrillic ones
_AS_CYRILLIC = str.maketrans({
    "a": "а", "b": "в", "c": "с", "e": "е", "h": "н", "k": "к", "m": "м", "n": "п", "o": "о", "p": "р",
    "r": "г", "t": "т", "u": "и", "x": "х", "y": "у", "0": "о", "3": "з", "4": "ч", "6": "б", "@": "а",
})
# in a Latin word: the usual digits and signs for letters
_AS_LATIN = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"})
_KEEP_MARKS = frozenset("йё")  # their marks make other letters: и, е


JOINERS = frozenset({
    "you", "u", "ya", "off", "me", "your", "yourself", "him", "them", "it", "up", "all", "this", "that",
    "go", "mother", "bull", "holy", "dumb",
    "ты", "вы", "ну", "иди", "тебя", "тебе", "твою", "мать", "вот", "это", "все", "всё", "он", "она", "они",
})
_JOINED_MIN, _JOINED_MAX = 5, 40  # a joined reading's length in letters (longer ones are not split)
_SWEAR_MIN = 3  # a swear word's letters inside a joined word


@lru_cache(maxsize=1)
def _filter() -> Filter:
    return Filter({"languages": ["russian", "english"], "replace_with": MASK, "word_boundaries": True})


def _mask_root(match: re.Match) -> str:
    word = match.group(0)
    return word[0] + MASK * (len(word) - 1)


def _plain_letters(word: str) -> str:
    """Lower case without accents (й and ё kept: their marks make other letters)."""
    out = []
    for ch in word.lower():
        if ch in _KEEP_MARKS:
            out.append(ch)
        else:
            out.extend(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    return "".join(out)


def readings(span: str) -> list[str]:
    """What a disguised word may stand for: normalised, then with repeated letters folded."""
    word = _plain_letters(_SEPARATORS.sub("", span))
    if sum(ch.isalpha() for ch in word) < 2:
        return []  # a number, a lone letter: nothing to read
    word = word.translate(_AS_CYRILLIC if _CYRILLIC.search(word) else _AS_LATIN)
    word = "".join(ch for ch in word if ch.isalpha())
    folded = re.sub(r"(.)\1+", r"\1", word)
    return [word, folded] if folded != word else [word]


@lru_cache(maxsize=8192)
def _swearing(reading: str) -> bool:
    return bool(_RU_ROOTS.fullmatch(reading)) or _filter().is_profane(reading)


@lru_cache(maxsize=1)
def _word_set() -> frozenset[str] | None:
    """The word list's words (a part of a joined word is looked up, not scanned: a scan costs a
    quarter of a millisecond and a joined word has dozens of parts); None if the library hides them."""
    words = getattr(_filter(), "words", None)
    return frozenset(str(w).lower() for w in words) if words else None


def _swear_part(part: str) -> bool:
    words = _word_set()
    if words is None:
        return _swearing(part)
    return part in words or bool(_RU_ROOTS.fullmatch(part))


@lru_cache(maxsize=4096)
def joined_swearing(reading: str) -> bool:
    """Whether the whole word is swear words and JOINERS written together, one swear word at least
    («fuckyou», «сукасука»): a split by dynamic programming over its letters."""
    n = len(reading)
    if not _JOINED_MIN <= n <= _JOINED_MAX:
        return False
    # best[i]: the first i letters split into parts: None (no split), False (joiners only), True (a swear word)
    best: list[bool | None] = [None] * (n + 1)
    best[0] = False
    for i in range(n):
        if best[i] is None:
            continue
        for j in range(i + 1, n + 1):
            part = reading[i:j]
            if part in JOINERS and (j - i < n):
                found = best[i]
            elif j - i >= _SWEAR_MIN and j - i < n and _swear_part(part):
                found = True
            else:
                continue
            if best[j] is None or (found and not best[j]):
                best[j] = found
    return bool(best[n])


def _mask_disguised(match: re.Match) -> str:
    span = match.group(0)
    if MASK in span:
        return span  # the first pass masked it
    plain = span.lower()  # the first pass has judged the word as written
    found = readings(span)
    if any(_swearing(r) for r in found if r != plain) or any(joined_swearing(r) for r in found):
        return span[0] + MASK * (len(span) - 1)
    return span


@lru_cache(maxsize=4096)
def mask(text: str) -> str:
    """`text` with each profane word replaced by its first letter and asterisks. Chat repeats
    itself («gg», «спасибо»): a repeated text costs a dictionary lookup, not a scan."""
    result = _filter().check_profanity(text)
    masked = result.get("processed_text") or text if result.get("contains_profanity") else text
    masked = _RU_ROOTS.sub(_mask_root, masked)
    return _SPAN.sub(_mask_disguised, masked)
