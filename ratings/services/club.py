"""The club (docs/RULES.md#quartet-club): its membership, one writer at a time, re-ranked after each series game."""

from __future__ import annotations

from typing import Any

from django.db import connection

from ratings.models import ClubStanding

CLUB_SIZE = 10


CLUB_LOCK = 0x6475726B636C7562  # "durkclub": the key of the club's advisory lock on Postgres
MEMBERSHIP_FIELDS = ["in_club", "club_place", "club_since", "club_newcomer"]


def lock_club() -> None:
    """One club, so one writer of its membership at a time: a transaction-level advisory lock on
    Postgres, taken before any ClubStanding row is locked (so two finishing games never deadlock
    over each other's players). SQLite lets only one transaction write at a time anyway."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CLUB_LOCK])


def membership(c: ClubStanding) -> tuple[Any, ...]:
    return tuple(getattr(c, f) for f in MEMBERSHIP_FIELDS)


def _full_series_key(c: ClubStanding) -> tuple[Any, ...]:
    return (-c.full_average, -c.full_games)


def update_club(members: list[ClubStanding], played: list[ClubStanding], series_complete: bool, when: Any) -> None:
    """Club membership after one series game (docs/RULES.md#quartet-club), set on the rows in place.

    «Если Вы сыграли цикл из 30-ти конов, и Ваш результат оказался в десятке лучших, то Ваше имя
    заносится в таблицу лучших игроков. [...] Последний член клуба - кандидат на выбывание: любой
    новый игрок, сыгравший хотя бы кон, занимает его место в клубе. Нельзя покидать игру, если кон
    не сыгран до конца, в противном случае Вы исключаетесь из клуба.»

    The club is an ordered list of at most CLUB_SIZE (10) members, stored as ``in_club`` and
    ``club_place`` 1..10:

    * first the members placed by a full series, best full-series average first (more full-series
      games first on equal averages, then whoever was placed earlier);
    * then the newcomers (``club_newcomer``), who hold the last places in the order they came, the
      newest last. When the club is full, its last member is the candidate for elimination.

    ``members`` are the members before this game in club order; ``played`` the ClubStanding rows of
    the people who played it, their counts and averages already updated. In this order:

    1. Whoever left this game before it ended (``excluded``) is out of the club, for good: an
       excluded player never enters again by any rule. Nobody moves up into a freed place; the
       next entrant or newcomer fills it.
    2. If this game completed a series: each player of it who is already a member is placed by his
       full-series average from now on (a newcomer stops being one); each player of it who is not a
       member enters when his full-series average is among the ten best of the members placed by a
       full series and himself. While the club would have more than ten members, its last member
       drops out (a newcomer, if there is one, since newcomers hold the last places).
    3. Every player of this game who was not a member before it (and has not just entered by rule
       2) is a new player who has played a кон: he takes the place of the last member, who drops
       out of the club, and is then the last member himself (so the next newcomer takes his place).
       While the club has fewer than ten members nobody drops out: the newcomer joins at the end.
       When several new players finish the same game they come one after another, the lowest
       average result over all their series games first (then fewer games, then the earlier
       account), so in a full club the best of them holds the last place.

    Who is a member is decided before the game, so a last member who plays with new players is
    displaced by them even though he played too; a member who drops out returns only by these rules.
    """
    start = {m.player_id for m in members}
    newcomer = {m.player_id: m.club_newcomer for m in members}
    order = [m for m in members if not m.excluded]
    if series_complete:
        inside = {m.player_id for m in order}
        for c in played:
            if c.excluded:
                continue
            newcomer[c.player_id] = False
            if c.player_id not in inside:
                order.append(c)  # after the members: on an equal average the one placed earlier stays ahead
        ranked = sorted((m for m in order if not newcomer[m.player_id]), key=_full_series_key)
        order = ranked + [m for m in order if newcomer[m.player_id]]
        del order[CLUB_SIZE:]
    inside = {m.player_id for m in order}
    fresh = sorted((c for c in played if not c.excluded and c.player_id not in start and c.player_id not in inside),
                   key=lambda c: (c.average, c.games, c.player_id))
    for c in fresh:
        if len(order) >= CLUB_SIZE:
            order.pop()  # the candidate for elimination leaves
        newcomer[c.player_id] = True
        order.append(c)
    inside = {m.player_id for m in order}
    for place, m in enumerate(order, start=1):
        if not m.in_club:
            m.in_club = True
            m.club_since = when
        m.club_place = place
        m.club_newcomer = newcomer[m.player_id]
    for m in [*members, *played]:
        if m.player_id not in inside and m.in_club:
            m.in_club = False
            m.club_place = None
            m.club_since = None
            m.club_newcomer = False
