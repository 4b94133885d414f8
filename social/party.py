"""A party of two: a player asks a friend into his party (and into his search, if he is searching);
the two then search as one (social/queue.py: the leader starts and chooses, both rows share one
place; social/matching.py: matched whole or not at all; at a pairs table they are partners), and
either may leave, which ends the party. The only writer of Party, PartyMember and PartyInvitation.

Only friends: a block ends the friendship, so a blocked player meets the same refusal as any
stranger («только с другом»), and a block between two in a party ends it as a leave does (the
blocked one reads that the other left: a block is silent). A ban ends his party and withdraws his
invitations. One party per player is the database's (PartyMember is keyed by the player), so two
acceptances racing cannot put one player in two parties.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse

from accounts.models import Player
from accounts.services import ensure_can_play
from durak_site import ratelimit
from durak_site.clock import db_now
from durak_site.errors import ServiceError

from . import notify, parties, party_search, people, queue
from .models import Party, PartyInvitation, PartyMember, SearchRequest

INVITE_SECONDS = 60
INVITES_PER_MINUTE = 5  # a player's party invitations in any 60 s


def _require_player(player) -> None:
    """Signed in and not banned: a ban stops every party action of a session that outlived it."""
    if player is None or not player.is_authenticated:
        raise ServiceError("login_required")
    ensure_can_play(player)


def _may_play(player: Player) -> None:
    try:
        ensure_can_play(player)
    except ServiceError:
        raise ServiceError("party_unavailable") from None


# ---------------------------------------------------------------- reads


def state_for(player_id: int) -> dict | None:
    """His party as the pages show it: {"id", "leader", "partner" (players), "leading" (is he the
    leader)}, or None."""
    party = parties.current(player_id)
    if party is None:
        return None
    people_ = {p.pk: p for p in Player.objects.filter(pk__in=party.player_ids)}
    return {"id": party.id, "leader": people_[party.leader_id], "partner": people_[party.partner_of(player_id)],
            "leading": party.leader_id == player_id}


def pending_for(guest_id: int) -> list[PartyInvitation]:
    """The party invitations he may still answer (the friends page lists them)."""
    return list(PartyInvitation.objects.filter(guest_id=guest_id, status=PartyInvitation.Status.PENDING,
                                               expires_at__gt=db_now()).select_related("host").order_by("created_at"))


# ---------------------------------------------------------------- invite, answer, leave


def invite(host, guest_id) -> PartyInvitation:
    """Ask a friend into his party (and his search). Refused, with nothing written, for a player who
    is not his friend, cannot play, or is in a party, and when he is in one himself."""
    _require_player(host)
    guest = people.find_player(guest_id)
    if guest.pk == host.pk:
        raise ServiceError("social_self")
    if not people.are_friends(host.pk, guest.pk):
        raise ServiceError("party_not_friend")
    _may_play(guest)
    if parties.current(host.pk) is not None:
        raise ServiceError("party_busy")
    if parties.current(guest.pk) is not None:
        raise ServiceError("party_other_busy", nick=guest.nick)
    searching = SearchRequest.objects.filter(player=host, status=SearchRequest.Status.WAITING).first()
    if searching is not None:  # the friend would join this search: it must suit a party
        party_search.ensure_fits_party(searching.choices())
    # an atomic counter in the shared cache: parallel invitations cannot all read "under the limit"
    if not ratelimit.within("party-invite", host.pk, (INVITES_PER_MINUTE, 60)):
        raise ServiceError("social_too_many")
    now = db_now()
    with transaction.atomic():
        PartyInvitation.objects.filter(host=host, guest=guest, status=PartyInvitation.Status.PENDING).update(
            status=PartyInvitation.Status.EXPIRED)
        row = PartyInvitation.objects.create(host=host, guest=guest, created_at=now,
                                             expires_at=now + timedelta(seconds=INVITE_SECONDS))
        notify.tell(guest.pk, "party_invitation", id=row.pk, nick=host.nick, expires_in=INVITE_SECONDS)
    return row


def answer(guest, invitation_id, accept: bool) -> tuple[PartyInvitation, bool]:
    """Accept (the party forms; if its leader is searching, the guest joins his search) or decline.
    Returns the invitation and whether the guest now searches with the leader."""
    _require_player(guest)
    with transaction.atomic():
        try:
            row = (PartyInvitation.objects.select_for_update().select_related("host")
                   .get(pk=int(invitation_id), guest=guest))
        except (PartyInvitation.DoesNotExist, TypeError, ValueError):
            raise ServiceError("invitation_not_found") from None
        if row.status != PartyInvitation.Status.PENDING or row.expires_at <= db_now():
            raise ServiceError("invitation_expired")
        if not accept:
            row.status = PartyInvitation.Status.DECLINED
            row.save(update_fields=["status"])
            notify.tell(row.host_id, "party_declined", nick=guest.nick)
            return row, False
        # both players locked, in player order: two parties forming at once over a shared player
        # (b accepts a's and c's invitations while c accepts a's) queue up instead of deadlocking
        list(Player.objects.select_for_update().filter(pk__in=(row.host_id, guest.pk)).order_by("pk")
             .values_list("pk", flat=True))
        host = row.host
        _may_play(host)
        if not people.are_friends(host.pk, guest.pk):
            raise ServiceError("party_not_friend")
        if parties.current(guest.pk) is not None:
            raise ServiceError("party_busy")
        if parties.current(host.pk) is not None:
            raise ServiceError("party_other_busy", nick=host.nick)
        party = _form(host, guest)
        searching = queue.take_into_search(host.pk, guest, party.pk)
        row.status = PartyInvitation.Status.ACCEPTED
        row.save(update_fields=["status"])
        notify.tell(host.pk, "party_formed", nick=guest.nick, url=reverse("social:search"))
    return row, searching


def _form(host: Player, guest: Player) -> Party:
    """The party's rows; a place either of them took meanwhile refuses it (the key is the player)."""
    try:
        with transaction.atomic():
            party = Party.objects.create(leader=host, member=guest, created_at=db_now())
            # in player order: two parties forming at once over a shared player take the unique key's
            # locks in one order, so one waits for the other instead of deadlocking
            PartyMember.objects.bulk_create([PartyMember(player=p, party=party)
                                             for p in sorted((host, guest), key=lambda p: p.pk)])
    except IntegrityError:
        if PartyMember.objects.filter(player=guest).exists():
            raise ServiceError("party_busy") from None
        raise ServiceError("party_other_busy", nick=host.nick) from None
    return party


