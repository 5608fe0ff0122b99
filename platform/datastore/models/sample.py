"""Samples (one image each) and their annotations (class tags and boxes)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from datastore.models.dataset import Dataset, LabelClass

# How far past the image's edge a box may reach: half a pixel of rounding from the browser.
BOX_SLACK = 0.5


class StaleRevision(Exception):
    """Someone saved this sample's labels since the caller loaded them."""


@dataclass(frozen=True)
class BoxInput:
    class_id: int
    x: float
    y: float
    w: float
    h: float


class Sample(models.Model):
    class Split(models.TextChoices):
        NONE = "", _("Unassigned")
        TRAIN = "train", _("Train")
        VAL = "val", _("Validation")
        TEST = "test", _("Test")

    dataset = models.ForeignKey(Dataset, on_delete=models.CASCADE, related_name="samples")
    import_job = models.ForeignKey(
        "datastore.ImportJob", null=True, on_delete=models.SET_NULL, related_name="samples"
    )
    file = models.FileField(max_length=300)
    thumbnail = models.FileField(max_length=300)
    original_name = models.CharField(max_length=1000)
    content_hash = models.CharField(max_length=64)
    perceptual_hash = models.CharField(max_length=32)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    size_bytes = models.PositiveBigIntegerField()
    split = models.CharField(max_length=5, choices=Split.choices, blank=True, default="")
    problems = models.JSONField(default=list, blank=True)  # problem codes from the import
    has_problems = models.BooleanField(default=False)
    labeled = models.BooleanField(default=False)
    # Bumped by every label save; a save based on an older revision is refused (409).
    revision = models.PositiveIntegerField(default=0)
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    labeled_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    workspace_lookup = "dataset__workspace"

    class Meta:
        ordering = ["id"]
        indexes = [
            # Gallery pages are keyset-paginated on (filter, id): each filter has its index.
            models.Index(fields=["dataset", "id"], name="sample_by_dataset"),
            models.Index(fields=["dataset", "labeled", "id"], name="sample_by_labeled"),
            models.Index(fields=["dataset", "split", "id"], name="sample_by_split"),
            models.Index(fields=["dataset", "has_problems", "id"], name="sample_by_problems"),
            models.Index(fields=["dataset", "original_name", "id"], name="sample_by_name"),
            models.Index(fields=["dataset", "size_bytes", "id"], name="sample_by_size"),
            models.Index(fields=["dataset", "content_hash"], name="sample_by_hash"),
        ]

    def __str__(self) -> str:
        return self.original_name

    @property
    def workspace(self) -> models.Model:
        return self.dataset.workspace

    def set_labels(
        self,
        *,
        class_ids: list[int],
        boxes: list[BoxInput],
        revision: int,
        user: models.Model | None,
        labeled: bool | None = None,
    ) -> int:
        """Replaces this sample's annotations; returns the new revision.

        `labeled` defaults to "has any annotation"; a detection labeler sets it to say that an
        image really has no objects. Raises ValidationError for bad input and StaleRevision
        when `revision` is not the current one.
        """
        classes = self._classes_by_id({*class_ids, *(b.class_id for b in boxes)})
        self._check(class_ids, boxes)
        now = timezone.now()
        is_labeled = bool(class_ids or boxes)
        if labeled is not None and self.dataset.task_type == Dataset.TaskType.DETECTION:
            is_labeled = labeled  # "no objects here" is a label; an image without a class is not
        with transaction.atomic():
            won = Sample.objects.filter(pk=self.pk, revision=revision).update(
                revision=F("revision") + 1,
                labeled=is_labeled,
                labeled_at=now if is_labeled else None,
                claimed_by=None,
                claimed_at=None,
            )
            if won != 1:
                raise StaleRevision(self.pk)
            self.annotations.all().delete()
            Annotation.objects.bulk_create(
                [
                    Annotation(sample=self, label_class=classes[c], created_by=user)
                    for c in dict.fromkeys(class_ids)
                ]
                + [
                    Annotation(
                        sample=self,
                        label_class=classes[b.class_id],
                        x=b.x,
                        y=b.y,
                        w=b.w,
                        h=b.h,
                        created_by=user,
                    )
                    for b in boxes
                ]
            )
        self.revision, self.labeled = revision + 1, is_labeled
        return self.revision

    def _classes_by_id(self, ids: set[int]) -> dict[int, LabelClass]:
        classes = {
            c.id: c for c in LabelClass.objects.filter(dataset_id=self.dataset_id, id__in=ids)
        }
        missing = ids - classes.keys()
        if missing:
            raise ValidationError(
                _("Class %(sorted)s is not in this dataset's label set.")
                % {"sorted": sorted(missing)[0]}
            )
        return classes

    def _check(self, class_ids: list[int], boxes: list[BoxInput]) -> None:
        task = self.dataset.task_type
        if task == Dataset.TaskType.DETECTION and class_ids:
            raise ValidationError(_("A detection dataset labels images with boxes, not tags."))
        if task != Dataset.TaskType.DETECTION and boxes:
            raise ValidationError(_("A classification dataset labels images with tags, not boxes."))
        if task == Dataset.TaskType.CLASSIFICATION and len(set(class_ids)) > 1:
            raise ValidationError(_("This dataset is single-label: give the image one class."))
        slack = BOX_SLACK
        for box in boxes:
            if box.w <= 0 or box.h <= 0:
                raise ValidationError(_("A box must have a positive width and height."))
            if (
                box.x < -slack
                or box.y < -slack
                or box.x + box.w > self.width + slack
                or box.y + box.h > self.height + slack
            ):
                raise ValidationError(
                    _("A box reaches outside the %(width)sx%(height)s image.")
                    % {"width": self.width, "height": self.height}
                )


class Annotation(models.Model):
    """A class tag (no box) or a box, in pixels of the image as the browser shows it."""

    sample = models.ForeignKey(Sample, on_delete=models.CASCADE, related_name="annotations")
    label_class = models.ForeignKey(
        LabelClass, on_delete=models.CASCADE, related_name="annotations"
    )
    x = models.FloatField(null=True, blank=True)
    y = models.FloatField(null=True, blank=True)
    w = models.FloatField(null=True, blank=True)
    h = models.FloatField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["label_class", "sample"], name="annotation_by_class")]
        constraints = [
            models.UniqueConstraint(
                fields=["sample", "label_class"],
                condition=models.Q(x__isnull=True),
                name="one_tag_per_class",
            )
        ]

    def __str__(self) -> str:
        return f"{self.label_class} on sample {self.sample_id}"

    @property
    def is_box(self) -> bool:
        return self.x is not None
