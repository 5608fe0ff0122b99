"""Editing a dataset's label set: add, rename, recolor, merge and delete classes.

Every change that touches annotations can be previewed first: `preview()` counts what
`apply()` would change, without changing anything. Frozen versions keep their own copy of the
classes, so no edit here reaches them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.utils.translation import gettext as _

from datastore.models import Annotation, Dataset, LabelClass, Sample
from datastore.models.dataset import PALETTE


@dataclass(frozen=True)
class Effect:
    annotations: int  # annotations changed or removed
    samples: int  # samples whose labels change
    samples_unlabeled: int  # samples left with no label at all
    duplicates_removed: int  # tags dropped because the sample already had the target class
    summary: str

    def to_json(self) -> dict[str, object]:
        return self.__dict__.copy()


def add_class(dataset: Dataset, name: str, color: str = "") -> LabelClass:
    name = _clean(name)
    order = dataset.classes.count()
    try:
        with transaction.atomic():
            return LabelClass.objects.create(
                dataset=dataset, name=name, order=order, color=color or PALETTE[order % 16]
            )
    except IntegrityError:
        raise ValidationError(
            _("There already is a class named '%(name)s'.") % {"name": name}
        ) from None


def rename_class(label_class: LabelClass, name: str, color: str = "") -> LabelClass:
    label_class.name = _clean(name)
    label_class.color = color or label_class.color
    try:
        with transaction.atomic():
            label_class.save(update_fields=["name", "color"])
    except IntegrityError:
        raise ValidationError(
            _("There already is a class named '%(label_class_name)s'.")
            % {"label_class_name": label_class.name}
        ) from None
    return label_class


def _clean(name: str) -> str:
    name = " ".join(name.split())
    if not name or len(name) > 100:
        raise ValidationError(_("A class name must be 1 to 100 characters long."))
    return name


def _duplicate_tags(source: LabelClass, target: LabelClass) -> QuerySet[Annotation]:
    """Tags of `source` on samples that already carry a `target` tag."""
    has_target = Annotation.objects.filter(label_class=target, x__isnull=True).values("sample")
    return Annotation.objects.filter(label_class=source, x__isnull=True, sample__in=has_target)


def _left_unlabeled(source: LabelClass) -> QuerySet[Sample]:
    affected = Annotation.objects.filter(label_class=source).values("sample")
    others = Annotation.objects.filter(sample__in=affected).exclude(label_class=source)
    return Sample.objects.filter(pk__in=affected).exclude(pk__in=others.values("sample"))


def preview_merge(source: LabelClass, target: LabelClass) -> Effect:
    _check_pair(source, target)
    annotations = source.annotations.count()
    samples = source.annotations.values("sample").distinct().count()
    duplicates = _duplicate_tags(source, target).count()
    return Effect(
        annotations,
        samples,
        0,
        duplicates,
        f"{annotations} annotation{'s' * (annotations != 1)} on {samples} image"
        f"{'s' * (samples != 1)} will move from '{source.name}' to '{target.name}'"
        + (
            f"; {duplicates} duplicate tag{'s' * (duplicates != 1)} will be dropped"
            if duplicates
            else ""
        )
        + f", and '{source.name}' will be removed.",
    )


def preview_delete(label_class: LabelClass) -> Effect:
    annotations = label_class.annotations.count()
    samples = label_class.annotations.values("sample").distinct().count()
    unlabeled = _left_unlabeled(label_class).count()
    return Effect(
        annotations,
        samples,
        unlabeled,
        0,
        f"{annotations} annotation{'s' * (annotations != 1)} on {samples} image"
        f"{'s' * (samples != 1)} will be deleted; {unlabeled} image"
        f"{'s' * (unlabeled != 1)} will have no label left.",
    )


def _check_pair(source: LabelClass, target: LabelClass) -> None:
    if source.dataset_id != target.dataset_id:
        raise ValidationError(_("Both classes must belong to the same dataset."))
    if source.pk == target.pk:
        raise ValidationError(_("Pick two different classes to merge."))


def _touch(sample_ids: list[int]) -> None:
    """Bumps revisions, so a labeling page holding the old labels cannot save over the edit."""
    Sample.objects.filter(pk__in=sample_ids).update(revision=F("revision") + 1)


def merge_classes(source: LabelClass, target: LabelClass) -> Effect:
    effect = preview_merge(source, target)
    with transaction.atomic():
        _touch(list(source.annotations.values_list("sample", flat=True)))
        _duplicate_tags(source, target).delete()
        source.annotations.update(label_class=target)
        _delete_and_reorder(source)
    return effect


def delete_class(label_class: LabelClass) -> Effect:
    effect = preview_delete(label_class)
    with transaction.atomic():
        affected = list(label_class.annotations.values_list("sample", flat=True))
        _left_unlabeled(label_class).update(labeled=False, labeled_at=None)
        _touch(affected)
        _delete_and_reorder(label_class)
    return effect


def _delete_and_reorder(label_class: LabelClass) -> None:
    dataset_id, order = label_class.dataset_id, label_class.order
    label_class.delete()
    LabelClass.objects.filter(dataset_id=dataset_id, order__gt=order).update(order=F("order") - 1)


def reorder_classes(dataset: Dataset, class_ids: list[int]) -> None:
    existing = set(dataset.classes.values_list("id", flat=True))
    if set(class_ids) != existing or len(class_ids) != len(existing):
        raise ValidationError(_("List every class of the dataset exactly once."))
    with transaction.atomic():
        for position, class_id in enumerate(class_ids):
            LabelClass.objects.filter(pk=class_id).update(order=position)
