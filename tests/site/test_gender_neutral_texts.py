"""The site does not know a player's gender: Russian text about a third person must read right for anyone.

A masculine past-tense verb next to a player's name («Вера сел на место 2», «Аня побил …») reads
wrong for half the players. Every Russian catalogue is scanned for such a verb in a message that
names a player (a %(nick)s / {name}-like placeholder); the game words them «Место 2: Вера»,
«Вера: 7♣ побита К♥» or with present-tense verbs, which agree with anyone.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = sorted(p for p in ROOT.glob("**/locale/ru/LC_MESSAGES/django.po") if ".venv" not in p.parts)

# Masculine past tense of what players do at a table (and a few adjectives that agree with him).
DENY = (
    "сел", "пересел", "встал", "вышел", "ушёл", "ушел", "побил", "отбил", "отбился", "проиграл",
    "выиграл", "победил", "взял", "забрал", "сдался", "перевёл", "перевел", "подкинул", "походил",
    "сходил", "сыграл", "пасовал", "поймал", "ошибся", "поменял", "обменял", "потерял", "вернулся",
    "отключился", "подключился", "покинул", "изменил", "отменил", "пригласил", "предложил",
    "попросил", "написал", "пожаловался", "удалил", "заблокировал", "закрыл", "запретил", "выбыл",
    "готов", "был", "не вернулся",
)
PLAYER = re.compile(r"%\((?:nick|nicks|name|names|player|who|by)\)s|\{(?:nick|nicks|name|names|player|who)\}")
WORD = re.compile(r"[А-Яа-яЁё]+")
QUOTED = re.compile(r"«[^»]*»")


def _entries(path: Path) -> list[tuple[str, str]]:
    """(msgid, msgstr) pairs of a .po file, joined over continuation lines."""
    entries, cur, parts = [], None, {"msgid": "", "msgstr": ""}

    def flush() -> None:
        if parts["msgid"] or parts["msgstr"]:
            entries.append((parts["msgid"], parts["msgstr"]))

    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r'^(msgid|msgstr|msgctxt|msgid_plural|msgstr\[\d\]) "(.*)"$', line)
        if m:
            key = "msgstr" if m.group(1).startswith("msgstr") else m.group(1)
            if key == "msgid":
                flush()
                parts = {"msgid": "", "msgstr": ""}
            cur = key if key in parts else None
            if cur:
                parts[cur] += m.group(2)
        elif line.startswith('"') and cur:
            parts[cur] += line[1:-1]
        else:
            cur = None
    flush()
    return entries


def masculine_about_a_player(msgstr: str) -> list[str]:
    """The deny-listed verbs in a translation that names a player."""
    if not PLAYER.search(msgstr):
        return []
    words = [w.lower() for w in WORD.findall(QUOTED.sub("", msgstr))]  # a button's name is not a verb
    return [w for w in words if w in DENY]


def test_the_scan_catches_a_masculine_verb() -> None:
    assert masculine_about_a_player("%(nick)s сел на место %(n)s.") == ["сел"]
    assert masculine_about_a_player("{name} побил {target} картой {card}") == ["побил"]
    assert masculine_about_a_player("Место %(n)s: %(nick)s.") == []
    assert masculine_about_a_player("{name}: {target} побита картой {card}") == []
    assert masculine_about_a_player("%(nick)s нажимает «Готово».") == []
    assert masculine_button("Готов") == ["готов"]
    assert masculine_button("Отменить готовность") == []


def test_catalogues_are_found() -> None:
    assert len(CATALOGUES) >= 5


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_masculine_past_tense_about_a_player(path: Path) -> None:
    bad = [(msgid, msgstr) for msgid, msgstr in _entries(path) if masculine_about_a_player(msgstr)]
    assert bad == [], f"{path.relative_to(ROOT)}: word these for anyone: {bad}"


# Short state labels shown next to a player's name (a seat, a result line, a history line).
SEAT_LABELS = {"left", "out", "won", "lost", "lost on time", "did not return", "did not return in time",
               "left the game", "not ready", "ready to play"}


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_state_labels_next_to_a_name_are_neutral(path: Path) -> None:
    bad = [(msgid, msgstr) for msgid, msgstr in _entries(path)
           if msgid in SEAT_LABELS and any(w.lower() in DENY for w in WORD.findall(QUOTED.sub("", msgstr)))]
    assert bad == [], f"{path.relative_to(ROOT)}: {bad}"


# Buttons a player presses about themself: their label speaks in the player's voice («Готов» is
# his only), and a message that quotes a button's name must quote the neutral one.
BUTTON_LABELS = {"Ready", "Not ready"}


def masculine_button(msgstr: str) -> list[str]:
    """The deny-listed words in a button's label (quotes included: the label is the button)."""
    return [w for w in (w.lower() for w in WORD.findall(msgstr)) if w in DENY]


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_ready_buttons_are_neutral(path: Path) -> None:
    entries = _entries(path)
    bad = [(msgid, msgstr) for msgid, msgstr in entries if msgid in BUTTON_LABELS and masculine_button(msgstr)]
    quoted = [msgstr for _, msgstr in entries
              if any(masculine_button(q) for q in QUOTED.findall(msgstr))]
    assert bad == [] and quoted == [], f"{path.relative_to(ROOT)}: {bad} {quoted}"
