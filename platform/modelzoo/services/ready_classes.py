"""Which of a ready detector's classes a dataset version's classes are, by name.

A version fine-tunes a ready detector (the zoo's CDLA layout model) only when every one of its
classes is one the detector already finds: the detector keeps those classes (`class_indices`)
and learns nothing new. Names match ignoring case, spaces, `-` and `_`, and a plural `s`; a
few usual synonyms and CDLA's own Chinese names match too.
"""

from __future__ import annotations

import re

from modelzoo.catalog import DETECTION, Architecture
from modelzoo.services.ready import ReadyModel

# Other names people give CDLA's classes (keys and values normalised as `_normalised` does).
SYNONYMS = {
    "text": ("paragraph", "plaintext", "body", "bodytext", "正文", "文本", "段落"),
    "title": ("heading", "sectionheader", "sectiontitle", "headline", "标题"),
    "figure": ("image", "picture", "chart", "diagram", "photo", "illustration", "图片", "图"),
    "figurecaption": ("imagecaption", "picturecaption", "图片标题", "图注"),
    "table": ("tabular", "表格", "表"),
    "tablecaption": ("表格标题", "表注"),
    "header": ("pageheader", "页眉"),
    "footer": ("pagefooter", "页脚"),
    "reference": ("bibliography", "citation", "参考文献"),
    "equation": ("formula", "math", "isolateformula", "公式"),
}


def _normalised(name: str) -> str:
    return re.sub(r"[\s_\-]+", "", name.strip().lower())


def _lookup(ready: ReadyModel) -> dict[str, int]:
    table: dict[str, int] = {}
    for index, name in enumerate(ready.class_names):
        key = _normalised(name)
        for alias in (key, *SYNONYMS.get(key, ())):
            table.setdefault(alias, index)
    return table


def class_index(ready: ReadyModel, name: str) -> int | None:
    """The ready model's class that `name` is, or None."""
    table, key = _lookup(ready), _normalised(name)
    if key in table:
        return table[key]
    return table.get(key[:-1]) if key.endswith("s") else None


def class_indices(ready: ReadyModel, names: list[str]) -> tuple[list[int], list[str]]:
    """(the ready model's class for each of `names`, in order; the names that match none).
    Two names of one class count as unmatched too: the detector answers each class once."""
    found, unmatched = [], []
    for name in names:
        index = class_index(ready, name)
        if index is None or index in found:
            unmatched.append(name)
        else:
            found.append(index)
    return found, unmatched


def class_problem(ready: ReadyModel, names: list[str]) -> str | None:
    """Why a version with classes `names` cannot fine-tune `ready` (None: it can)."""
    _, unmatched = class_indices(ready, names)
    if not unmatched:
        return None
    from django.utils.translation import gettext

    return gettext(
        "%(model)s fine-tunes only on classes it already finds: %(classes)s. This version's "
        "%(unmatched)s match none of them (or repeat one); rename the classes or choose "
        "another model."
    ) % {
        "model": ready.name,
        "classes": ", ".join(ready.class_names),
        "unmatched": ", ".join(f"“{name}”" for name in unmatched),
    }


def architecture_problem(arch: Architecture, names: list[str]) -> str | None:
    """Why a version with classes `names` cannot train `arch` (None: it can). Only a ready
    detector's architecture has such a reason: it keeps classes, it adds none."""
    if arch.shipped_part != "ready" or arch.task != DETECTION:
        return None
    from modelzoo.services.ready import get_ready_model

    return class_problem(get_ready_model(arch.ready_model), names)


def ready_class_indices(arch: Architecture, names: list[str]) -> list[int]:
    """The ready detector's classes for a job's `names`; ValueError naming those that match
    none (create_job refuses such a job first)."""
    from modelzoo.services.ready import get_ready_model

    ready = get_ready_model(arch.ready_model)
    indices, unmatched = class_indices(ready, names)
    if unmatched:
        raise ValueError(class_problem(ready, names))
    return indices
