"""Forms of the dataset pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from datastore.models import Dataset, DatasetVersion, ExportJob


class DatasetForm(forms.ModelForm):
    class Meta:
        model = Dataset
        fields = ["name", "task_type", "description"]
        labels = {"name": _("Name"), "task_type": _("Task type"), "description": _("Description")}
        widgets = {"description": forms.Textarea(attrs={"rows": 2})}


class FreezeForm(forms.Form):
    method = forms.ChoiceField(
        choices=DatasetVersion.SplitMethod.choices,
        initial=DatasetVersion.SplitMethod.STRATIFIED,
        label=_("Split method"),
    )
    train = forms.FloatField(min_value=0, max_value=1, initial=0.8, label=_("Train"))
    val = forms.FloatField(min_value=0, max_value=1, initial=0.1, label=_("Validation"))
    test = forms.FloatField(min_value=0, max_value=1, initial=0.1, label=_("Test"))
    seed = forms.IntegerField(initial=0, label=_("Seed"))
    note = forms.CharField(max_length=200, required=False, label=_("Note"))
    # Sent by the "Freeze an identical copy" button, shown once a freeze was refused for
    # matching the latest version.
    confirm_identical = forms.BooleanField(required=False)
    asks_to_confirm = False

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        total = sum(data.get(s) or 0 for s in ("train", "val", "test"))
        if data.get("method") == DatasetVersion.SplitMethod.STRATIFIED and abs(total - 1) > 1e-6:
            raise forms.ValidationError(_("The three ratios must add up to 1."))
        return data


class ExportForm(forms.Form):
    format = forms.ChoiceField(choices=ExportJob.Format.choices, label=_("Format"))
    version = forms.ModelChoiceField(
        queryset=DatasetVersion.objects.none(),
        required=False,
        empty_label=_("Live labels"),
        label=_("Version"),
    )

    def __init__(self, *args: Any, dataset: Dataset, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["version"].queryset = dataset.versions.all()
        allowed = ("coco", "voc", "csv") if dataset.is_detection else ("imagenet", "csv")
        if dataset.is_ocr:
            allowed = ("ppocr",)
        self.fields["format"].choices = [c for c in ExportJob.Format.choices if c[0] in allowed]
