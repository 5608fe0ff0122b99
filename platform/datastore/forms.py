"""Forms of the dataset pages."""

from __future__ import annotations

from typing import Any

from django import forms

from datastore.models import Dataset, DatasetVersion, ExportJob


class DatasetForm(forms.ModelForm):
    class Meta:
        model = Dataset
        fields = ["name", "task_type", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 2})}


class FreezeForm(forms.Form):
    method = forms.ChoiceField(
        choices=DatasetVersion.SplitMethod.choices, initial=DatasetVersion.SplitMethod.STRATIFIED
    )
    train = forms.FloatField(min_value=0, max_value=1, initial=0.8)
    val = forms.FloatField(min_value=0, max_value=1, initial=0.1, label="Validation")
    test = forms.FloatField(min_value=0, max_value=1, initial=0.1)
    seed = forms.IntegerField(initial=0)
    note = forms.CharField(max_length=200, required=False)
    # Sent by the "Freeze an identical copy" button, shown once a freeze was refused for
    # matching the latest version.
    confirm_identical = forms.BooleanField(required=False)
    asks_to_confirm = False

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        total = sum(data.get(s) or 0 for s in ("train", "val", "test"))
        if data.get("method") == DatasetVersion.SplitMethod.STRATIFIED and abs(total - 1) > 1e-6:
            raise forms.ValidationError("The three ratios must add up to 1.")
        return data


class ExportForm(forms.Form):
    format = forms.ChoiceField(choices=ExportJob.Format.choices)
    version = forms.ModelChoiceField(
        queryset=DatasetVersion.objects.none(), required=False, empty_label="Live labels"
    )

    def __init__(self, *args: Any, dataset: Dataset, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["version"].queryset = dataset.versions.all()
        allowed = ("coco", "voc", "csv") if dataset.is_detection else ("imagenet", "csv")
        self.fields["format"].choices = [c for c in ExportJob.Format.choices if c[0] in allowed]
