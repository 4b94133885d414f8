"""Forms of the lobby: table settings (create and edit). The services validate again; forms only
turn posted strings into the keyword values the services take."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from durak_site import profanity
from game.engine.rules import RULE_CHOICES, Rules

from .models import Table
from .presets import DEFAULT_PRESET, PRESETS
from .rule_texts import RULE_LABELS, decode, encode, value_label
from .table_settings import DISCONNECT, PRIVATE, RULES_SETTER, SEATS, SERIES, START, TURN_SECONDS

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise as StrPromise

AS_PRESET = ""  # "use the preset's value"


def _rule_field(key: str, *, editing: bool) -> forms.ChoiceField:
    label, help_text, _source = RULE_LABELS[key]
    default = Rules().to_dict()[key]
    choices: list[tuple[str, str | StrPromise]] = [(encode(v), value_label(key, v)) for v in RULE_CHOICES[key]]
    if not editing:
        choices = [(AS_PRESET, _("as in the preset"))] + choices
    return forms.ChoiceField(label=label, help_text=_with_default(help_text, value_label(key, default)),
                             choices=choices, required=False)


def _with_default(help_text, default: str) -> str:
    """The help line and its default, ending in exactly one full stop (a label may end in one: «выкл.»)."""
    line = f"{help_text} " + str(_("Default: %(value)s") % {"value": default})
    return line if line.endswith(".") else line + "."



class TableSettingsForm(forms.Form):
    """Preset + table settings + every engine rule (the "advanced" section)."""

    def __init__(self, *args, editing: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.editing = editing
        preset_choices = [(k, p.name) for k, p in PRESETS.items()]
        if editing:
            preset_choices = [(AS_PRESET, _("keep the rules below"))] + preset_choices
        self.fields["preset"] = forms.ChoiceField(
            label=_("Preset"), choices=preset_choices, required=False,
            initial=AS_PRESET if editing else DEFAULT_PRESET, widget=forms.RadioSelect)
        if not editing:
            self.fields["name"] = forms.CharField(label=_("Table name"), max_length=60, required=False,
                                                  help_text=_("Optional; shown in the lobby."))
        as_preset: list[tuple[str, str | StrPromise]] = [] if editing else [(AS_PRESET, _("as in the preset"))]
        for setting in (SEATS, SERIES):  # a preset may set these
            self.fields[setting.key] = forms.TypedChoiceField(
                label=setting.label, help_text=setting.help, choices=as_preset + setting.choices(), coerce=int,
                empty_value=None, required=False)
        self.fields["turn_seconds"] = forms.TypedChoiceField(
            label=TURN_SECONDS.label, help_text=TURN_SECONDS.help, choices=TURN_SECONDS.choices(), coerce=int,
            initial=str(TURN_SECONDS.default))
        for setting in (DISCONNECT, RULES_SETTER, START):
            self.fields[setting.key] = forms.ChoiceField(label=setting.label, help_text=setting.help,
                                                         choices=setting.choices(), initial=setting.default)
        if not editing:
            self.fields["private"] = forms.BooleanField(label=PRIVATE.label, help_text=PRIVATE.help,
                                                        required=False, initial=PRIVATE.default)
        for key in RULE_CHOICES:
            self.fields[f"rule_{key}"] = _rule_field(key, editing=editing)

    def clean_name(self) -> str:
        """A table's name is shown to everyone in the lobby: swearing is masked as in the chat."""
        return profanity.mask(" ".join((self.cleaned_data.get("name") or "").split()))

    def clean(self) -> dict[str, Any]:
        """Pairs need exactly four seats: said once, by the seats field, in the page's language
        (the lobby service checks again)."""
        data = super().clean() or {}
        preset = PRESETS.get(data.get("preset") or "")
        raw_pairs = data.get("rule_pairs")
        if raw_pairs not in (None, AS_PRESET):
            pairs = decode("pairs", raw_pairs) is True
        else:
            pairs = bool(preset and preset.rules.get("pairs"))
        seats = data.get("seats_count") or (preset.seats_count if preset else None)
        if pairs and seats is not None and seats != 4 and "seats_count" not in self.errors:
            self.add_error("seats_count", _("Pairs 2×2 need exactly 4 seats."))
        return data

    @classmethod
    def for_table(cls, table: Table, data=None) -> TableSettingsForm:
        initial = {
            "preset": AS_PRESET,
            "seats_count": str(table.seats_count),
            "turn_seconds": str(table.turn_seconds),
            "disconnect_policy": table.disconnect_policy,
            "rules_setter": table.rules_setter,
            "start_policy": table.start_policy,
            "series_length": str(table.series_length),
        }
        rules = {**Rules().to_dict(), **(table.rules or {})}
        for key in RULE_CHOICES:
            initial[f"rule_{key}"] = encode(rules[key])
        return cls(data, initial=initial, editing=True)

    def table_fields(self):
        names = ["name", "seats_count", "turn_seconds", "disconnect_policy", "rules_setter", "start_policy",
                 "series_length", "private"]
        return [self[n] for n in names if n in self.fields]

    def rule_fields(self):
        return [self[f"rule_{k}"] for k in RULE_CHOICES]

    def settings(self, table: Table | None = None) -> dict:
        """Keyword arguments for services.create_table / update_rules (only what was set / changed)."""
        data = self.cleaned_data
        out: dict = {}
        preset = data.get("preset") or ""
        if preset:
            out["preset"] = preset
        for name in ("name", "private"):
            if name in data and data[name] not in (None, ""):
                out[name] = data[name]
        for name in ("seats_count", "turn_seconds", "series_length", "disconnect_policy", "rules_setter",
                     "start_policy"):
            value = data.get(name)
            if value in (None, ""):
                continue
            if table is not None and getattr(table, name) == value:
                continue
            out[name] = value
        if table is not None and preset:
            return out  # editing: a chosen preset replaces the rules wholesale
        current = {**Rules().to_dict(), **(table.rules or {})} if table is not None else None
        for key in RULE_CHOICES:
            raw = data.get(f"rule_{key}")
            if raw in (None, AS_PRESET):
                continue
            value = decode(key, raw)
            if current is not None and current[key] == value:
                continue
            out[key] = value
        return out


FILTER_VARIANTS = [("", _("any variant")), ("podkidnoy", _("podkidnoy")), ("perevodnoy", _("perevodnoy"))]
FILTER_PLAYERS = [("", _("any size"))] + SEATS.choices()
