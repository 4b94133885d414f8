"""Friends on one network: the shared-address rule keeps two accounts on one address unrated. Trust
rests on evidence from outside the pair (each account's rated games against other players from
other addresses, and its age) or on a moderator's decision; games of the pair itself earn nothing.
A pair trusted on evidence is listed in the moderators' suspicious pairs; the waiting room and the
rules page say what counts."""

from __future__ import annotations

import itertools
import random
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from results_helpers import play_until, player, start, table

from accounts.models import Player
from game.models import Game
from ratings.models import GameRecord, KnownPair, Outcome, PlayerGame, Rating

pytestmark = pytest.mark.django_db

HOME = "192.0.2.7"
_strangers = itertools.count(1)


@pytest.fixture(autouse=True)
def _small_evidence(settings):
    settings.RATINGS_TRUST_OUTSIDE_GAMES = 3
    settings.RATINGS_TRUST_ACCOUNT_DAYS = 14


def _friends():
    a, b = player("anna", HOME), player("boris", HOME)
    for p in (a, b):
        Rating.objects.update_or_create(player=p, defaults={"games": 20})
    return a, b


def _record(people, winner, *, rated: bool, shared: bool, left=None) -> None:
    """TEST factory: a finished game of these people as ratings recorded it."""
    t = table(list(people))
    game = Game.objects.create(table=t, rules={}, seed="1", initial_state={}, state={},
                               status=Game.Status.FINISHED, finished_at=timezone.now())
    record = GameRecord.objects.create(game=game, table=t, variant="podkidnoy", rated=rated,
                                       unrated_reason="" if rated else "shared_address", shared_address=shared,
                                       finished_at=timezone.now())
    for seat, p in enumerate(people, start=1):
        PlayerGame.objects.create(record=record, player=p, seat=seat, finished_at=timezone.now(),
                                  outcome=Outcome.WIN if p == winner else Outcome.LOSS, left=p == left)


def _past_game(a, b, winner, *, left=None) -> None:
    """An unrated game of the pair on one address."""
    _record((a, b), winner, rated=False, shared=True, left=left)


def _outside_games(p, n: int, *, rated: bool = True) -> None:
    """`n` games of `p` against strangers from other addresses (rated, unless said otherwise)."""
    for _k in range(n):
        stranger = player(f"x{next(_strangers)}", f"198.51.100.{next(_strangers) % 250}")
        _record((p, stranger), p, rated=rated, shared=False)


def _aged(*people, days: int = 30) -> None:
    Player.objects.filter(pk__in=[p.pk for p in people]).update(date_joined=timezone.now() - timedelta(days=days))


def _next_game(a, b, seed: int = 4) -> GameRecord:
    game_id = start([a, b])
    play_until(game_id, random.Random(seed), lambda: False)
    return GameRecord.objects.get(game_id=game_id)


def test_without_a_history_friends_on_one_address_play_unrated():
    a, b = _friends()
    _past_game(a, b, a)
    record = _next_game(a, b)
    assert (record.rated, record.unrated_reason) == (False, "shared_address")


def test_ten_even_unrated_games_together_earn_the_pair_nothing(settings):
    """The farming of one person with two accounts: the rematch button, alternating winners."""
    settings.RATINGS_TRUST_OUTSIDE_GAMES = 10
    a, b = _friends()
    _aged(a, b)
    for k in range(10):
        _past_game(a, b, a if k % 2 else b)
    record = _next_game(a, b)
    assert (record.rated, record.unrated_reason) == (False, "shared_address")
    assert Rating.objects.get(player=a).value == Rating.objects.get(player=b).value == 1000


def test_each_accounts_rated_games_with_others_and_its_age_make_the_pair_trusted():
    a, b = _friends()
    _aged(a, b)
    _outside_games(a, 3)
    _outside_games(b, 3)
    record = _next_game(a, b)
    assert record.rated and record.shared_address


@pytest.mark.parametrize("missing", ["b_has_too_few_games", "b_is_too_young", "b_played_only_unrated",
                                     "b_played_only_the_partner"])
def test_evidence_must_hold_for_each_account(missing):
    a, b = _friends()
    _aged(a, b)
    _outside_games(a, 3)
    if missing == "b_has_too_few_games":
        _outside_games(b, 2)
    elif missing == "b_is_too_young":
        _outside_games(b, 3)
        _aged(b, days=3)
    elif missing == "b_played_only_unrated":
        _outside_games(b, 3, rated=False)
    else:  # rated games of the pair on another address are no evidence from outside it
        for _k in range(3):
            _record((a, b), b, rated=True, shared=False)
    record = _next_game(a, b)
    assert (record.rated, record.unrated_reason) == (False, "shared_address")


def test_games_against_someone_on_the_same_address_are_no_evidence():
    a, b = _friends()
    _aged(a, b)
    _outside_games(a, 3)
    third = player("carl", HOME)
    for _k in range(3):
        _record((b, third), b, rated=True, shared=True)
    record = _next_game(a, b)
    assert (record.rated, record.unrated_reason) == (False, "shared_address")


@pytest.mark.parametrize("history", ["one_sided", "a_leaver"])
def test_suspicious_results_together_take_the_trust_back(history):
    a, b = _friends()
    _aged(a, b)
    _outside_games(a, 3)
    _outside_games(b, 3)
    if history == "one_sided":
        for _k in range(4):
            _past_game(a, b, a)
    else:
        _past_game(a, b, a, left=b)
    record = _next_game(a, b)
    assert (record.rated, record.unrated_reason) == (False, "shared_address")


def test_a_pair_trusted_on_evidence_is_listed_among_the_suspicious_pairs(client):
    a, b = _friends()
    _aged(a, b)
    _outside_games(a, 3)
    _outside_games(b, 3)
    assert _next_game(a, b).rated
    moderator = player("mod")
    moderator.is_staff = moderator.is_superuser = True
    moderator.save()
    client.force_login(moderator)
    page = client.get(reverse("admin:ratings_gamerecord_suspicious"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "anna — boris" in page
    assert "trusted on their games with others" in page
    ru = client.get(reverse("admin:ratings_gamerecord_suspicious"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "доверие по играм с другими" in ru


def test_a_moderator_marks_a_pair_as_known_in_the_admin(client):
    a, b = _friends()
    moderator = player("mod")
    moderator.is_staff = moderator.is_superuser = True
    moderator.save()
    client.force_login(moderator)
    answer = client.post(reverse("admin:ratings_knownpair_add"),
                         {"first": a.nick, "second": b.nick, "note": "brother and sister"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    pair = KnownPair.objects.get()
    assert (pair.low_id, pair.high_id, pair.marked_by_id) == (a.pk, b.pk, moderator.pk)
    record = _next_game(a, b)
    assert record.rated and record.shared_address


def test_the_waiting_room_tells_friends_how_to_play_rated(client):
    a, b = _friends()
    t = table([a, b])
    client.force_login(a)
    room = client.get(reverse("lobby:room", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "unrated: players on one address" in room
    assert "3 rated games with other players" in room and "14 days" in room and "moderator" in room
    ru = client.get(reverse("lobby:room", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "модератор" in ru
    KnownPair.objects.create(low=a, high=b)
    room = client.get(reverse("lobby:room", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "will be rated" in room


def test_the_rules_page_tells_friends_on_one_network_what_counts(client):
    page = client.get(reverse("lobby:rules"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "once each of the two accounts has played 3 rated games with other players" in page
    assert "games together do not count" in page
    ru = client.get(reverse("lobby:rules"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "сыграл 3 рейтинговые партии с другими игроками" in ru
