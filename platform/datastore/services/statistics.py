"""Dataset statistics for the report's charts: classes, image sizes, boxes per image."""

from __future__ import annotations

from collections import Counter

from django.db.models import Count, Q

from datastore.models import Dataset, ImportJob, Sample

MAX_SIZE_POINTS = 2000  # distinct (width, height) pairs drawn in the scatter


def dataset_statistics(dataset: Dataset) -> dict[str, object]:
    samples = Sample.objects.filter(dataset=dataset)
    totals = samples.aggregate(
        samples=Count("id"),
        labeled=Count("id", filter=Q(labeled=True)),
        with_problems=Count("id", filter=Q(has_problems=True)),
    )
    classes = list(
        dataset.classes.annotate(
            annotation_count=Count("annotations"),
            image_count=Count("annotations__sample", distinct=True),
        ).values("id", "name", "color", "annotation_count", "image_count")
    )
    sizes = list(
        samples.values("width", "height")
        .annotate(count=Count("id"))
        .order_by("-count")[:MAX_SIZE_POINTS]
    )
    splits = dict(samples.values_list("split").annotate(n=Count("id")).order_by())
    boxes_per_image: dict[int, int] = {}
    if dataset.is_detection:
        per_sample = samples.filter(labeled=True).annotate(boxes=Count("annotations"))
        boxes_per_image = dict(sorted(Counter(per_sample.values_list("boxes", flat=True)).items()))
    return {
        "totals": totals,
        "classes": classes,
        "sizes": sizes,
        "splits": {(k or "unassigned"): v for k, v in splits.items()},
        "boxes_per_image": boxes_per_image,
    }


def latest_report(dataset: Dataset) -> ImportJob | None:
    return ImportJob.objects.filter(dataset=dataset).exclude(status=ImportJob.Status.QUEUED).first()
