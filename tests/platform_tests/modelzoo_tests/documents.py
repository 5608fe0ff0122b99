"""A document page drawn here with PIL: a title, paragraphs of text, a bar chart with its
caption, a table, and more text. Where each region lies is returned with the image.

Not a test module.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

WORDS = (
    "the of harbour ships cargo tonnes traffic quarter rose fell berth crane port season".split()
)


def _font(size: int, bold: bool = False) -> ImageFont.ImageFont:
    try:
        return ImageFont.truetype("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", size)
    except OSError:
        return ImageFont.load_default(size)


def document_page(seed: int = 0) -> tuple[Image.Image, dict[str, tuple[int, int, int, int]]]:
    """An A4-like page (1240×1754) and the regions drawn on it: {"title", "text",
    "figure", "figure_caption", "table"} as (x1, y1, x2, y2)."""
    rng = np.random.default_rng(seed)
    page = Image.new("RGB", (1240, 1754), "white")
    draw = ImageDraw.Draw(page)
    text, title = _font(26), _font(56, bold=True)
    regions: dict[str, tuple[int, int, int, int]] = {}
    draw.text((120, 110), "Quarterly Report on Harbour Traffic", fill="black", font=title)
    regions["title"] = (120, 110, 1180, 180)
    y = 230
    for _ in range(2):
        top = y
        for _ in range(6):
            draw.text(
                (120, y), " ".join(rng.choice(WORDS, 9)).capitalize(), fill="black", font=text
            )
            y += 38
        regions.setdefault("text", (120, top, 860, y))
        y += 30
    left, top = 150, y + 10
    draw.rectangle((left, top, left + 900, top + 420), outline="black", width=3)
    for i in range(8):
        height = int(rng.integers(60, 380))
        x = left + 40 + i * 105
        draw.rectangle((x, top + 410 - height, x + 70, top + 410), fill=(60, 110, 200))
    regions["figure"] = (left, top, left + 900, top + 420)
    y = top + 440
    draw.text((360, y), "Figure 1. Ships per month", fill="black", font=text)
    regions["figure_caption"] = (360, y, 700, y + 30)
    left, top = 150, y + 80
    rows, cols, width, height = 5, 4, 220, 50
    for r in range(rows + 1):
        draw.line((left, top + r * height, left + cols * width, top + r * height), "black", 2)
    for c in range(cols + 1):
        draw.line((left + c * width, top, left + c * width, top + rows * height), "black", 2)
    for r in range(rows):
        for c in range(cols):
            value = str(int(rng.integers(10, 999)))
            draw.text((left + c * width + 14, top + r * height + 10), value, "black", font=text)
    regions["table"] = (left, top, left + cols * width, top + rows * height)
    y = top + rows * height + 40
    for _ in range(4):
        draw.text((120, y), " ".join(rng.choice(WORDS, 9)).capitalize(), fill="black", font=text)
        y += 38
    return page, regions
