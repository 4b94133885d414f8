"""The profanity mask sees through the usual disguises (look-alike Latin letters, letters spaced or
dotted apart, repeats, accents, digits for letters) and still leaves ordinary words alone."""

from __future__ import annotations

import pytest

from durak_site import profanity

DISGUISED = [
    ("xуй", "x**"),  # Latin x in a Russian word
    ("cука", "c***"),  # Latin c
    ("ну ты cyка", "ну ты c***"),  # Latin c and y
    ("х у й", "х****"),  # spaced apart
    ("х.у.й", "х****"),  # dotted apart
    ("с-у-к-а", "с******"),
    ("хууууй", "х*****"),  # repeats
    ("сууука", "с*****"),
    ("ху́й", "х***"),  # an accent (a combining mark)
    ("6лядь", "6****"),  # a digit for a letter
    ("пи3дец", "п*****"),
    ("b1tch", "b****"),
    ("sh1t happens", "* happens"),  # the word list reads some digits itself
    ("f u c k", "*"),
    ("п и з д а", "п********"),
    ("bítch", "*"),  # the word list's own match masks the whole word
    ("ёб твою", "ё* твою"),
]

INNOCENT = [
    "корабля требую себе оскорбление",
    "Хорошая игра!",
    "ссора в классе, масса дел",
    "у меня 3 туза и 6 козырей",
    "хулиган и психушка",
    "сукно, скука, небеса, хлеб",
    "a b c",
    "я и ты",
    "gg wp, ok 100%",
    "Assistant, class, passed",
    "ход 10♠, беру 2 карты",
    "h2o c4 3d 1v1",
    "Spasibo, xорошо",
    "eBay, hey, cake",
]


@pytest.mark.parametrize(("text", "shown"), DISGUISED)
def test_a_disguised_swear_word_is_masked(text, shown):
    assert profanity.mask(text) == shown


@pytest.mark.parametrize("text", INNOCENT)
def test_an_ordinary_message_passes_unchanged(text):
    assert profanity.mask(text) == text
