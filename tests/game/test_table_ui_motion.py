"""The table's feel: the deal at the start and the «Дурак!» moment, and none of it for people
who ask the system for reduced motion."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from game.views import load_samples
from tests.game.test_table_ui_harness import harness, new_page, open_sample, set_switch  # noqa: F401

SAMPLES = load_samples()


@pytest.mark.parametrize("motion, animated", [("no-preference", True), ("reduce", False)])
def test_a_fresh_deal_is_dealt_from_the_stock(browser, harness, motion, animated):  # noqa: F811
    context, page = new_page(browser, harness, reduced_motion=motion)
    open_sample(page, harness, "lead2")  # round 1, nothing played yet
    running = page.evaluate("document.getAnimations().filter(a => a.playState === 'running').length")
    assert (running > 0) == animated
    flying = page.locator("body > .card.ghost").count()
    assert (flying > 0) == animated
    context.close()
    assert not page.errors, page.errors


def test_a_game_in_progress_is_not_dealt_again(browser, harness):  # noqa: F811
    context, page = new_page(browser, harness)
    open_sample(page, harness, "podkidnoy4")
    assert page.locator("body > .card.ghost").count() == 0
    context.close()


@pytest.mark.parametrize("loser, text", [(2, "Дурак!"), (1, "Отлично сыграно!")])
def test_the_end_of_a_live_game_has_its_moment(browser, harness, screenshot_dir: Path, loser, text):  # noqa: F811
    context, page = new_page(browser, harness, viewport={"width": 390, "height": 844})
    open_sample(page, harness, "lead2")
    frame = copy.deepcopy(SAMPLES["lead2"]["frame"])
    frame.pop("deadline_in", None)
    me = frame["view"]["seat"]
    loser_seat = me if loser == 2 else (me % 2) + 1
    frame["version"] = frame.get("version", 1) + 5
    frame["view"].update(phase="over", turn=[], legal=[], result={
        "loser": loser_seat, "losers": [loser_seat], "winners": [(loser_seat % 2) + 1], "draw": False,
        "reason": "normal"})
    page.evaluate("f => window.__table.receive(f)", frame)
    page.wait_for_selector(".g-moment")
    assert page.inner_text(".g-moment").startswith(text)
    page.wait_for_timeout(350)
    page.screenshot(path=str(screenshot_dir / f"table_ui_moment_{'durak' if loser == 2 else 'won'}.png"))
    context.close()


@pytest.mark.parametrize("took", [True, False])
def test_a_cleared_table_flies_face_up_to_the_taker_or_face_down_to_the_discard(browser, harness, took):  # noqa: F811
    context, page = new_page(browser, harness)
    open_sample(page, harness, "podkidnoy4")  # seat 2 defends: 7♠/10♠, 10♣, 7♦ on the table
    frame = copy.deepcopy(SAMPLES["podkidnoy4"]["frame"])
    frame.pop("deadline_in", None)
    v = frame["view"]
    table_cards = [c for p in v["table"] for c in (p["attack"], p["defense"]) if c]
    frame["version"] += 1
    v.update(table=[], legal=[], turn=[3], took=False, attacker=3, defender=4,
             last={"seat": 2, "type": "take"} if took else {"seat": 1, "type": "pass"})
    if took:
        v["hand"] = v["hand"] + table_cards
    else:
        v["discard"] += len(table_cards)
    page.evaluate("f => window.__table.receive(f)", frame)
    flying = page.evaluate("""() => [...document.querySelectorAll('body > .card.ghost')]
        .map(e => e.classList.contains('back') ? 'back' : e.dataset.card)""")
    if took:
        assert sorted(flying) == sorted(table_cards)
    else:
        assert flying == ["back"] * len(table_cards)
    context.close()
    assert not page.errors, page.errors


@pytest.mark.parametrize("motion, flips", [("no-preference", True), ("reduce", False)])
def test_the_trump_card_flips_face_up_after_the_deal(browser, harness, motion, flips):  # noqa: F811
    context, page = new_page(browser, harness, reduced_motion=motion)
    open_sample(page, harness, "lead2")
    flipping = page.evaluate("""() => document.getAnimations().filter((a) => a.effect && a.effect.target
        && a.effect.target.matches('#g-deck .trump-card')
        && a.effect.getKeyframes().some((k) => String(k.transform).includes('rotateY(180deg)'))).length""")
    assert (flipping == 1) == flips
    context.close()
    assert not page.errors, page.errors


# Counts the WebAudio sources the table makes: noise bursts (a card on cloth) or oscillators (beeps).
COUNT_AUDIO = """(() => {
  window.__audio = [];
  const P = (window.AudioContext || window.webkitAudioContext).prototype;
  for (const name of ["createBufferSource", "createOscillator"]) {
    const real = P[name];
    P[name] = function (...args) { window.__audio.push(name); return real.apply(this, args); };
  }
})();"""


def test_sounds_are_off_until_chosen_and_a_card_sounds_like_a_card_not_a_beep(browser, harness):  # noqa: F811
    context, page = new_page(browser, harness)
    context.add_init_script(COUNT_AUDIO)
    open_sample(page, harness, "lead2")  # a fresh deal: with sound on it would rustle
    assert page.evaluate("window.__audio") == []  # off by default
    set_switch(page, "sound", True)  # switching on plays one card, as a sample
    heard = page.evaluate("window.__audio")
    assert heard and set(heard) == {"createBufferSource"}, heard

    open_sample(page, harness, "podkidnoy4")  # the choice is kept; another seat lays a card
    assert page.locator("#opt-sound").is_checked()
    frame = copy.deepcopy(SAMPLES["podkidnoy4"]["frame"])
    frame.pop("deadline_in", None)
    frame["version"] += 1
    frame["view"]["last"] = {"seat": 3, "type": "attack", "card": frame["view"]["table"][-1]["attack"]}
    page.evaluate("window.__audio = []")
    page.evaluate("f => window.__table.receive(f)", frame)
    heard = page.evaluate("window.__audio")
    assert heard and set(heard) == {"createBufferSource"}, heard
    context.close()
    assert not page.errors, page.errors
