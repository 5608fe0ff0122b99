"""The job-creation form. Its fields are plain; `training.hyperparameters` validates them."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.models import Workspace
from datastore.models import Dataset, DatasetVersion
from modelzoo.catalog import CLASSIFICATION, architectures_for_task
from modelzoo.presets import PRESETS
from modelzoo.services.shipped import shipped_weights
from training.hyperparameters import FIELDS, TASK_FIELDS
from training.services.version_data import TRAINABLE

NUMBER_FIELDS = (
    "epochs",
    "batch_size",
    "learning_rate",
    "weight_decay",
    "input_size",
    "patience",
    "seed",
    "freeze_epochs",
    "backbone_lr_scale",
)
BOOLEAN_FIELDS = ("augment_flip", "augment_crop", "augment_color", "early_stopping")
CHOICE_FIELDS = ("optimizer", "schedule", "device")
# Shown, and sent, only when the chosen version is multi-label (new_job.js hides them), or
# single-label.
MULTI_LABEL_FIELDS = tuple(TASK_FIELDS["multi_label"])
SINGLE_LABEL_FIELDS = tuple(TASK_FIELDS["classification"])


def trainable_versions(workspace: Workspace) -> Any:
    return DatasetVersion.objects.filter(
        dataset__workspace=workspace, dataset__task_type__in=TRAINABLE
    ).select_related("dataset")


def version_choices(workspace: Workspace) -> list[tuple[int, str]]:
    def label(v: DatasetVersion) -> str:
        kind = ", multi-label" if v.dataset.task_type == Dataset.TaskType.MULTI_LABEL else ""
        return f"{v} — {v.sample_count} images, {len(v.classes)} classes{kind}"

    return [(v.pk, label(v)) for v in trainable_versions(workspace)]


def multi_label_versions(workspace: Workspace) -> list[int]:
    """The versions whose jobs are multi-label (the form's script shows their fields)."""
    versions = trainable_versions(workspace).filter(dataset__task_type=Dataset.TaskType.MULTI_LABEL)
    return list(versions.values_list("pk", flat=True))


def weight_choices(workspace: Workspace) -> list[tuple[str, str]]:
    choices = [("scratch", "None: random initialisation")]
    for arch in architectures_for_task(CLASSIFICATION):
        if shipped_weights(arch) is not None:
            choices.append((f"shipped:{arch.key}", f"{arch.name}: shipped weights"))
    for weights in workspace.weights.all():
        choices.append((f"saved:{weights.pk}", f"{weights.arch.name}: {weights.name}"))
    return choices


class NewJobForm(forms.Form):
    name = forms.CharField(required=False, max_length=200)
    dataset_version = forms.TypedChoiceField(coerce=int, label="Dataset version")
    architecture = forms.ChoiceField(label="Model")
    weights = forms.ChoiceField(label="Start from")
    preset = forms.ChoiceField(
        choices=list(PRESETS.items()), initial="balanced", widget=forms.RadioSelect
    )

    def __init__(self, *args: Any, workspace: Workspace, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["dataset_version"].choices = version_choices(workspace)
        self.fields["architecture"].choices = [
            (a.key, a.name) for a in architectures_for_task(CLASSIFICATION)
        ]
        self.fields["weights"].choices = weight_choices(workspace)
        for name in NUMBER_FIELDS:
            self.fields[name] = forms.CharField(label=FIELDS[name].label, required=False)
        for name in CHOICE_FIELDS:
            self.fields[name] = forms.ChoiceField(
                label=FIELDS[name].label, choices=list(FIELDS[name].choices.items())
            )
        for name in BOOLEAN_FIELDS:
            self.fields[name] = forms.BooleanField(label=FIELDS[name].label, required=False)
        for task, names in (
            ("multi_label", MULTI_LABEL_FIELDS),
            ("classification", SINGLE_LABEL_FIELDS),
        ):
            for name in names:
                field = TASK_FIELDS[task][name]
                self.fields[name] = forms.CharField(
                    label=field.label, required=False, help_text=field.hint.strip()
                )

    def overrides(self) -> dict[str, Any]:
        """The advanced fields as sent (blank numbers fall back to the preset)."""
        data = self.cleaned_data
        values: dict[str, Any] = {
            n: data[n] for n in NUMBER_FIELDS if data.get(n) not in ("", None)
        }
        values.update({n: data[n] for n in CHOICE_FIELDS})
        values.update({n: bool(data.get(n)) for n in BOOLEAN_FIELDS})
        task_fields = MULTI_LABEL_FIELDS + SINGLE_LABEL_FIELDS
        values.update({n: data[n] for n in task_fields if data.get(n) not in ("", None)})
        return values

    def init_choice(self) -> tuple[str, int | None]:
        """('scratch' | 'shipped' | 'saved', weights id)."""
        value = self.cleaned_data["weights"]
        if value.startswith("saved:"):
            return "saved", int(value.split(":", 1)[1])
        return ("shipped", None) if value.startswith("shipped:") else ("scratch", None)
