"""A dataset and its label set."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.files.storage import default_storage
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# Distinct, readable on both light images and dark boxes; reused in order after the last one.
PALETTE = (
    "#e6194b",
    "#3cb44b",
    "#4363d8",
    "#f58231",
    "#911eb4",
    "#42d4f4",
    "#f032e6",
    "#bfef45",
    "#fabed4",
    "#469990",
    "#dcbeff",
    "#9a6324",
    "#fffac8",
    "#800000",
    "#aaffc3",
    "#808000",
)


class Dataset(models.Model):
    class TaskType(models.TextChoices):
        CLASSIFICATION = "classification", _("Image classification (one label per image)")
        MULTI_LABEL = "multi_label", _("Image classification (several labels per image)")
        DETECTION = "detection", _("Object detection (boxes)")
        OCR = "ocr", _("Text lines (OCR)")

    workspace = models.ForeignKey(
        "accounts.Workspace", on_delete=models.CASCADE, related_name="datasets"
    )
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True)
    task_type = models.CharField(max_length=20, choices=TaskType.choices)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["workspace", "name"], name="dataset_name_per_workspace")
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_detection(self) -> bool:
        return self.task_type == self.TaskType.DETECTION

    @property
    def is_ocr(self) -> bool:
        return self.task_type == self.TaskType.OCR

    @property
    def is_multi_label(self) -> bool:
        return self.task_type == self.TaskType.MULTI_LABEL

    @property
    def storage_prefix(self) -> str:
        """Every file of this dataset lives under this storage name, and nowhere else."""
        return f"datasets/{self.pk}"

    def local_folder(self, *parts: str) -> Path:
        """A folder under the dataset's storage prefix on local disk (the import works there)."""
        root = Path(default_storage.path(self.storage_prefix)).resolve()
        folder = root.joinpath(*parts).resolve()
        if not folder.is_relative_to(root):
            raise ValueError(f"{folder} is outside the dataset folder {root}")
        return folder

    def class_names(self) -> list[str]:
        return list(self.classes.values_list("name", flat=True))

    def ensure_classes(self, names: list[str]) -> dict[str, LabelClass]:
        """name -> class, creating the missing ones after the existing ones, in order."""
        existing = {c.name: c for c in self.classes.all()}
        position = len(existing)
        for name in names:
            if name not in existing:
                existing[name] = LabelClass.objects.create(
                    dataset=self, name=name, order=position, color=PALETTE[position % len(PALETTE)]
                )
                position += 1
        return existing


class LabelClass(models.Model):
    dataset = models.ForeignKey(Dataset, on_delete=models.CASCADE, related_name="classes")
    name = models.CharField(max_length=100)
    color = models.CharField(max_length=7, default="#4363d8")
    order = models.PositiveIntegerField(default=0)

    workspace_lookup = "dataset__workspace"

    class Meta:
        ordering = ["order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["dataset", "name"], name="class_name_per_dataset")
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def workspace(self) -> models.Model:
        return self.dataset.workspace
