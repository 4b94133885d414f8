"""The profanity mask reads through repeated and joined words in both languages («fuckfuck»,
«fuckyou», «сукасука», «тысука») and still leaves ordinary words that hold the same letters alone."""

from __future__ import annotations

import pytest

from durak_site import profanity

JOINED = [
    ("fuckfuck", "f*******"),
    ("FuckFuckFuck", "F***********"),
    ("fuckyou", "f******"),
    ("fuckoff", "f******"),
    ("ну и fuckyou тогда", "ну и f****** тогда"),
    ("shitshit", "s*******"),
    ("bullshit", "*"),  # the word list knows it: it masks the whole word
    ("сукасука", "с*******"),
    ("тысука", "т*****"),
    ("сукасукасука", "с***********"),
    ("сукаблять", "с********"),
    ("fuuuckyou", "f********"),
    ("сууукасука", "с*********"),
]

INNOCENT = [
    "assistant classic passed",
    "Scunthorpe therapist grapes",
    "cocktail hello analysis",
    "Dickens shell butterfly Hancock",
    "сукно барсука корабля скука потребляю",
    "ваша вашавашa",
    "хорошохорошо",
    "ggwp ggggg",
    "dododo lalala",
]


@pytest.mark.parametrize(("text", "shown"), JOINED)
def test_a_repeated_or_joined_swear_word_is_masked(text, shown):
    assert profanity.mask(text) == shown


@pytest.mark.parametrize("text", INNOCENT)
def test_ordinary_words_holding_the_same_letters_pass(text):
    assert profanity.mask(text) == text
