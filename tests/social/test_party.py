"""A party of two against the database: a friend asked in, the two search as one (the leader's choice
and place), at a pairs table they are partners, at other tables they sit together; either may leave;
whatever ends one half's search ends the other's; bad input is refused clearly and changes nothing."""

from __future__ import annotations

import pytest
from django.utils import timezone

from durak_site import deadlines
from durak_site.errors import ServiceError
from tests.social.conftest import age, sweep_until

pytestmark = pytest.mark.django_db


@pytest.fixture
def news():
    """The personal news told to players: [(player id, kind, data)] (social.notify's listeners hear
    each one inside the transaction that tells it)."""
    from social import notify

    heard: list[tuple[int, str, dict]] = []

    def listen(player_id, kind, data):
        heard.append((player_id, kind, data))

    notify.on_news(listen)
    yield heard
    notify._listeners.remove(listen)


def friends(*players):
    from social import people

    for a in players:
        for b in players:
            if a.pk < b.pk:
                people.request_friend(a, b.pk)
                people.accept_friend(b, a.pk)


def make_party(leader, member):
    from social import party

    friends(leader, member)
    row = party.invite(leader, member.pk)
    party.answer(member, row.pk, True)


def _state():
    from social.models import Party, PartyInvitation, PartyMember, SearchRequest

    return [sorted(m.objects.values_list("pk", "status")) if hasattr(m, "status") else
            sorted(m.objects.values_list("pk", flat=True)) for m in (Party, PartyInvitation, SearchRequest)] + [
        sorted(PartyMember.objects.values_list("player_id", "party_id"))]


def _refused(code, call, *args, **kwargs):
    before = _state()
    with pytest.raises(ServiceError) as exc:
        call(*args, **kwargs)
    assert exc.value.code == code, exc.value.code
    assert _state() == before  # nothing changed
    return exc.value


def test_a_friend_accepts_and_the_two_search_as_one_with_the_leaders_choice(make_player, online, news):
    from social import party, queue
    from social.models import PartyInvitation, SearchRequest

    a, b = make_player("Аня"), make_player("Боря")
    online(a, b)
    friends(a, b)
    invitation = party.invite(a, b.pk)
    assert (b.pk, "party_invitation", {"id": invitation.pk, "nick": "Аня", "expires_in": 60}) in news
    assert [i.pk for i in party.pending_for(b.pk)] == [invitation.pk]
    row, searching = party.answer(b, invitation.pk, True)
    assert row.status == PartyInvitation.Status.ACCEPTED and searching is False
    assert any(pid == a.pk and kind == "party_formed" and d["nick"] == "Боря" for pid, kind, d in news)
    assert party.state_for(a.pk)["partner"] == b and party.state_for(a.pk)["leading"] is True
    assert party.state_for(b.pk)["leader"] == a and party.state_for(b.pk)["leading"] is False
    mine = queue.join(a, mode="pairs", rated="1", bot_fill="0")
    theirs = SearchRequest.objects.get(player=b, status="waiting")
    assert mine.party_id == theirs.party_id is not None
    assert theirs.queued_at == mine.queued_at and theirs.choices() == mine.choices()
    assert any(pid == b.pk and kind == "party_search" for pid, kind, _d in news)
    assert queue.others_searching(mine) == 0  # the partner is no opponent


def test_a_friend_invited_into_a_running_search_joins_it_at_its_place(make_player, online):
    from social import party, queue
    from social.models import SearchRequest

    a, b = make_player(), make_player()
    online(a, b)
    friends(a, b)
    mine = queue.join(a, mode="pairs", rated="0", bot_fill="0")
    age(mine, 20)
    own = queue.join(b, players="3", rated="0", bot_fill="0")  # his own search, which the party's replaces
    invitation = party.invite(a, b.pk)
    _row, searching = party.answer(b, invitation.pk, True)
    assert searching is True
    mine.refresh_from_db()
    own.refresh_from_db()
    assert own.status == "cancelled"
    theirs = SearchRequest.objects.get(player=b, status="waiting")
    assert theirs.party_id == mine.party_id is not None and theirs.queued_at == mine.queued_at
    assert theirs.mode == "pairs"