def leave(player) -> None:
    """He leaves his party, which ends it: his waiting search ends, his partner's goes on alone."""
    if player is None or not player.is_authenticated:
        raise ServiceError("login_required")
    with transaction.atomic():
        if not _end_party_of(player.pk, player.pk):
            raise ServiceError("party_none")


def _end_party_of(player_id: int, leaver_id: int) -> bool:
    """End the party `player_id` is in, as left by `leaver_id`; False when there is none. The party
    row is locked first, so two leaving at once end it once (the second finds it gone)."""
    party_id = PartyMember.objects.filter(player_id=player_id).values_list("party_id", flat=True).first()
    if party_id is None:
        return False
    party = Party.objects.select_for_update().filter(pk=party_id, status=Party.Status.ACTIVE).first()
    if party is None:
        return False
    PartyMember.objects.filter(party=party).delete()
    Party.objects.filter(pk=party.pk).update(status=Party.Status.ENDED, ended_at=db_now())
    queue.split_party(party.pk, leaver_id)
    other = party.member_id if leaver_id == party.leader_id else party.leader_id
    nick = Player.objects.filter(pk=leaver_id).values_list("nick", flat=True).first() or ""
    notify.tell(other, "party_left", nick=nick, url=reverse("social:search"))
    return True


# ---------------------------------------------------------------- bans and blocks


def on_player_banned(sender, player_id: int, **kwargs) -> None:
    """accounts.signals.player_banned: his party ends and his pending party invitations are withdrawn."""
    with transaction.atomic():
        pending = list(PartyInvitation.objects.select_for_update()
                       .filter(Q(host_id=player_id) | Q(guest_id=player_id), status=PartyInvitation.Status.PENDING))
        PartyInvitation.objects.filter(pk__in=[i.pk for i in pending]).update(status=PartyInvitation.Status.EXPIRED)
        for row in pending:
            if row.host_id == player_id:
                notify.tell(row.guest_id, "party_invitation_withdrawn", id=row.pk)
        _end_party_of(player_id, player_id)


def on_block(blocker_id: int, blocked_id: int) -> None:
    """people.block, inside its transaction: invitations between them lapse and a party of the two
    ends as if the blocker had left it (nothing tells the blocked player of the block)."""
    PartyInvitation.objects.filter(Q(host_id=blocker_id, guest_id=blocked_id) | Q(host_id=blocked_id, guest_id=blocker_id),
                                   status=PartyInvitation.Status.PENDING).update(status=PartyInvitation.Status.EXPIRED)
    party = parties.current(blocker_id)
    if party is not None and blocked_id in party.player_ids:
        _end_party_of(blocker_id, blocker_id)
