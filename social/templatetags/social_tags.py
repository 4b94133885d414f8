"""Template tags of the social panels (the lobby's online list, the table's people)."""

from __future__ import annotations

import re

from django import template
from django.utils.translation import gettext as _

from game.models import GameSeat
from lobby import services as lobby_services
from lobby.models import Seat

from .. import dodges, matching, pages, presence, queue, reliability, site_hooks
from ..models import TableRequirement

register = template.Library()


@register.simple_tag(takes_context=True)
def online_summary(context) -> dict:
    return presence.summary_for(context.get("user"))


@register.simple_tag
def person_panels(place: str) -> tuple[str, ...]:
    """The templates the apps above add at `place` of the people pages (social.pages):
    `{% person_panels "friend" as panels %}{% for name in panels %}{% include name %}{% endfor %}`."""
    return pages.person_panels(place)


@register.simple_tag
def matching_rule() -> dict:
    """The numbers of the matching rule and the reliability mark, as the rules page states them."""
    return {"start": matching.WINDOW_START, "step": matching.WINDOW_STEP, "every": int(matching.WINDOW_EVERY),
            "open": int(matching.WINDOW_OPEN_AFTER), "arrive": queue.ARRIVE_SECONDS,
            "recent": reliability.RECENT, "high": round(reliability.HIGH_AT * 100),
            "medium": round(reliability.MEDIUM_AT * 100), "new": reliability.NEW_UNDER,
            "dodge_wait": dodges.WAIT_FIRST, "dodge_wait_max": dodges.WAIT_MAX // 60}


@register.simple_tag
def search_modes() -> tuple[str, ...]:
    """The search's modes, in the order the pages offer them."""
    return matching.MODES


@register.simple_tag
def online_strings() -> dict:
    """The words the site news' script needs to redraw the online list in the page's language."""
    return {"playing": _("playing"), "searching": _("searching"), "lobby": _("in the lobby"), "watch": _("watch"),
            "nobody": _("Nobody else is online right now."), "reliability": _("Reliability"),
            "marks": {code: str(label) for code, label in reliability.LABELS.items()},
            "counts": _placeholders(_("%(online)s online · %(playing)s playing"))}


@register.simple_tag(takes_context=True)
def table_people(context, table) -> dict:
    """The people seated at a table with their reliability marks, and the host's requirement (at a
    table the search made, the others only once everyone has arrived: lobby names_hidden)."""
    seats = list(Seat.objects.filter(table=table, player__isnull=False).select_related("player").order_by("number"))
    if lobby_services.names_hidden(table, seats):
        viewer = getattr(context.get("user"), "pk", None)
        seats = [s for s in seats if s.player_id == viewer]
    seated = [(s.number, s.player) for s in seats if s.player is not None]  # player__isnull=False above
    marks = reliability.marks([p.pk for _n, p in seated])
    return {
        "rows": [{"seat": n, "nick": p.nick, "id": p.pk, "mark": marks[p.pk],
                  "label": reliability.label(marks[p.pk])} for n, p in seated],
        "reliable_only": TableRequirement.objects.filter(table=table, reliable_only=True).exists(),
    }


@register.simple_tag
def seat_marks(game) -> list[dict]:
    """The reliability mark of each person's seat of `game` (a seat dealt to a bot has none). A
    game's seats keep their players to its end (a takeover or a leaver only changes who plays),
    and a new game is a new page, so the marks the table page is rendered with stay right."""
    if not getattr(game, "pk", None):
        return []
    seats = list(GameSeat.objects.filter(game_id=game.pk, player__isnull=False, bot_level="")
                 .order_by("number").values_list("number", "player_id"))
    marks = reliability.marks([pid for _n, pid in seats])
    return [{"seat": n, "mark": marks[pid]} for n, pid in seats]


@register.simple_tag
def reliability_of(player_id: int) -> str:
    return reliability.mark(player_id)


@register.filter
def reliability_label(code: str) -> str:
    return reliability.label(code)


@register.inclusion_tag("social/site_socket.html", takes_context=True)
def site_socket(context) -> dict:
    """The site news' script, the words its notices use (base.html, signed-in players; their
    placeholders as the pages' one `fmt` reads them: {nick}) and the site panels of the apps above."""
    return {"user": context.get("user"), "panels": site_hooks.site_panels(),
            "strings": {key: _placeholders(str(text)) for key, text in {
        "match": _("Opponents found! Going to the table…"),
        "requeued": _("Someone did not come: back to the search, at the head of the queue."),
        "no_show": _("You did not come to the table in time: the search has ended."),
        "search_ended": _("The search has ended."),
        "partner_left_search": _("Your party partner left the search: the search has ended."),
        "invitation": _("%(nick)s invites you to the table “%(table)s”"),
        "accept": _("Accept"), "decline": _("Decline"), "close": _("Close"),
        "friend_request": _("%(nick)s wants to be your friend"),
        "friend_accepted": _("%(nick)s accepted your friend request"),
        "invitation_declined": _("%(nick)s declined your invitation"),
        "invitation_accepted": _("%(nick)s accepted your invitation"),
        "invitation_withdrawn": _("%(nick)s withdrew the invitation"),
        "see": _("See"), "seconds": _("%(n)s s"),
        # on a page that must not be left by itself (the recovery key, shown once)
        "match_held": _("Opponents found! Save your key, then go to the table within %(n)s s.") % {
            "n": queue.ARRIVE_SECONDS},
        "invite_held": _("Your seat at the table is taken. Save your key, then go to the table."),
        "to_table": _("Go to the table"),
    }.items()}}


@register.simple_tag
def party_strings() -> dict:
    """The words of the party's notices (social/static/social/party.js), placeholders as `fmt` reads them."""
    return {key: _placeholders(str(text)) for key, text in {
        "invitation": _("%(nick)s invites you into a party: you would search for games together"),
        "accept": _("Accept"), "decline": _("Decline"), "close": _("Close"),
        "declined": _("%(nick)s declined your party invitation"),
        "party_formed": _("%(nick)s joined your party"),
        "party_left": _("%(nick)s left the party"),
        "search": _("%(nick)s started the search for your party"),
        "failed": _("Could not answer: try again from the Friends page."),
    }.items()}


def _placeholders(text: str) -> str:
    """The catalogue's %(nick)s as the pages' fmt (static/site/socket.js) fills it: {nick}."""
    return re.sub(r"%\((\w+)\)s", r"{\1}", text)
