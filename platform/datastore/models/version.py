"""Frozen dataset versions: what training jobs refer to, never the live dataset."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from datastore.models.dataset import Dataset
from datastore.models.sample import Sample


class DatasetVersion(models.Model):
    """An immutable snapshot of samples, labels and split. Nothing updates it after creation."""

    class SplitMethod(models.TextChoices):
        STRATIFIED = "stratified", _("Stratified random split")
        FOLDERS = "folders", _("Split from the imported folders")

    dataset = models.ForeignKey(Dataset, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    note = models.CharField(max_length=200, blank=True)
    split_method = models.CharField(max_length=12, choices=SplitMethod.choices)
    ratios = models.JSONField(default=dict, blank=True)  # {"train": 0.8, "val": 0.1, "test": 0.1}
    seed = models.IntegerField(default=0)
    classes = models.JSONField(default=list)  # [{"name": ..., "color": ...}] in label order
    stats = models.JSONField(default=dict)
    sample_count = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    workspace_lookup = "dataset__workspace"

    class Meta:
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(fields=["dataset", "number"], name="version_number_per_dataset")
        ]

    def __str__(self) -> str:
        return f"{self.dataset} v{self.number}"

    @property
    def workspace(self) -> models.Model:
        return self.dataset.workspace

    @property
    def class_names(self) -> list[str]:
        return [c["name"] for c in self.classes]

    # Below this many validation examples of a class, one image moves that class's validation
    # accuracy by 20 points or more: the number measures the split, not the model.
    MIN_VALIDATION_PER_CLASS = 5

    def split_warnings(self) -> list[str]:
        """What the split cannot measure, in words people act on (empty when it is sound)."""
        per_split = self.stats.get("per_split", {})
        if not per_split.get("val"):
            return [
                gettext(
                    "This version has no validation images, so a job trained on it cannot tell "
                    "how well it does on images it did not learn from. Give the val split a "
                    "share (10 percent is common), or import a val folder."
                )
            ]
        counts = self.stats.get("per_class", {}).get("val", {})
        thin = [(name, counts.get(name, 0)) for name in self.class_names]
        thin = [(name, count) for name, count in thin if count < self.MIN_VALIDATION_PER_CLASS]
        if not thin:
            return []
        shown = ", ".join(f"{name} ({count})" for name, count in thin[:8])
        more = gettext(" and %(count)d more") % {"count": len(thin) - 8} if len(thin) > 8 else ""
        return [
            gettext(
                "Too few validation images to measure %(thin)d of %(classes)d classes: "
                "%(shown)s%(more)s. With fewer than %(minimum)d per class, one image moves a "
                "class's validation accuracy by 20 points or more. Label more images of these "
                "classes, or give the val split a larger share."
            )
            % {
                "thin": len(thin),
                "classes": len(self.class_names),
                "shown": shown,
                "more": more,
                "minimum": self.MIN_VALIDATION_PER_CLASS,
            }
        ]


class VersionItem(models.Model):
    """One sample in a version, with its labels as they were at freezing time.

    `labels` holds class indices into the version's `classes`: `[2]` or `[0, 3]` for
    classification, `[[class, x, y, w, h], ...]` in pixels for detection.
    """

    version = models.ForeignKey(DatasetVersion, on_delete=models.CASCADE, related_name="items")
    # RESTRICT: a sample in a frozen version never vanishes from under it, except when the
    # whole dataset (and so the version) is deleted with it.
    sample = models.ForeignKey(Sample, on_delete=models.RESTRICT, related_name="+")
    split = models.CharField(max_length=5, choices=Sample.Split.choices)
    labels = models.JSONField(default=list)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["version", "split", "id"], name="version_item_by_split")]

    def __str__(self) -> str:
        return f"sample {self.sample_id} in {self.version}"
