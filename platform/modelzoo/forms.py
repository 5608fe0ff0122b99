from __future__ import annotations

from django import forms

from modelzoo.catalog import ARCHITECTURES
from modelzoo.services.conversion import supported_formats


class ImportWeightsForm(forms.Form):
    architecture = forms.ChoiceField(choices=[(a.key, a.name) for a in ARCHITECTURES])
    file = forms.FileField(help_text="Accepted: " + ", ".join(supported_formats()))
    name = forms.CharField(required=False, max_length=200)
