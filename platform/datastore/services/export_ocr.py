"""The OCR export layout: PPOCRLabel's Label.txt beside the images, and a recognition set of
line crops (rec_gt.txt), as PaddleOCR trains its detector and recognizer from them.

    Label.txt              images/<name>\t[{"transcription", "points", "difficult"}, ...]
    images/<name>
    rec_gt.txt             crops/<name>_<n>.png\t<text>  (lines not marked difficult)
    crops/<name>_<n>.png
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image

from framework.vision.ocr.label_files import TextImage, TextLine, write_label_txt, write_rec_gt
from framework.vision.ocr.pipeline import crop_text_line

if TYPE_CHECKING:
    from datastore.services.exports import ExportItem

Progress = Callable[[int, int], None]


def _crop(image: Image.Image, points: np.ndarray) -> Image.Image | None:
    """The line upright: a quadrilateral is warped, a polygon cut out by its bounding box."""
    if len(points) == 4:
        crop = crop_text_line(np.asarray(image), points.astype(np.float32))
        return Image.fromarray(crop) if crop.size else None
    x0, y0 = np.floor(points.min(axis=0)).astype(int)
    x1, y1 = np.ceil(points.max(axis=0)).astype(int)
    return image.crop((x0, y0, x1, y1)) if x1 > x0 and y1 > y0 else None


def write_ppocr(
    archive: zipfile.ZipFile, items: Sequence[ExportItem], classes: list[str], progress: Progress
) -> None:
    labels, crops = io.StringIO(), []
    for done, item in enumerate(items, start=1):
        arcname = f"images/{item.name}"
        archive.write(item.source, arcname, compress_type=zipfile.ZIP_STORED)
        lines = [
            TextLine(
                np.asarray(line["points"], dtype=np.float64),
                line["transcription"],
                bool(line["difficult"]),
            )
            for line in item.text_lines
        ]
        write_label_txt([TextImage(arcname, lines)], labels)
        readable = [line for line in lines if not line.ignore and line.transcription]
        if readable:
            with Image.open(item.source) as opened:
                image = opened.convert("RGB")
            for number, line in enumerate(readable, start=1):
                crop = _crop(image, line.points)
                if crop is None:
                    continue
                name = f"crops/{item.name.rsplit('.', 1)[0]}_{number}.png"
                buffer = io.BytesIO()
                crop.save(buffer, "PNG")
                archive.writestr(name, buffer.getvalue(), compress_type=zipfile.ZIP_STORED)
                crops.append((name, line.transcription))
        if done % 200 == 0 or done == len(items):
            progress(done, len(items))
    archive.writestr("Label.txt", labels.getvalue())
    rec = io.StringIO()
    write_rec_gt(crops, rec)
    archive.writestr("rec_gt.txt", rec.getvalue())
