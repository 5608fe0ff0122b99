"""A small PP-OCR pipeline for tests: rapidocr's preprocessing and DB / CTC postprocessing,
written with NumPy, SciPy and Pillow (no OpenCV).

Images are HxWx3 uint8 arrays. Detection resizes to multiples of 32 and normalises with
mean = std = 0.5 (as rapidocr's DetPreProcess); boxes come from the thresholded probability
map's connected components, grown as rapidocr's `unclip` does (by area * ratio / perimeter).
Recognition resizes a crop to height 48, normalises to [-1, 1] and decodes CTC greedily with
the character list stored in the model's metadata (blank first, space last).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from PIL import Image

MODELS = (
    Path(__file__).resolve().parents[3]
    / ".venv/lib/python3.11/site-packages/rapidocr_onnxruntime/models"
)


def models_dir() -> Path | None:
    try:
        import rapidocr_onnxruntime
    except ImportError:
        return None
    return Path(rapidocr_onnxruntime.__file__).parent / "models"


def resize(image: np.ndarray, width: int, height: int) -> np.ndarray:
    return np.asarray(Image.fromarray(image).resize((width, height), Image.BILINEAR))


def det_input(image: np.ndarray, limit_side_len: int) -> np.ndarray:
    """[1, 3, H', W'] float32: the shorter side scaled to `limit_side_len`, both sides rounded
    to multiples of 32, (x / 255 - 0.5) / 0.5, CHW."""
    h, w = image.shape[:2]
    ratio = limit_side_len / min(h, w)
    rh = max(32, int(round(int(h * ratio) / 32) * 32))
    rw = max(32, int(round(int(w * ratio) / 32) * 32))
    resized = resize(image, rw, rh).astype(np.float32)
    normalised = (resized / 255.0 - 0.5) / 0.5
    return normalised.transpose(2, 0, 1)[None].astype(np.float32)


def db_boxes(
    prob: np.ndarray,
    image_shape: tuple[int, int],
    thresh: float = 0.3,
    box_thresh: float = 0.5,
    unclip_ratio: float = 1.6,
) -> list[tuple[int, int, int, int]]:
    """Axis-aligned text boxes (x0, y0, x1, y1) in image pixels from a [H', W'] probability map,
    sorted top to bottom, then left to right."""
    from scipy import ndimage

    height, width = prob.shape
    mask = ndimage.binary_dilation(prob > thresh, structure=np.ones((2, 2), bool))
    labels, count = ndimage.label(mask)
    boxes = []
    for index, region in enumerate(ndimage.find_objects(labels), start=1):
        ys, xs = region
        h, w = ys.stop - ys.start, xs.stop - xs.start
        if min(h, w) < 3:
            continue
        score = float(prob[region][labels[region] == index].mean())
        if score < box_thresh:
            continue
        distance = (h * w) * unclip_ratio / (2 * (h + w))
        x0, x1 = xs.start - distance, xs.stop + distance
        y0, y1 = ys.start - distance, ys.stop + distance
        sx, sy = image_shape[1] / width, image_shape[0] / height
        boxes.append(
            (
                int(np.clip(round(x0 * sx), 0, image_shape[1])),
                int(np.clip(round(y0 * sy), 0, image_shape[0])),
                int(np.clip(round(x1 * sx), 0, image_shape[1])),
                int(np.clip(round(y1 * sy), 0, image_shape[0])),
            )
        )
    return sorted(boxes, key=lambda b: (b[1] // 10, b[0]))


def rec_input(crops: list[np.ndarray], height: int = 48, width: int = 320) -> np.ndarray:
    """[N, 3, 48, W] float32, as rapidocr's TextRecognizer.resize_norm_img (right-padded)."""
    ratio = max([width / height] + [c.shape[1] / c.shape[0] for c in crops])
    full = int(height * ratio)
    batch = np.zeros((len(crops), 3, height, full), dtype=np.float32)
    for i, crop in enumerate(crops):
        w = min(full, int(math.ceil(height * crop.shape[1] / crop.shape[0])))
        resized = resize(crop, w, height).astype(np.float32).transpose(2, 0, 1) / 255
        batch[i, :, :, :w] = (resized - 0.5) / 0.5
    return batch


def cls_input(crops: list[np.ndarray], height: int = 48, width: int = 192) -> np.ndarray:
    """[N, 3, 48, 192] float32, as rapidocr's TextClassifier.resize_norm_img."""
    batch = np.zeros((len(crops), 3, height, width), dtype=np.float32)
    for i, crop in enumerate(crops):
        w = min(width, int(math.ceil(height * crop.shape[1] / crop.shape[0])))
        resized = resize(crop, w, height).astype(np.float32).transpose(2, 0, 1) / 255
        batch[i, :, :, :w] = (resized - 0.5) / 0.5
    return batch


def characters(metadata: dict[str, str]) -> list[str]:
    """CTC classes: blank, the model's character list, space."""
    return ["blank", *metadata["character"].splitlines(), " "]


def ctc_decode(probs: np.ndarray, chars: list[str]) -> list[str]:
    """Greedy CTC: best class per step, repeats merged, blanks dropped."""
    texts = []
    for row in probs.argmax(axis=-1):
        keep = np.ones(row.shape, bool)
        keep[1:] = row[1:] != row[:-1]
        keep &= row != 0
        texts.append("".join(chars[i] for i in row[keep]))
    return texts


def render_text(text: str, font_size: int = 48, margin: int = 24) -> np.ndarray:
    """Black text on white, HxWx3 uint8, with DejaVu Sans when the system has it."""
    from PIL import ImageDraw, ImageFont

    font = None
    for candidate in (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    ):
        if Path(candidate).exists():
            font = ImageFont.truetype(candidate, font_size)
            break
    if font is None:
        font = ImageFont.load_default(size=font_size)
    left, top, right, bottom = font.getbbox(text)
    image = Image.new("RGB", (right - left + 2 * margin, bottom - top + 2 * margin), "white")
    ImageDraw.Draw(image).text((margin - left, margin - top), text, fill="black", font=font)
    return np.asarray(image)