def test_a_party_and_two_others_make_a_pairs_table_where_the_party_are_partners(make_player, online):
    from lobby.models import Seat
    from social import queue

    a, b, c, d = (make_player() for _ in range(4))
    online(a, b, c, d)
    make_party(a, b)
    queue.join(c, mode="pairs", rated="0", bot_fill="0")
    queue.join(a, mode="pairs", rated="0", bot_fill="0")
    assert queue.live_request(a.pk).status == "waiting"  # three people: not yet
    last = queue.join(d, mode="pairs", rated="0", bot_fill="0")
    assert last.status == "matched"
    seats = dict(Seat.objects.filter(table_id=last.table_id).values_list("player_id", "number"))
    assert len(seats) == 4 and (seats[a.pk] - seats[b.pk]) % 4 == 2  # across: 1 and 3, or 2 and 4
    assert last.table.rules["pairs"] is True


def test_a_party_in_an_each_for_himself_search_sits_at_one_table(make_player, online):
    from lobby.models import Seat
    from social import queue

    a, b, c, d, e = (make_player() for _ in range(5))
    online(a, b, c, d, e)
    make_party(a, b)
    queue.join(c, players="3", rated="0", bot_fill="0")
    queue.join(d, players="3", rated="0", bot_fill="0")  # c and d alone would wait for a third
    queue.join(a, players="3", rated="0", bot_fill="0")  # the party fits with one of them
    table_of = dict(Seat.objects.filter(player__isnull=False).values_list("player_id", "table_id"))
    assert table_of[a.pk] == table_of[b.pk]
    assert sum(1 for p in (c, d) if table_of.get(p.pk) == table_of[a.pk]) == 1
    queue.join(e, players="3", rated="0", bot_fill="0")
    assert queue.live_request(e.pk).status == "waiting"  # one solo left: never half a party with him


def test_a_party_alone_fills_with_bots_after_its_wait(make_player, online):
    from lobby.models import Seat
    from social import queue

    a, b = make_player(), make_player()
    online(a, b)
    make_party(a, b)
    mine = queue.join(a, mode="pairs", rated="0", bot_fill="15")
    assert mine.status == "waiting"
    SearchRequest = type(mine)
    for row in SearchRequest.objects.filter(party_id=mine.party_id):
        age(row, 16)
    deadlines.sweep()
    mine.refresh_from_db()
    assert mine.status == "matched"
    seats = {n: (pid, bot) for n, pid, bot in Seat.objects.filter(table_id=mine.table_id).values_list(
        "number", "player_id", "bot_level")}
    assert {seats[1][0], seats[3][0]} == {a.pk, b.pk} and seats[2][1] and seats[4][1]  # bots are the other pair


def test_bad_party_input_is_refused_clearly_and_changes_nothing(make_player, online):
    from accounts import services as accounts_services
    from social import party, people, queue

    a, b, c, stranger, pest, outlaw = (make_player() for _ in range(6))
    moderator = make_player(is_staff=True)
    online(a, b, c, stranger, pest, outlaw)
    friends(a, b)
    friends(a, c)
    friends(b, c)
    friends(a, pest)
    friends(a, outlaw)
    people.block(pest, a.pk)  # a block ends the friendship: refused as for anyone who is not a friend
    accounts_services.ban(outlaw, "cheating", moderator)
    _refused("party_not_friend", party.invite, a, stranger.pk)
    _refused("party_not_friend", party.invite, a, pest.pk)
    _refused("party_not_friend", party.invite, pest, a.pk)
    _refused("party_unavailable", party.invite, a, outlaw.pk)
    _refused("social_self", party.invite, a, a.pk)
    _refused("player_not_found", party.invite, a, 10 ** 9)
    _refused("party_none", party.leave, a)
    _refused("invitation_not_found", party.answer, b, 12345, True)
    # the leader's search must suit a party: the friend would join it
    queue.join(a, players="2", rated="0", bot_fill="0")
    _refused("party_two_players", party.invite, a, b.pk)
    queue.cancel(a)
    queue.join(a, players="4", rated="1", bot_fill="0")
    _refused("party_rated_pairs_only", party.invite, a, b.pk)
    queue.cancel(a)
    make_party(a, b)
    # one party per player, either side of the invitation
    _refused("party_busy", party.invite, a, c.pk)
    _refused("party_other_busy", party.invite, c, b.pk)
    # searching while in a party as a non-leader; choices a party cannot search with
    _refused("party_not_leader", queue.join, b)
    _refused("party_not_leader", queue.join, b, mode="pairs", rated="0")
    _refused("party_two_players", queue.join, a, players="2", rated="0")
    _refused("party_rated_pairs_only", queue.join, a, mode="cheater", rated="1")
    _refused("party_rated_pairs_only", queue.join, a, mode="classic", players="4", rated="1")
    # rated pairs from one network: the fair-result rules never seat such a pair in a rated game
    from accounts.models import Player

    Player.objects.filter(pk__in=[a.pk, b.pk]).update(last_address="203.0.113.5")
    _refused("party_same_address", queue.join, a, mode="pairs", rated="1")


