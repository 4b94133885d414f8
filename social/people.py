"""Friends, blocks and invitations: the only writer of Friendship, Block, Invitation, Preference.

A block is silent: the blocked player is never told. Every refusal he could meet because of it
(a friend request, an invitation, a seat) reads like an ordinary one («недоступно»), never «вы
заблокированы».
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse

from accounts.models import Player
from accounts.services import ensure_can_play
from durak_site import ratelimit
from durak_site.clock import db_now
from durak_site.errors import ServiceError
from lobby import services as lobby_services
from lobby.models import Seat, Table

from . import notify
from .models import Block, Friendship, Invitation, Preference, TableRequirement
from .reliability import LOW, mark

INVITE_SECONDS = 60
INVITES_PER_MINUTE = 5  # a host's invitations in any 60 s
FRIEND_REQUESTS_PER_HOUR = 20

# what else a block ends (social/party.py: a party of the two), registered in SocialConfig.ready():
# listener(blocker_id, blocked_id), called inside the block's transaction
_block_listeners: list[Callable[[int, int], None]] = []


def on_block(listener: Callable[[int, int], None]) -> None:
    if listener not in _block_listeners:
        _block_listeners.append(listener)


def _require_player(player) -> None:
    """Signed in and not banned: a ban stops every social action of a session that outlived it."""
    if player is None or not player.is_authenticated:
        raise ServiceError("login_required")
    ensure_can_play(player)


def find_player(player_id) -> Player:
    try:
        return Player.objects.get(pk=int(player_id), is_active=True)
    except (Player.DoesNotExist, TypeError, ValueError):
        raise ServiceError("player_not_found") from None


# ---------------------------------------------------------------- blocks


def blocked_either_way(a_id: int, b_id: int) -> bool:
    return Block.objects.filter(Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)).exists()


def blockers_of(player_id: int) -> set[int]:
    """Who blocked him: hidden from him (lobby.guards: the online list, cards, tables)."""
    return set(Block.objects.filter(blocked_id=player_id).values_list("blocker_id", flat=True))


def blocked_by(player_id: int) -> set[int]:
    """Whom he blocked: the chat hides their messages from him."""
    return set(Block.objects.filter(blocker_id=player_id).values_list("blocked_id", flat=True))


def avoid_map(player_ids: list[int]) -> dict[int, set[int]]:
    """For each player, everyone he blocked or who blocked him (matchmaking never pairs them)."""
    out: dict[int, set[int]] = {}
    for a, b in Block.objects.filter(Q(blocker_id__in=player_ids) | Q(blocked_id__in=player_ids)).values_list(
            "blocker_id", "blocked_id"):
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return out


def block(player, other_id) -> Block:
    _require_player(player)
    other = find_player(other_id)
    if other.pk == player.pk:
        raise ServiceError("social_self")
    with transaction.atomic():
        row, _created = Block.objects.get_or_create(blocker=player, blocked=other)
        # a block ends a friendship and any request between them, silently
        Friendship.objects.filter(Q(from_player=player, to_player=other) | Q(from_player=other, to_player=player)).delete()
        Invitation.objects.filter(Q(host=player, guest=other) | Q(host=other, guest=player),
                                  status=Invitation.Status.PENDING).update(status=Invitation.Status.DECLINED)
        for listener in _block_listeners:
            listener(player.pk, other.pk)
    return row


def unblock(player, other_id) -> bool:
    _require_player(player)
    other = find_player(other_id)
    return Block.objects.filter(blocker=player, blocked=other).delete()[0] > 0


def seat_refusal(table_id: int, player_id: int) -> str | None:
    """The lobby's seat guard: a player blocked by (or blocking) anyone seated at the table, or its
    host, may not sit; nor an unreliable one where the host asked for reliable players only. The code
    of the refusal, or None."""
    humans = set(Seat.objects.filter(table_id=table_id, player__isnull=False).exclude(player_id=player_id)
                 .values_list("player_id", flat=True))
    host_id = Table.objects.filter(pk=table_id).values_list("host_id", flat=True).first()
    if host_id and host_id != player_id:
        humans.add(host_id)
    if humans and Block.objects.filter(Q(blocker_id__in=humans, blocked_id=player_id)
                                       | Q(blocker_id=player_id, blocked_id__in=humans)).exists():
        return "seat_unavailable"
    if TableRequirement.objects.filter(table_id=table_id, reliable_only=True).exists() and mark(player_id) == LOW:
        return "seat_reliable_only"
    return None


# ---------------------------------------------------------------- friends


def are_friends(a_id: int, b_id: int) -> bool:
    return Friendship.objects.filter(Q(from_player_id=a_id, to_player_id=b_id) | Q(from_player_id=b_id, to_player_id=a_id),
                                     accepted=True).exists()


def friend_ids(player_id: int) -> set[int]:
    out = set()
    for a, b in Friendship.objects.filter(Q(from_player_id=player_id) | Q(to_player_id=player_id),
                                          accepted=True).values_list("from_player_id", "to_player_id"):
        out.add(b if a == player_id else a)
    return out


def request_friend(player, other_id) -> Friendship:
    """Send a friend request (or accept his, when he already asked). A block, either way, refuses
    with the same words as an unknown player."""
    _require_player(player)
    other = find_player(other_id)
    if other.pk == player.pk:
        raise ServiceError("social_self")
    if blocked_either_way(player.pk, other.pk):
        raise ServiceError("friend_unavailable")  # the card exists: "no such player" would tell
    with transaction.atomic():
        theirs = Friendship.objects.select_for_update().filter(from_player=other, to_player=player).first()
        if theirs is not None:
            if not theirs.accepted:
                theirs.accepted = True
                theirs.save(update_fields=["accepted"])
                notify.tell(other.pk, "friend_accepted", nick=player.nick)
            return theirs
        mine = Friendship.objects.filter(from_player=player, to_player=other).first()
        if mine is not None:
            return mine
        # counted in the shared cache, not in rows: a withdrawn request is deleted, its notice was sent
        if not ratelimit.within("friend-request", player.pk, (FRIEND_REQUESTS_PER_HOUR, 3600)):
            raise ServiceError("social_too_many")
        try:
            with transaction.atomic():
                row = Friendship.objects.create(from_player=player, to_player=other)
        except IntegrityError:
            return Friendship.objects.get(from_player=player, to_player=other)
        notify.tell(other.pk, "friend_request", nick=player.nick, player_id=player.pk,
                    url=reverse("social:friends"))
        return row


def accept_friend(player, other_id) -> Friendship:
    _require_player(player)
    other = find_player(other_id)
    with transaction.atomic():
        row = Friendship.objects.select_for_update().filter(from_player=other, to_player=player).first()
        if row is None:
            raise ServiceError("friend_request_not_found")
        if not row.accepted:
            row.accepted = True
            row.save(update_fields=["accepted"])
            notify.tell(other.pk, "friend_accepted", nick=player.nick)
        return row


def remove_friend(player, other_id) -> bool:
    """Remove a friend, withdraw a request, or decline his request: either side may."""
    _require_player(player)
    other = find_player(other_id)
    return Friendship.objects.filter(Q(from_player=player, to_player=other)
                                     | Q(from_player=other, to_player=player)).delete()[0] > 0


def friends_view(player_id: int) -> dict[str, list[Player]]:
    """Friends, requests to him and from him (players, oldest first)."""
    rows = Friendship.objects.filter(Q(from_player_id=player_id) | Q(to_player_id=player_id)).select_related(
        "from_player", "to_player").order_by("created_at")
    out: dict[str, list[Player]] = {"friends": [], "incoming": [], "outgoing": []}
    for f in rows:
        if f.accepted:
            out["friends"].append(f.to_player if f.from_player_id == player_id else f.from_player)
        elif f.to_player_id == player_id:
            out["incoming"].append(f.from_player)
        else:
            out["outgoing"].append(f.to_player)
    return out


def relation(viewer_id: int, other_id: int) -> str:
    """friend / requested (he asked me) / pending (I asked) / blocked (I blocked him) / none."""
    if Block.objects.filter(blocker_id=viewer_id, blocked_id=other_id).exists():
        return "blocked"
    f = Friendship.objects.filter(Q(from_player_id=viewer_id, to_player_id=other_id)
                                  | Q(from_player_id=other_id, to_player_id=viewer_id)).first()
    if f is None:
        return "none"
    if f.accepted:
        return "friend"
    return "pending" if f.from_player_id == viewer_id else "requested"


# ---------------------------------------------------------------- invitations


def invites_friends_only(player_id: int) -> bool:
    return Preference.objects.filter(player_id=player_id, invites_from_friends_only=True).exists()


def set_invites_friends_only(player, value: bool) -> None:
    _require_player(player)
    Preference.objects.update_or_create(player=player, defaults={"invites_from_friends_only": bool(value)})


def invite(host, guest_id) -> Invitation:
    """Invite a player to the table the host sits at (waiting room). Refusals caused by the guest's
    block or settings read the same as «не удалось пригласить»: nothing revealing."""
    _require_player(host)
    guest = find_player(guest_id)
    if guest.pk == host.pk:
        raise ServiceError("social_self")
    seat = (Seat.objects.filter(player=host, table__status__in=lobby_services.OPEN_STATUSES)
            .select_related("table").first())
    if seat is None:
        raise ServiceError("invite_no_table")
    table = seat.table
    now = db_now()
    if Seat.objects.filter(table=table, player=guest).exists():
        raise ServiceError("invite_already_seated")
    if blocked_either_way(host.pk, guest.pk) or (invites_friends_only(guest.pk) and not are_friends(host.pk, guest.pk)):
        raise ServiceError("invite_unavailable")
    # an atomic counter in the shared cache: parallel invitations cannot all read "under the limit"
    if not ratelimit.within("invite", host.pk, (INVITES_PER_MINUTE, 60)):
        raise ServiceError("social_too_many")
    with transaction.atomic():
        renewed = list(Invitation.objects.select_for_update()
                       .filter(host=host, guest=guest, status=Invitation.Status.PENDING).values_list("pk", flat=True))
        Invitation.objects.filter(pk__in=renewed).update(status=Invitation.Status.EXPIRED)
        for old in renewed:  # his screen keeps one notice: the new one
            notify.tell(guest.pk, "invitation_withdrawn", id=old, nick=host.nick, renewed=True)
        row = Invitation.objects.create(host=host, guest=guest, table=table, created_at=now,
                                        expires_at=now + timedelta(seconds=INVITE_SECONDS))
        notify.tell(guest.pk, "invitation", id=row.pk, nick=host.nick, table=str(table),
                    expires_in=INVITE_SECONDS)
    return row


def _pending_for(guest, invitation_id) -> Invitation:
    try:
        row = (Invitation.objects.select_for_update().select_related("host")
               .get(pk=int(invitation_id), guest=guest))
    except (Invitation.DoesNotExist, TypeError, ValueError):
        raise ServiceError("invitation_not_found") from None
    if row.status != Invitation.Status.PENDING or row.expires_at <= db_now():
        raise ServiceError("invitation_expired")
    return row


def answer(guest, invitation_id, accept: bool) -> Invitation:
    """Accept (he is seated in the first free seat) or decline an invitation."""
    _require_player(guest)
    with transaction.atomic():
        row = _pending_for(guest, invitation_id)
        if not accept:
            row.status = Invitation.Status.DECLINED
            row.save(update_fields=["status"])
            notify.tell(row.host_id, "invitation_declined", nick=guest.nick)
            return row
        free = Seat.objects.filter(table_id=row.table_id, player__isnull=True, bot_level="").order_by("number").first()
        if free is None:
            raise ServiceError("table_full")
        lobby_services.sit(row.table_id, guest, free.number)
        row.status = Invitation.Status.ACCEPTED
        row.save(update_fields=["status"])
        notify.tell(row.host_id, "invitation_accepted", nick=guest.nick)
    return row


def sent_by(host_id: int) -> list[Invitation]:
    """The host's invitations still waiting for an answer (the friends page offers to withdraw them)."""
    return list(Invitation.objects.filter(host_id=host_id, status=Invitation.Status.PENDING,
                                          expires_at__gt=db_now()).select_related("guest", "table")
                .order_by("-created_at"))


