"""The gallery's filters, sorting and keyset pagination.

Pages are found by seeking past the last row shown (`WHERE (name, id) > (?, ?)`), never by
OFFSET, and every sort has a matching index on Sample, so page 1,000 of a 100,000-sample
dataset costs what page 1 does.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet

from core.parsers import parse_json
from datastore.models import Annotation, Dataset, Sample, TextLine

# sort name -> (field, descending); ties are broken by id in the same direction.
SORTS: dict[str, tuple[str, bool]] = {
    "oldest": ("id", False),
    "newest": ("id", True),
    "name": ("original_name", False),
    "largest": ("size_bytes", True),
}
STATUSES = ("all", "labeled", "unlabeled")
SPLIT_FILTERS = {"train": "train", "val": "val", "test": "test", "none": ""}
MAX_PAGE = 200


class BadQuery(ValueError):
    pass


@dataclass
class GalleryQuery:
    label_class: int | None = None
    status: str = "all"
    split: str | None = None
    problems: bool = False
    sort: str = "oldest"
    after: str = ""  # cursor of the last sample shown: the next page
    before: str = ""  # cursor of the first sample shown: the previous page
    start: int | None = None  # first page begins at this sample (import order only)
    page_size: int = 60

    @classmethod
    def from_params(cls, params: Any) -> GalleryQuery:
        """From request.GET; raises BadQuery with a readable message."""
        try:
            label_class = int(params["class"]) if params.get("class") else None
            start = int(params["start"]) if params.get("start") else None
            page_size = min(max(int(params.get("page_size", 60)), 1), MAX_PAGE)
        except ValueError:
            raise BadQuery("class and page_size must be whole numbers.") from None
        split = params.get("split") or None
        if split is not None and split not in SPLIT_FILTERS:
            raise BadQuery(f"split must be one of {', '.join(SPLIT_FILTERS)}.")
        query = cls(
            label_class=label_class,
            status=params.get("status") or "all",
            split=SPLIT_FILTERS[split] if split else None,
            problems=params.get("problems") in ("1", "true", "on"),
            sort=params.get("sort") or "oldest",
            after=params.get("after", ""),
            before=params.get("before", ""),
            start=start,
            page_size=page_size,
        )
        if query.status not in STATUSES:
            raise BadQuery(f"status must be one of {', '.join(STATUSES)}.")
        if query.sort not in SORTS:
            raise BadQuery(f"sort must be one of {', '.join(SORTS)}.")
        if query.start is not None and query.sort != "oldest":
            raise BadQuery("start works with the import order (sort=oldest) only.")
        return query


@dataclass
class GalleryPage:
    samples: list[Sample]
    total: int
    next_cursor: str = ""
    previous_cursor: str = ""
    params: dict[str, str] = field(default_factory=dict)
    first_index: int = 1  # the first sample's position in the whole filtered, sorted list
    page_size: int = 0

    @property
    def last_index(self) -> int:
        return self.first_index + len(self.samples) - 1

    @property
    def page_number(self) -> int:
        return (self.first_index - 1) // self.page_size + 1 if self.page_size else 1

    @property
    def page_count(self) -> int:
        return max(1, -(-self.total // self.page_size)) if self.page_size else 1


def encode_cursor(values: list[Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(values).encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> list[Any]:
    try:
        values = parse_json(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (ValueError, UnicodeDecodeError):
        raise BadQuery("The page cursor is damaged; start from the first page.") from None
    if not (isinstance(values, list) and len(values) == 2 and isinstance(values[1], int)):
        raise BadQuery("The page cursor is damaged; start from the first page.")
    return values


def filtered(dataset: Dataset, query: GalleryQuery) -> QuerySet[Sample]:
    samples = Sample.objects.filter(dataset=dataset)
    if query.label_class is not None:
        tagged = Annotation.objects.filter(label_class_id=query.label_class).values("sample_id")
        samples = samples.filter(id__in=tagged)
    if query.status != "all":
        samples = samples.filter(labeled=query.status == "labeled")
    if query.split is not None:
        samples = samples.filter(split=query.split)
    if query.problems:
        samples = samples.filter(has_problems=True)
    return samples


def _seek(
    samples: QuerySet[Sample], name: str, descending: bool, cursor: list[Any], forward: bool
) -> QuerySet[Sample]:
    value, pk = cursor
    later = forward != descending  # moving towards larger values
    op = "gt" if later else "lt"
    if name == "id":
        return samples.filter(**{f"id__{op}": pk})
    return samples.filter(Q(**{f"{name}__{op}": value}) | Q(**{name: value, f"id__{op}": pk}))


def gallery_page(dataset: Dataset, query: GalleryQuery) -> GalleryPage:
    name, descending = SORTS[query.sort]
    base = filtered(dataset, query)
    forward = not query.before
    samples = base
    if query.start is not None and not (query.after or query.before):
        samples = samples.filter(id__gte=query.start)
    if query.after or query.before:
        samples = _seek(base, name, descending, decode_cursor(query.after or query.before), forward)
    reverse = descending == forward
    order = [f"-{name}", "-id"] if reverse else [name, "id"]
    if name == "id":
        order = order[:1]
    rows = list(samples.order_by(*order)[: query.page_size + 1])
    more = len(rows) > query.page_size
    rows = rows[: query.page_size]
    if not forward:
        rows.reverse()
    page = GalleryPage(rows, base.count(), page_size=query.page_size)
    if rows and (query.after or query.before or query.start is not None):
        # One COUNT of what sorts before the first row: cursors carry no position.
        first = [getattr(rows[0], name), rows[0].pk]
        page.first_index = _seek(base, name, descending, first, forward=False).count() + 1
    if rows:
        has_next = more if forward else True
        has_previous = bool(query.after or query.start) if forward else more
        if has_next:
            page.next_cursor = encode_cursor([getattr(rows[-1], name), rows[-1].pk])
        if has_previous:
            page.previous_cursor = encode_cursor([getattr(rows[0], name), rows[0].pk])
    return page


# The labeling pages' colours for a text line (static/labeling/ocr.js): green, amber if difficult.
TEXT_LINE_COLOUR, DIFFICULT_COLOUR = "#16a34a", "#f59e0b"


def thumbnail_shapes(dataset: Dataset, samples: list[Sample]) -> dict[int, dict[str, Any]]:
    """What gallery.js draws over each thumbnail, in pixels of the sample's image: a detection
    sample's boxes in their class's colour, an OCR sample's text-line polygons. Keyed by sample
    id; samples with nothing to draw, and other tasks, are left out. `samples` come with their
    annotations prefetched (the gallery's cards read them too)."""
    if dataset.is_ocr:
        shapes: dict[int, list[dict[str, Any]]] = {}
        for line in TextLine.objects.filter(sample__in=samples).only(
            "sample_id", "points", "difficult"
        ):
            colour = DIFFICULT_COLOUR if line.difficult else TEXT_LINE_COLOUR
            shapes.setdefault(line.sample_id, []).append({"polygon": line.points, "colour": colour})
    elif dataset.is_detection:
        colours = dict(dataset.classes.values_list("pk", "color"))
        shapes = {}
        for sample in samples:
            for a in sample.annotations.all():
                if a.x is None or a.w is None:
                    continue
                box = [a.x, a.y, a.x + a.w, a.y + a.h]
                shapes.setdefault(sample.pk, []).append(
                    {"box": box, "colour": colours.get(a.label_class_id, TEXT_LINE_COLOUR)}
                )
    else:
        return {}
    return {
        s.pk: {"width": s.width, "height": s.height, "shapes": shapes[s.pk]}
        for s in samples
        if s.pk in shapes
    }
