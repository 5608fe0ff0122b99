"""Assigning one class to many samples at once (the gallery's multi-select)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from datastore.models import Annotation, Dataset, LabelClass, Sample

MODES = ("set", "add", "remove")


def bulk_assign(
    dataset: Dataset, sample_ids: list[int], label_class: LabelClass, mode: str, user: Any
) -> int:
    """Sets, adds or removes a class tag on many samples; returns how many samples changed.

    `set` replaces each sample's tags with the class (the only mode of a single-label
    dataset); `add` and `remove` are for multi-label datasets.
    """
    if dataset.is_detection:
        raise ValidationError(_("Bulk labeling assigns classes; draw boxes on the labeling page."))
    if mode not in MODES or (mode != "set" and not dataset.is_multi_label):
        raise ValidationError(_("A single-label dataset only supports mode 'set'."))
    if label_class.dataset_id != dataset.pk:
        raise ValidationError(_("The class belongs to another dataset."))
    samples = Sample.objects.filter(dataset=dataset, pk__in=sample_ids)
    ids = list(samples.values_list("pk", flat=True))
    if len(ids) != len(set(sample_ids)):
        raise ValidationError(_("Some samples are not in this dataset."))
    now = timezone.now()
    with transaction.atomic():
        tags = Annotation.objects.filter(sample_id__in=ids, x__isnull=True)
        if mode in ("set", "add"):
            if mode == "set":
                tags.exclude(label_class=label_class).delete()
            Annotation.objects.bulk_create(
                [Annotation(sample_id=i, label_class=label_class, created_by=user) for i in ids],
                ignore_conflicts=True,  # samples that already had the tag keep it
            )
            samples.update(labeled=True, labeled_at=now, revision=F("revision") + 1)
        else:
            tags.filter(label_class=label_class).delete()
            has_any = Annotation.objects.filter(sample_id=OuterRef("pk"))
            samples.update(revision=F("revision") + 1)
            samples.filter(~Exists(has_any)).update(labeled=False, labeled_at=None)
    return len(ids)
