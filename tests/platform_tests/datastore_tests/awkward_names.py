"""Dataset versions whose class names are hostile or awkward, for export round trips.

Not a test module. The names hold what breaks naive exports: path parts, spreadsheet formulas,
Windows device names, whitespace at the ends, and names that become the same folder name.
"""

from __future__ import annotations

from datastore.models import Annotation, Dataset, DatasetVersion, LabelClass, Sample
from datastore.services.versions import freeze_version
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.base import DatastoreTestCase

AWKWARD_NAMES = (
    "缺陷",
    "two words",
    "../evil",
    '=HYPERLINK("x")',
    "+1",
    "-x",
    "@y",
    "\tstarts with a tab",
    "a/b",
    "a:b",  # becomes the same folder name as a/b
    "CON",
    "con",  # the same folder as CON where case does not count (Windows, macOS)
    "'quoted",
    " padded ",
    "train",  # a split's name, which an importer reads as a split folder
)
# (sample content hash) -> (split, labels): sorted class names, or sorted boxes for detection
Contents = dict[str, tuple[str, list[object]]]


def _relabel(dataset: Dataset) -> list[LabelClass]:
    Annotation.objects.filter(sample__dataset=dataset).delete()
    dataset.classes.all().delete()
    return list(dataset.ensure_classes(list(AWKWARD_NAMES)).values())


def _freeze(case: DatastoreTestCase, dataset: Dataset) -> DatasetVersion:
    """Every sample labeled, and dealt in turn to train, val, train, test: all splits in use."""
    for i, sample in enumerate(dataset.samples.order_by("id")):
        sample.split = ("train", "val", "train", "test")[i % 4]
        sample.labeled = True
        sample.save(update_fields=["split", "labeled"])
    return freeze_version(dataset, user=case.alice, method="folders")


def classification_version(case: DatastoreTestCase, multi_label: bool = False) -> DatasetVersion:
    """Digits, each name on two images; with `multi_label`, two images hold a second name."""
    task = Dataset.TaskType.MULTI_LABEL if multi_label else Dataset.TaskType.CLASSIFICATION
    dataset = case.make_dataset(task, name="Awkward tags")
    case.import_digits(dataset, labels=tuple(range(10)), per_class=3)  # two per name
    classes = _relabel(dataset)
    samples = list(dataset.samples.order_by("id"))
    for i, sample in enumerate(samples[: 2 * len(classes)]):
        Annotation.objects.create(sample=sample, label_class=classes[i % len(classes)])
    if multi_label:
        for sample, label_class in zip(samples[:2], classes[-2:], strict=True):
            Annotation.objects.create(sample=sample, label_class=label_class)
    return _freeze(case, dataset)


def detection_version(case: DatastoreTestCase) -> DatasetVersion:
    """The sample photos, with two or three boxes each, one name per box."""
    dataset = case.make_dataset(Dataset.TaskType.DETECTION, name="Awkward boxes")
    folder = case.folder("awkward-photos")
    sample_images.photos(folder)
    case.assertEqual(case.import_folder(dataset, folder).status, "succeeded")
    classes = _relabel(dataset)
    samples = list(dataset.samples.order_by("id"))
    for i, label_class in enumerate(classes):
        x, y = 10.0 + 20 * (i // len(samples)), 5.5 + 30 * (i // len(samples))
        Annotation.objects.create(
            sample=samples[i % len(samples)], label_class=label_class, x=x, y=y, w=50.0, h=40.25
        )
    return _freeze(case, dataset)


def contents_of_version(version: DatasetVersion) -> Contents:
    names = version.class_names
    contents: Contents = {}
    for content_hash, split, labels in version.items.values_list(
        "sample__content_hash", "split", "labels"
    ):
        found = [
            (names[label[0]], *label[1:]) if isinstance(label, list) else names[label]
            for label in labels
        ]
        contents[content_hash] = (split, sorted(found))
    return contents


def contents_of_dataset(dataset: Dataset) -> Contents:
    contents: Contents = {
        content_hash: (split, [])
        for content_hash, split in Sample.objects.filter(dataset=dataset).values_list(
            "content_hash", "split"
        )
    }
    rows = Annotation.objects.filter(sample__dataset=dataset).values_list(
        "sample__content_hash", "label_class__name", "x", "y", "w", "h"
    )
    for content_hash, name, x, y, w, h in rows:
        contents[content_hash][1].append(name if x is None else (name, x, y, w, h))
    return {key: (split, sorted(labels)) for key, (split, labels) in contents.items()}