def test_accepting_while_in_another_party_or_after_expiry_is_refused(make_player, online):
    from social import party
    from social.models import PartyInvitation

    a, b, c = make_player(), make_player(), make_player()
    online(a, b, c)
    friends(a, b, c)
    late = party.invite(c, a.pk)
    PartyInvitation.objects.filter(pk=late.pk).update(expires_at=timezone.now() - timezone.timedelta(seconds=1))
    from_a = party.invite(a, b.pk)
    from_c = party.invite(c, b.pk)
    party.answer(b, from_a.pk, True)
    _refused("party_busy", party.answer, b, from_c.pk, True)  # joining two parties
    _refused("invitation_expired", party.answer, a, late.pk, True)
    _refused("invitation_not_found", party.answer, c, from_a.pk, True)  # not his to answer


def test_a_partner_who_cannot_play_now_keeps_the_leader_from_searching(make_player, online):
    from lobby import services as lobby_services
    from social import queue

    a, b, c = make_player(), make_player("Вика"), make_player()
    online(a, b, c)
    make_party(a, b)
    table = lobby_services.create_table(c, seats_count=2)
    lobby_services.sit(table.pk, b, 2)
    from lobby.models import Seat

    Seat.objects.filter(table=table).update(in_game=True)
    type(table).objects.filter(pk=table.pk).update(status="playing")
    exc = _refused("party_partner_playing", queue.join, a, mode="pairs", rated="0")
    assert "Вика" in exc.message


def test_either_can_leave_the_leavers_search_ends_and_the_other_waits_on_alone(make_player, online, news):
    from social import party, queue
    from social.models import Party, PartyMember, SearchRequest

    a, b = make_player("Лидер"), make_player("Друг")
    online(a, b)
    make_party(a, b)
    mine = queue.join(a, mode="pairs", rated="0", bot_fill="0")
    party.leave(b)
    assert Party.objects.get().status == "ended" and not PartyMember.objects.exists()
    assert SearchRequest.objects.get(player=b, party__isnull=True).status == "cancelled"
    mine.refresh_from_db()
    assert mine.status == "waiting" and mine.party_id is None  # on alone, at his place
    assert any(pid == a.pk and kind == "party_left" and d["nick"] == "Друг" for pid, kind, d in news)
    _refused("party_none", party.leave, a)  # the party is over for both
    make_party(a, b)  # and they may form a new one


def test_the_member_cancelling_ends_the_partys_search_for_both(make_player, online, news):
    from social import queue
    from social.models import SearchRequest

    a, b = make_player(), make_player()
    online(a, b)
    make_party(a, b)
    queue.join(a, mode="pairs", rated="0", bot_fill="0")
    assert queue.cancel(b) is True
    assert set(SearchRequest.objects.values_list("status", flat=True)) == {"cancelled"}
    assert (a.pk, "search_ended", {"reason": "partner"}) in news


