"""Forms: thin shells whose validation is the services' own (one source of every message)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from . import nicks


class SignUpForm(forms.Form):
    nick = forms.CharField(
        label=_("Nick"), max_length=40, strip=True,
        help_text=_("3–20 characters: Russian or Latin letters, digits, “_” and “-”."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none", "spellcheck": "false",
                                      "autofocus": True, "maxlength": nicks.MAX_LENGTH}),
        error_messages={"required": _("Choose a nick.")},
    )


class RestoreForm(forms.Form):
    nick = forms.CharField(
        label=_("Nick"), max_length=40, strip=True,
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none", "spellcheck": "false",
                                      "autofocus": True}),
        error_messages={"required": _("Enter your nick.")},
    )
    key = forms.CharField(
        label=_("Recovery key"), max_length=80, strip=True,
        help_text=_("Dashes, spaces and letter case do not matter."),
        widget=forms.TextInput(attrs={"autocomplete": "current-password", "autocapitalize": "characters",
                                      "spellcheck": "false", "placeholder": "XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX",
                                      "class": "key-input"}),
        error_messages={"required": _("Enter your recovery key.")},
    )


class BanForm(forms.Form):
    """The moderator's reason, shown to the banned player."""

    reason = forms.CharField(label=_("Reason (the player sees it)"), max_length=300,
                             widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
                             error_messages={"required": _("Give the reason for the ban; the player will see it.")})
