"""Who is in a party with whom (reads only; social/party.py writes parties). The search reads it
here (a party searches as one), so the party's writer can call the search without a cycle."""

from __future__ import annotations

from dataclasses import dataclass

from .models import PartyMember

PARTY_SIZE = 2


@dataclass(frozen=True)
class PartyView:
    id: int
    leader_id: int
    member_id: int

    def partner_of(self, player_id: int) -> int:
        return self.member_id if player_id == self.leader_id else self.leader_id

    @property
    def player_ids(self) -> tuple[int, int]:
        return (self.leader_id, self.member_id)


def current(player_id: int) -> PartyView | None:
    """His live party, or None (one query)."""
    row = (PartyMember.objects.filter(player_id=player_id)
           .values_list("party_id", "party__leader_id", "party__member_id").first())
    return PartyView(*row) if row is not None else None


def partner_of(player_id: int) -> int | None:
    party = current(player_id)
    return party.partner_of(player_id) if party is not None else None