@pytest.mark.django_db(transaction=True)
def test_a_partner_who_does_not_come_ends_the_other_halfs_search_and_the_others_go_back(make_player, online):
    from social import queue
    from social.models import SearchRequest

    a, b, c, d = (make_player() for _ in range(4))
    online(a, b, c, d)
    make_party(a, b)
    queue.join(c, mode="pairs", rated="0", bot_fill="0")
    queue.join(d, mode="pairs", rated="0", bot_fill="0")
    mine = queue.join(a, mode="pairs", rated="0", bot_fill="0")
    assert mine.status == "matched"
    for p in (a, c, d):
        queue.arrived(p.pk, mine.table_id)
    SearchRequest.objects.filter(table_id=mine.table_id).update(arrive_deadline=timezone.now())
    sweep_until(lambda: SearchRequest.objects.filter(player=b, status="dropped").exists())
    status = dict(SearchRequest.objects.values_list("player_id", "status"))
    assert status == {a.pk: "cancelled", b.pk: "dropped", c.pk: "waiting", d.pk: "waiting"}


def test_a_tab_closed_by_one_half_ends_the_partys_search(make_player, online):
    from social import presence, queue
    from social.models import SearchRequest

    a, b = make_player(), make_player()
    online(a, b)
    make_party(a, b)
    mine = queue.join(a, mode="pairs", rated="0", bot_fill="0")
    for row in SearchRequest.objects.all():
        age(row, 30)
    presence.closed(b.pk)
    from social.models import Presence

    Presence.objects.filter(player=b).update(changed_at=timezone.now() - timezone.timedelta(seconds=60))
    assert queue.leave_if_gone(SearchRequest.objects.get(player=b).pk) is True
    mine.refresh_from_db()
    assert mine.status == "cancelled"  # half a party never waits alone


def test_a_ban_ends_the_party_and_withdraws_its_invitations(make_player, online, news):
    from accounts import services as accounts_services
    from social import party, queue
    from social.models import Party, PartyInvitation, SearchRequest

    a, b, c = make_player(), make_player(), make_player()
    online(a, b, c)
    friends(a, b, c)
    pending = party.invite(a, c.pk)
    make_party(a, b)
    queue.join(a, mode="pairs", rated="0", bot_fill="0")
    accounts_services.ban(a, "cheating", make_player(is_staff=True))
    assert Party.objects.get().status == "ended"
    assert PartyInvitation.objects.get(pk=pending.pk).status == "expired"
    assert (c.pk, "party_invitation_withdrawn", {"id": pending.pk}) in news
    assert set(SearchRequest.objects.values_list("status", flat=True)) == {"cancelled"}


def test_a_block_ends_the_party_and_the_blocked_one_reads_only_that_it_ended(make_player, online, news):
    from social import parties, people

    a, b = make_player("Тихоня"), make_player("Шумный")
    online(a, b)
    make_party(a, b)
    people.block(a, b.pk)
    assert parties.current(a.pk) is None and parties.current(b.pk) is None
    told = [(kind, d) for pid, kind, d in news if pid == b.pk and kind.startswith("party_left")]
    assert told == [("party_left", {"nick": "Тихоня", "url": "/play/search/"})]
    assert not any("block" in kind for _pid, kind, _d in news)


def test_the_search_page_shows_the_party_or_the_friends_to_invite(make_player, online, client):
    a, b, c = make_player("Ведущий"), make_player("Напарник"), make_player("Гость")
    online(a, b, c)
    friends(a, c)
    client.force_login(a)
    page = client.get("/play/search/").content.decode()
    assert f'action="/play/party/invite/{c.pk}/"' in page and "Гость" in page
    make_party(a, b)
    page = client.get("/play/search/").content.decode()
    assert "Напарник" in page and 'action="/play/party/leave/"' in page and "data-search-form" in page
    client.force_login(b)
    page = client.get("/play/search/").content.decode()
    assert "data-party-waits" in page and "data-search-form" not in page  # the leader starts it
    friends_page = client.get("/people/").content.decode()
    assert f'action="/play/party/invite/{a.pk}/"' in friends_page  # from the friends list too
