"""Mask (never block) swearing in Russian and English.

glin-profanity (MIT, maintained, no heavy dependencies) holds the word lists of both languages.
Its Russian list is short and whole-word only, so the common roots of Russian mat, which inflect
endlessly, are masked here too.
"""

from __future__ import annotations

import re
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


@lru_cache(maxsize=1)
def _filter() -> Filter:
    return Filter({"languages": ["russian", "english"], "replace_with": MASK, "word_boundaries": True})


def _mask_root(match: re.Match) -> str:
    word = match.group(0)
    return word[0] + MASK * (len(word) - 1)


@lru_cache(maxsize=4096)
def mask(text: str) -> str:
    """`text` with each profane word replaced by its first letter and asterisks. Chat repeats
    itself («gg», «спасибо»): a repeated text costs a dictionary lookup, not a scan."""
    result = _filter().check_profanity(text)
    masked = result.get("processed_text") or text if result.get("contains_profanity") else text
    return _RU_ROOTS.sub(_mask_root, masked)
