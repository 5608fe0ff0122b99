from __future__ import annotations

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from modelzoo.catalog import ARCHITECTURES
from modelzoo.services.conversion import supported_formats


class ImportWeightsForm(forms.Form):
    architecture = forms.ChoiceField(
        choices=[(a.key, a.name) for a in ARCHITECTURES], label=_("Architecture")
    )
    file = forms.FileField(
        label=_("File"),
        help_text=format_lazy(_("Accepted: {formats}"), formats=", ".join(supported_formats())),
    )
    name = forms.CharField(required=False, max_length=200, label=_("Name"))
