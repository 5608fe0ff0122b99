"""Template filters that name a stored key (a preset, a split) in the reader's language."""

from __future__ import annotations

from django import template

from datastore.models import Sample
from modelzoo.presets import PRESET_NAMES

register = template.Library()


@register.filter
def preset_name(preset: str) -> str:
    """A job's preset key ("quick") as its translated short name; an unknown key as it is."""
    return str(PRESET_NAMES.get(preset, preset))


@register.filter
def split_name(split: str | None) -> str:
    """A split key ("val") as its translated name (验证集 / Validation)."""
    if split in Sample.Split.values and split:
        return str(Sample.Split(split).label)
    return split or ""