def withdraw(host, invitation_id) -> Invitation:
    """The host takes back a pending invitation: it ends as an expired one would, and the guest's
    notice and friends-page row go (the `invitation_withdrawn` frame). Only the host may; to anyone
    but host and guest the invitation does not exist."""
    _require_player(host)
    with transaction.atomic():
        try:
            row = (Invitation.objects.select_for_update()
                   .filter(Q(host=host) | Q(guest=host)).get(pk=int(invitation_id)))
        except (Invitation.DoesNotExist, TypeError, ValueError):
            raise ServiceError("invitation_not_found") from None
        if row.host_id != host.pk:
            raise ServiceError("invitation_not_yours")
        if row.status != Invitation.Status.PENDING or row.expires_at <= db_now():
            raise ServiceError("invitation_expired")
        row.status = Invitation.Status.EXPIRED
        row.save(update_fields=["status"])
        notify.tell(row.guest_id, "invitation_withdrawn", id=row.pk, nick=host.nick, renewed=False)
    return row


def on_player_banned(sender, player_id: int, **kwargs) -> None:
    """accounts.signals.player_banned: his pending invitations, sent or received, are withdrawn
    (each guest's notice goes away); ``queue.on_player_banned`` ends his search."""
    with transaction.atomic():
        pending = list(Invitation.objects.select_for_update().select_related("host")
                       .filter(Q(host_id=player_id) | Q(guest_id=player_id), status=Invitation.Status.PENDING))
        Invitation.objects.filter(pk__in=[i.pk for i in pending]).update(status=Invitation.Status.EXPIRED)
        for row in pending:
            if row.host_id == player_id:
                notify.tell(row.guest_id, "invitation_withdrawn", id=row.pk, nick=row.host.nick, renewed=False)


def expire_invitation(invitation_id: int) -> None:
    """Its time ran out (the "invitation" deadline, social/deadlines.py, with the row locked)."""
    Invitation.objects.filter(pk=invitation_id, status=Invitation.Status.PENDING).update(
        status=Invitation.Status.EXPIRED)


def _has_place_at(table: Table, player) -> bool:
    return (player.is_staff or table.host_id == player.pk
            or Seat.objects.filter(table=table, player=player).exists())


def set_reliable_only(host, table_id, value: bool) -> None:
    """The host's «только надёжные игроки» (before the game; seated players stay)."""
    _require_player(host)
    table = Table.objects.filter(pk=table_id).first()
    if table is None or (table.private and not _has_place_at(table, host)):
        raise ServiceError("table_not_found")  # a stranger learns nothing of a private table
    if not lobby_services.can_manage(table, host):
        raise ServiceError("not_host")
    if table.matched:
        raise ServiceError("matched_table_locked")
    TableRequirement.objects.update_or_create(table=table, defaults={"reliable_only": bool(value)})
