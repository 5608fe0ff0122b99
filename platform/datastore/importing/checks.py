"""Checks that look past one image: boxes against image sizes, duplicates, class balance."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from datastore.importing import format_messages as format_said
from datastore.importing import messages as said
from datastore.importing.formats.base import Box
from datastore.importing.limits import ImportLimits
from datastore.importing.problems import Report

HASH_BITS = 128


@dataclass(frozen=True, slots=True)  # slots: an import may hold millions
class PixelBox:
    label: str
    x: float
    y: float
    w: float
    h: float


def to_pixels(box: Box, width: int, height: int, report: Report) -> PixelBox | None:
    """Pixel box clipped to the image, or None (reported) when nothing usable is left."""
    sx, sy = (width, height) if box.normalized else (1, 1)
    x0, y0, x1, y1 = box.x0 * sx, box.y0 * sy, box.x1 * sx, box.y1 * sy
    if x1 <= x0 or y1 <= y0:
        report.error(
            "box_zero_area",
            box.file,
            said.BOX_NO_AREA(
                label=box.label, x0=f"{x0:g}", y0=f"{y0:g}", x1=f"{x1:g}", y1=f"{y1:g}"
            ),
            said.BOX_NO_AREA_FIX(),
            box.where,
        )
        return None
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if cx1 <= cx0 or cy1 <= cy0:
        report.error(
            "box_outside_image",
            box.file,
            said.BOX_OUTSIDE(label=box.label, width=width, height=height),
            said.BOX_OUTSIDE_NORMALIZED_FIX() if box.normalized else said.BOX_OUTSIDE_FIX(),
            box.where,
        )
        return None
    if (cx0, cy0, cx1, cy1) != (x0, y0, x1, y1):
        report.warning(
            "box_outside_image",
            box.file,
            said.BOX_CLIPPED(
                label=box.label,
                x0=f"{x0:g}",
                y0=f"{y0:g}",
                x1=f"{x1:g}",
                y1=f"{y1:g}",
                width=width,
                height=height,
            ),
            said.BOX_CLIPPED_FIX(),
            box.where,
        )
    return PixelBox(box.label, cx0, cy0, cx1 - cx0, cy1 - cy0)


def find_exact_duplicates(hashes: Iterable[tuple[str, str]]) -> dict[str, str]:
    """path -> the earlier path with the same content hash, for every later copy."""
    first: dict[str, str] = {}
    copies: dict[str, str] = {}
    for path, digest in hashes:
        if digest in first:
            copies[path] = first[digest]
        else:
            first[digest] = path
    return copies


def _bands(value: int, count: int) -> list[int]:
    """`count` disjoint slices of the 128 bits, each tagged with its index."""
    width = -(-HASH_BITS // count)
    return [(i << HASH_BITS) | ((value >> (i * width)) & ((1 << width) - 1)) for i in range(count)]


def find_near_duplicates(
    hashes: list[tuple[str, str]], max_bits: int, known: Mapping[str, str] | None = None
) -> dict[str, str]:
    """path -> an earlier (or already imported) path whose perceptual hash is within max_bits.

    Pigeonhole banding: split the bits into max_bits + 1 bands; two hashes this close agree on
    at least one whole band, so only hashes sharing a band are compared.
    """
    entries = list((known or {}).items()) + hashes
    ints = [int(h, 16) for _, h in entries]
    high = np.array([v >> 64 for v in ints], dtype=np.uint64)
    low = np.array([v & ((1 << 64) - 1) for v in ints], dtype=np.uint64)
    buckets: dict[int, list[int]] = defaultdict(list)
    for index, value in enumerate(ints):
        for band in _bands(value, max_bits + 1):
            buckets[band].append(index)
    first_new = len(entries) - len(hashes)
    matches: dict[str, str] = {}
    for members in buckets.values():
        if len(members) < 2:
            continue
        group = np.array(members)
        for start in range(0, len(members), 256):  # blocks keep the distance matrix small
            block = group[start : start + 256]
            distances = np.bitwise_count(high[block, None] ^ high[group]) + np.bitwise_count(
                low[block, None] ^ low[group]
            )
            close = (distances <= max_bits) & (group[None, :] < block[:, None])
            for row in np.nonzero(close.any(axis=1))[0]:
                index = int(block[row])
                name = entries[index][0]
                if index >= first_new and name not in matches:
                    matches[name] = entries[int(group[np.argmax(close[row])])][0]
    return matches


def check_balance(counts: Mapping[str, int], limits: ImportLimits, report: Report) -> None:
    """Classes with too few samples, and a largest-to-smallest ratio that is too high."""
    if not counts:
        return
    for name, count in sorted(counts.items()):
        if count < limits.min_samples_per_class:
            minimum = limits.min_samples_per_class
            if count == 0:
                reason = said.CLASS_EMPTY(name=name, minimum=minimum)
            elif count == 1:
                reason = said.CLASS_ONE(name=name, minimum=minimum)
            else:
                reason = said.CLASS_TOO_FEW(name=name, count=count, minimum=minimum)
            report.warning(
                "class_too_few",
                "",
                reason,
                said.CLASS_TOO_FEW_FIX(name=name),
                where=format_said.AT_CLASS(name=name),
            )
    largest = max(counts, key=lambda n: counts[n])
    smallest = min(counts, key=lambda n: counts[n])
    if counts[smallest] and counts[largest] / counts[smallest] > limits.max_imbalance_ratio:
        report.warning(
            "class_imbalance",
            "",
            said.IMBALANCED(
                largest=largest,
                most=counts[largest],
                smallest=smallest,
                fewest=counts[smallest],
                ratio=f"{counts[largest] / counts[smallest]:.0f}",
            ),
            said.IMBALANCED_FIX(),
            where=format_said.AT_CLASS_COUNTS(),
        )
