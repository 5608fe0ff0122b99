"""The job-creation form. Its fields are plain; `training.hyperparameters` validates them."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import Workspace
from datastore.models import Dataset, DatasetVersion
from modelzoo.catalog import ARCHITECTURES, TRAINS_ON
from modelzoo.presets import PRESETS
from modelzoo.services.shipped import shipped_weights
from training.hyperparameters import FIELDS, TASK_FIELDS
from training.services.version_data import TRAINABLE, training_problems

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
# single-label, or detection.
MULTI_LABEL_FIELDS = tuple(TASK_FIELDS["multi_label"])
SINGLE_LABEL_FIELDS = tuple(TASK_FIELDS["classification"])
DETECTION_FIELDS = tuple(TASK_FIELDS["detection"])
OCR_FIELDS = tuple(TASK_FIELDS["ocr"])
TASK_FIELD_NAMES = MULTI_LABEL_FIELDS + SINGLE_LABEL_FIELDS + DETECTION_FIELDS + OCR_FIELDS
# The form's choices of what an OCR job fine-tunes (the API takes the list itself).
PART_CHOICES = [
    ("det,rec", _("Detection and recognition")),
    ("rec", _("Recognition only")),
    ("det", _("Detection only")),
]
# Every architecture a job can train, whatever the version's task: the script offers those of
# the chosen version's task, and create_job refuses any other.
TRAINABLE_ARCHITECTURES = tuple(a for a in ARCHITECTURES if a.task in set(TRAINS_ON.values()))


def trainable_versions(workspace: Workspace) -> Any:
    return DatasetVersion.objects.filter(
        dataset__workspace=workspace, dataset__task_type__in=TRAINABLE
    ).select_related("dataset")


def version_label(version: DatasetVersion) -> str:
    task = version.dataset.task_type
    kind = ""
    if task == Dataset.TaskType.MULTI_LABEL:
        kind = ", " + gettext("multi-label")
    elif task == Dataset.TaskType.DETECTION:
        boxes = int((version.stats or {}).get("boxes", 0))
        kind = ", " + gettext("detection, %(boxes)d boxes") % {"boxes": boxes}
    elif task == Dataset.TaskType.OCR:
        lines = int((version.stats or {}).get("text_lines", 0))
        return f"{version} — " + gettext("%(images)d images, text lines: %(lines)d") % {
            "images": version.sample_count,
            "lines": lines,
        }
    counts = gettext("%(images)d images, %(classes)d classes") % {
        "images": version.sample_count,
        "classes": len(version.classes),
    }
    return f"{version} — {counts}{kind}"


def version_choices(workspace: Workspace) -> list[tuple[int, str]]:
    return [(v.pk, version_label(v)) for v in trainable_versions(workspace)]


def version_tasks(workspace: Workspace) -> dict[int, str]:
    """Each version's task: the script offers the architectures and fields of that task."""
    return {v.pk: v.dataset.task_type for v in trainable_versions(workspace)}


def version_problems(workspace: Workspace) -> dict[int, list[str]]:
    """Why each version that cannot train cannot (the form says so before anyone submits)."""
    found = {v.pk: training_problems(v) for v in trainable_versions(workspace)}
    return {pk: problems for pk, problems in found.items() if problems}


def multi_label_versions(workspace: Workspace) -> list[int]:
    """The versions whose jobs are multi-label (the form's script shows their fields)."""
    versions = trainable_versions(workspace).filter(dataset__task_type=Dataset.TaskType.MULTI_LABEL)
    return list(versions.values_list("pk", flat=True))


def weight_choices(workspace: Workspace) -> list[tuple[str, str]]:
    choices = [("scratch", gettext("None: random initialisation"))]
    for arch in TRAINABLE_ARCHITECTURES:
        shipped = shipped_weights(arch)
        if shipped is not None:
            what = (
                gettext("shipped pretrained backbone")
                if shipped.backbone_only
                else gettext("shipped weights")
            )
            choices.append((f"shipped:{arch.key}", f"{arch.name}: {what}"))
    for weights in workspace.weights.all():
        choices.append((f"saved:{weights.pk}", f"{weights.arch.name}: {weights.name}"))
    return choices


class NewJobForm(forms.Form):
    name = forms.CharField(required=False, max_length=200, label=_("Name"))
    dataset_version = forms.TypedChoiceField(coerce=int, label=_("Dataset version"))
    architecture = forms.ChoiceField(label=_("Model"))
    weights = forms.ChoiceField(label=_("Start from"))
    preset = forms.ChoiceField(
        choices=list(PRESETS.items()),
        initial="balanced",
        widget=forms.RadioSelect,
        label=_("Preset"),
    )

    def __init__(self, *args: Any, workspace: Workspace, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["dataset_version"].choices = version_choices(workspace)
        self.fields["architecture"].choices = [(a.key, a.name) for a in TRAINABLE_ARCHITECTURES]
        self.fields["weights"].choices = weight_choices(workspace)
        for name in NUMBER_FIELDS:
            self.fields[name] = forms.CharField(label=FIELDS[name].label, required=False)
        for name in CHOICE_FIELDS:
            self.fields[name] = forms.ChoiceField(
                label=FIELDS[name].label, choices=list(FIELDS[name].choices.items())
            )
        for name in BOOLEAN_FIELDS:
            self.fields[name] = forms.BooleanField(label=FIELDS[name].label, required=False)
        for fields in TASK_FIELDS.values():
            for name, field in fields.items():
                if field.kind is list:
                    self.fields[name] = forms.ChoiceField(
                        label=field.label,
                        choices=PART_CHOICES,
                        initial=PART_CHOICES[0][0],
                        required=False,
                        help_text=field.hint.strip(),
                    )
                    continue
                kind = forms.BooleanField if field.kind is bool else forms.CharField
                self.fields[name] = kind(
                    label=field.label, required=False, help_text=field.hint.strip()
                )

    def overrides(self, task: str) -> dict[str, Any]:
        """The advanced fields as sent (blank numbers fall back to the preset), with the
        switches of `task` (a version's task): an unticked box is not sent, so the other
        tasks' switches are left out rather than refused."""
        data = self.cleaned_data
        values: dict[str, Any] = {
            n: data[n] for n in NUMBER_FIELDS if data.get(n) not in ("", None)
        }
        values.update({n: data[n] for n in CHOICE_FIELDS})
        values.update({n: bool(data.get(n)) for n in BOOLEAN_FIELDS})
        for name in TASK_FIELD_NAMES:
            owner = next(t for t, fields in TASK_FIELDS.items() if name in fields)
            if TASK_FIELDS[owner][name].kind is bool:
                if owner == task:
                    values[name] = bool(data.get(name))
            elif data.get(name) not in ("", None):
                values[name] = data[name]
        return values

    def init_choice(self) -> tuple[str, int | None]:
        """('scratch' | 'shipped' | 'saved', weights id)."""
        value = self.cleaned_data["weights"]
        if value.startswith("saved:"):
            return "saved", int(value.split(":", 1)[1])
        return ("shipped", None) if value.startswith("shipped:") else ("scratch", None)
