"""Real and rendered images for the OCR tests, and the PP-OCR models of the rapidocr wheel.

Rendered text uses Debian's Noto CJK fonts (`fonts-noto-cjk`, in the Makefile's system
packages), which carry Latin and Chinese glyphs; tests that need them skip without them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

NOTO_SANS = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
NOTO_SERIF = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc")
SIMPLIFIED_CHINESE = 2  # face index of "Noto Sans CJK SC" in the collection

MODEL_FILES = {
    "det": "ch_PP-OCRv4_det_infer.onnx",
    "rec": "ch_PP-OCRv4_rec_infer.onnx",
    "cls": "ch_ppocr_mobile_v2.0_cls_infer.onnx",
}


def model_paths() -> dict[str, Path]:
    """The three ONNX files inside the installed rapidocr-onnxruntime wheel (or a skip)."""
    rapidocr = pytest.importorskip("rapidocr_onnxruntime")
    models = Path(rapidocr.__file__).parent / "models"
    return {key: models / name for key, name in MODEL_FILES.items()}


def font(size: int, path: Path = NOTO_SANS):
    from PIL import ImageFont

    if not path.exists():
        pytest.skip(f"{path} is missing: apt-get install fonts-noto-cjk")
    return ImageFont.truetype(str(path), size, index=SIMPLIFIED_CHINESE)


def render_lines(
    lines: list[str], size: int = 32, path: Path = NOTO_SANS, margin: int = 40, gap: float = 1.8
) -> np.ndarray:
    """Black lines of text on white, `[H, W, 3]` uint8 (grey, so RGB and BGR agree)."""
    from PIL import Image, ImageDraw

    face = font(size, path)
    width = max(int(face.getlength(line)) for line in lines) + 2 * margin
    height = int(len(lines) * size * gap) + 2 * margin
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        draw.text((margin, margin + int(i * size * gap)), line, fill="black", font=face)
    return np.asarray(image)


def grey_to_bgr(image: np.ndarray) -> np.ndarray:
    return np.repeat(image[:, :, None], 3, axis=2)


def rotated(image: np.ndarray, degrees: float) -> np.ndarray:
    """`image` turned counter-clockwise on a white canvas that holds all of it."""
    from PIL import Image

    turned = Image.fromarray(image).rotate(
        degrees, resample=Image.BICUBIC, expand=True, fillcolor=(255, 255, 255)
    )
    return np.asarray(turned)


def render_dot_matrix(text: str, dot: int = 4) -> np.ndarray:
    """`text` as a dot-matrix printer or a dot-peen marker prints it: the glyphs rasterised
    at 11 px, each ink pixel drawn as a round dot `dot` px apart. `[H, W, 3]` uint8. PP-OCRv4
    reads these poorly: its training data has few of them."""
    from PIL import Image, ImageDraw

    face = font(11)
    small = Image.new("L", (int(face.getlength(text)) + 4, 13), 255)
    ImageDraw.Draw(small).text((2, 0), text, fill=0, font=face)
    ink = np.asarray(small) < 128
    image = Image.new("RGB", (ink.shape[1] * dot, ink.shape[0] * dot), "white")
    draw = ImageDraw.Draw(image)
    for y, x in zip(*np.nonzero(ink), strict=True):
        draw.ellipse([x * dot + 0.5, y * dot + 0.5, (x + 1) * dot - 1, (y + 1) * dot - 1], "black")
    return np.asarray(image)


def _texture(rng: np.random.Generator, size: int) -> np.ndarray:
    """A `size x size` RGB cut from one of scikit-image's busy photos and textures."""
    from skimage import data

    sources = (data.grass, data.gravel, data.brick, data.astronaut, data.coffee, data.rocket)
    picture = sources[int(rng.integers(len(sources)))]()
    if picture.ndim == 2:
        picture = np.repeat(picture[:, :, None], 3, axis=2)
    y = int(rng.integers(0, picture.shape[0] - size + 1))
    x = int(rng.integers(0, picture.shape[1] - size + 1))
    return np.ascontiguousarray(picture[y : y + size, x : x + size])


def render_light_words_on_texture(
    rng: np.random.Generator, size: int = 256, words: list[str] | None = None
) -> tuple[np.ndarray, list[np.ndarray]]:
    """Pale words (capitals and digits, random light colours) packed in lines with almost no
    leading over a busy scikit-image background, and each word's box: `([size, size, 3]
    uint8 BGR, [[4, 2] float32 box, ...])`; `words`, when given, gets each box's word. PP-OCRv4's
    detector does poorly on these: it misses pale words on texture and merges lines this
    tight."""
    import string

    from PIL import Image, ImageDraw

    image = Image.fromarray(_texture(rng, size))
    draw = ImageDraw.Draw(image)
    text_size = int(rng.integers(18, 28))
    face = font(text_size)
    alphabet = list(string.ascii_uppercase + string.digits)
    boxes = []
    y = int(rng.integers(8, 30))
    while y + text_size < size - 8:
        x = int(rng.integers(6, 40))
        while True:
            word = "".join(rng.choice(alphabet, int(rng.integers(3, 7))))
            left, top, right, bottom = draw.textbbox((x, y), word, font=face)
            if right > size - 6:
                break
            colour = tuple(int(v) for v in rng.integers(200, 256, 3))
            draw.text((x, y), word, fill=colour, font=face)
            boxes.append(
                np.array([[left, top], [right, top], [right, bottom], [left, bottom]], np.float32)
            )
            if words is not None:
                words.append(word)
            x = right + int(rng.integers(text_size // 2, text_size * 2))
        y += int(text_size * rng.uniform(1.0, 1.15))
    return np.ascontiguousarray(np.asarray(image)[:, :, ::-1]), boxes
