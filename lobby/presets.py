"""Table presets: named bundles of rule settings (docs/RULES.md#presets)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Preset:
    key: str
    name: object  # lazy translated name
    description: object
    rules: dict = field(default_factory=dict)  # overrides of the engine defaults
    seats_count: int | None = None  # forced seat count (pairs: 4)
    series_length: int = 1
    source: str = ""


PRESETS: dict[str, Preset] = {
    p.key: p
    for p in [
        Preset("classic", _("Classic podkidnoy"),
               _("36 cards, free-for-all, throw in the ranks on the table, at most 6 per round."),
               {}, source="000"),
        Preset("perevodnoy", _("Perevodnoy"),
               _("Podkidnoy plus transfers: the defender may pass the attack on with a card of the same rank."),
               {"variant": "perevodnoy"}, source="000, 004"),
        Preset("pairs", _("Pairs 2×2"),
               _("Four players, seats 1 and 3 against 2 and 4; the pair that is out first wins."),
               {"pairs": True}, seats_count=4, source="000"),
        Preset("cheater", _("Cheater"),
               _("Any card may be laid; opponents may catch a dishonest card with “Catch!”."),
               {"cheater": True}, source="000"),
        Preset("quartet", _("Quartet series"),
               _("Pairs 2×2 podkidnoy, the starter throws in first, a series of 30 games with standings."),
               {"pairs": True, "variant": "podkidnoy", "throw_in": "starter_first"}, seats_count=4,
               series_length=30, source="003"),
    ]
}
DEFAULT_PRESET = "classic"
CUSTOM = "custom"
