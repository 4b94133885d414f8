"""The moderators' forms for a mute (period and reason, both shown to the player)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

PERIOD_CHOICES = [("15m", _("15 minutes")), ("1h", _("1 hour")), ("1d", _("1 day")), ("7d", _("7 days")),
                  ("30d", _("30 days"))]


class MuteForm(forms.Form):
    period = forms.ChoiceField(label=_("For how long"), choices=PERIOD_CHOICES, initial="1h")
    reason = forms.CharField(label=_("Reason (the player sees it)"), max_length=300,
                             widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
                             error_messages={"required": _("Give the reason for the mute; the player will see it.")})
