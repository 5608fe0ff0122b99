"""Rendered document pages with their layout boxes: a title, paragraphs of text, ruled tables
and figures (charts and shaded drawings), drawn with PIL and Debian's DejaVu and Liberation
fonts at a page size the test picks. Used by the layout fine-tuning tests. Not a test module.

Classes are named as CDLA names them: "text", "title", "figure", "table". Every box is the
extent of what was drawn (ink, ruling or picture), so a detector's boxes can match it closely.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import numpy as np

FONTS = "/usr/share/fonts/truetype"
BODY = ("dejavu/DejaVuSerif.ttf", "liberation/LiberationSerif-Regular.ttf",
        "dejavu/DejaVuSans.ttf", "liberation/LiberationSans-Regular.ttf")  # fmt: skip
BOLD = ("dejavu/DejaVuSans-Bold.ttf", "liberation/LiberationSans-Bold.ttf",
        "dejavu/DejaVuSerif-Bold.ttf")  # fmt: skip
CLASSES = ("text", "title", "figure", "table")
WORDS = (
    "layout detection model document region table figure caption header training data the of "
    "and a to in is for on with as by results method network page paper section analysis "
    "value between shows each we our this that which from are were be"
).split()


@cache
def _font(path: str, size: int):
    from PIL import ImageFont

    return ImageFont.truetype(f"{FONTS}/{path}", size)


@dataclass
class Page:
    image: np.ndarray  # [H, W, 3] uint8 RGB
    boxes: list[list[float]] = field(default_factory=list)  # x1, y1, x2, y2 pixels
    labels: list[int] = field(default_factory=list)  # indices into CLASSES


def _words(rng: np.random.Generator, count: int) -> str:
    return " ".join(rng.choice(WORDS, size=count))


def _paragraph(draw, rng, font, x: int, y: int, width: int, lines: int) -> list[float]:
    """Lines of words filling `width` (the last one shorter); returns the inked box."""
    ink = [np.inf, np.inf, -np.inf, -np.inf]
    step = int(font.size * 1.35)
    for line in range(lines):
        text, limit = "", width if line < lines - 1 else width * rng.uniform(0.3, 0.8)
        while True:
            longer = (text + " " + _words(rng, 1)).strip()
            if draw.textlength(longer, font=font) > limit:
                break
            text = longer
        left, top, right, bottom = draw.textbbox((x, y + line * step), text, font=font)
        draw.text((x, y + line * step), text, fill=(20, 20, 20), font=font)
        ink = [min(ink[0], left), min(ink[1], top), max(ink[2], right), max(ink[3], bottom)]
    return ink


def _table(draw, rng, font, x: int, y: int, width: int, rows: int) -> list[float]:
    cols = int(rng.integers(3, 6))
    row_h = int(font.size * 1.8)
    col_w = width // cols
    for r in range(rows):
        for c in range(cols):
            cell = _words(rng, 1)[: max(2, col_w // max(font.size // 2, 1) - 1)]
            draw.text((x + c * col_w + 3, y + r * row_h + 3), cell, fill=(30, 30, 30), font=font)
    right, bottom = x + cols * col_w, y + rows * row_h
    for r in range(rows + 1):
        draw.line([(x, y + r * row_h), (right, y + r * row_h)], fill=(0, 0, 0), width=1)
    for c in range(cols + 1):
        draw.line([(x + c * col_w, y), (x + c * col_w, bottom)], fill=(0, 0, 0), width=1)
    return [x, y, right, bottom]


def _figure(draw, rng, x: int, y: int, width: int, height: int) -> list[float]:
    """A bar chart with axes, or a shaded drawing of overlapping shapes."""
    if rng.random() < 0.5:
        draw.line([(x, y), (x, y + height), (x + width, y + height)], fill=(0, 0, 0), width=2)
        bars = int(rng.integers(4, 9))
        step = width / bars
        for b in range(bars):
            top = y + height * rng.uniform(0.05, 0.8)
            colour = tuple(int(v) for v in rng.integers(40, 220, 3))
            draw.rectangle([x + b * step + 3, top, x + (b + 1) * step - 3, y + height - 1],
                           fill=colour)  # fmt: skip
    else:
        draw.rectangle([x, y, x + width, y + height], fill=tuple(int(v) for v in
                       rng.integers(150, 235, 3)))  # fmt: skip
        for _ in range(int(rng.integers(3, 7))):
            cx, cy = x + rng.uniform(0, width), y + rng.uniform(0, height)
            r = rng.uniform(0.1, 0.3) * min(width, height)
            box = [max(x, cx - r), max(y, cy - r), min(x + width, cx + r), min(y + height, cy + r)]
            colour = tuple(int(v) for v in rng.integers(20, 200, 3))
            draw.ellipse(box, fill=colour)
    return [x, y, x + width, y + height]


def render_page(rng: np.random.Generator, width: int, height: int) -> Page:
    """One page: a title, then paragraphs, tables and figures down the column until it is
    full, each block's box and class recorded."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    page = Page(np.zeros(0))
    scale = width / 320
    body = _font(str(rng.choice(BODY)), max(7, int(round(scale * rng.uniform(7, 9)))))
    margin = int(width * rng.uniform(0.07, 0.12))
    column = width - 2 * margin
    title_font = _font(str(rng.choice(BOLD)), int(round(scale * rng.uniform(12, 16))))
    title = _words(rng, int(rng.integers(2, 5))).title()
    while draw.textlength(title, font=title_font) > column and " " in title:
        title = title.rsplit(" ", 1)[0]
    y = int(height * rng.uniform(0.04, 0.08))
    x = margin + int(max(0, column - draw.textlength(title, font=title_font)) / 2)
    box = draw.textbbox((x, y), title, font=title_font)
    draw.text((x, y), title, fill=(0, 0, 0), font=title_font)
    page.boxes.append([float(v) for v in box])
    page.labels.append(CLASSES.index("title"))
    y = int(box[3] + body.size * 1.5)
    while True:
        kind = rng.choice(["text", "text", "table", "figure"])
        if kind == "text":
            lines = int(rng.integers(2, 7))
            needed = int(lines * body.size * 1.35)
        elif kind == "table":
            rows = int(rng.integers(3, 6))
            needed = int(rows * body.size * 1.8)
        else:
            fig_w = int(column * rng.uniform(0.5, 0.9))
            fig_h = int(fig_w * rng.uniform(0.45, 0.75))
            needed = fig_h
        if y + needed > height - margin:
            break
        if kind == "text":
            box = _paragraph(draw, rng, body, margin, y, column, lines)
        elif kind == "table":
            box = _table(draw, rng, body, margin, y, column, rows)
        else:
            box = _figure(draw, rng, margin + (column - fig_w) // 2, y, fig_w, fig_h)
        page.boxes.append([float(v) for v in box])
        page.labels.append(CLASSES.index(kind))
        y = int(box[3] + body.size * rng.uniform(1.2, 2.2))
    page.image = np.asarray(image)
    return page


def render_pages(count: int, width: int, height: int, seed: int) -> list[Page]:
    rng = np.random.default_rng(seed)
    return [render_page(rng, width, height) for _ in range(count)]
