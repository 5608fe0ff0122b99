"""A small document-layout detection dataset made here: rendered pages (a title, paragraphs of
text, ruled tables and figures on white, `layout_pages`), written as COCO and imported through
the datastore's own import, then frozen. Its classes are CDLA's names, or the ones a test
gives instead (to try the name mapping, or a name CDLA does not have).

    version = layout_version(workspace, user, pages=16)            # text, title, figure, table
    version = layout_version(workspace, user, names={"figure": "Picture"})

Not a test module.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image

from datastore.models import Dataset, DatasetVersion, ImportJob
from datastore.services.imports import import_local_files
from datastore.services.versions import freeze_version
from tests.framework_tests.vision_tests.layout_pages import CLASSES, render_pages


def write_coco(
    root: Path, pages: int, size: tuple[int, int], seed: int, names: dict[str, str]
) -> list[tuple[str, Path]]:
    """`root/pages/*.png` and `root/annotations.json`; (upload name, path) pairs."""
    doc: dict[str, Any] = {
        "images": [],
        "annotations": [],
        "categories": [{"id": i + 1, "name": names.get(n, n)} for i, n in enumerate(CLASSES)],
    }
    (root / "pages").mkdir(parents=True, exist_ok=True)
    for index, page in enumerate(render_pages(pages, size[0], size[1], seed=seed)):
        name = f"pages/page_{index:04d}.png"
        Image.fromarray(page.image).save(root / name)
        doc["images"].append(
            {"id": index + 1, "file_name": name, "width": size[0], "height": size[1]}
        )
        for (x1, y1, x2, y2), label in zip(page.boxes, page.labels, strict=True):
            box = [round(x1, 1), round(y1, 1), round(x2 - x1, 1), round(y2 - y1, 1)]
            doc["annotations"].append(
                {
                    "id": len(doc["annotations"]) + 1,
                    "image_id": index + 1,
                    "category_id": label + 1,
                    "bbox": box,
                    "area": box[2] * box[3],
                    "iscrowd": 0,
                }
            )
    (root / "annotations.json").write_text(json.dumps(doc))
    return [(p.relative_to(root).as_posix(), p) for p in sorted(root.rglob("*")) if p.is_file()]


def layout_version(
    workspace: Any,
    user: Any,
    *,
    pages: int = 16,
    size: tuple[int, int] = (240, 320),
    val: float = 0.5,
    seed: int = 0,
    names: dict[str, str] | None = None,
    name: str = "Pages",
) -> DatasetVersion:
    """A detection dataset of rendered pages (`size`: width, height) with one frozen version;
    `names` renames CDLA's classes as the dataset calls them."""
    dataset = Dataset.objects.create(
        workspace=workspace,
        name=name,
        task_type=Dataset.TaskType.DETECTION,
        description="Rendered document pages (titles, text, tables, figures), made by the tests.",
        created_by=user,
    )
    with tempfile.TemporaryDirectory(prefix="sampan-pages-") as folder:
        files = write_coco(Path(folder), pages, size, seed, names or {})
        job = import_local_files(dataset, user, files)
    if job.status != ImportJob.Status.SUCCEEDED:
        raise RuntimeError(f"The pages import failed: {job.error}")
    return freeze_version(
        dataset,
        user=user,
        method=DatasetVersion.SplitMethod.STRATIFIED,
        ratios={"train": round(1 - val, 6), "val": val, "test": 0.0},
        seed=0,
    )
