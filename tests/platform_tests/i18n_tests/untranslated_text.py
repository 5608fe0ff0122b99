"""Finds the user-facing text of a Django template that no translate tag covers.

Text between tags, and the attributes people read (title, placeholder, aria-label, alt, and the
value of an input button), count as user-facing. Comments, scripts, styles and <pre> blocks
(command lines) do not; neither does anything inside {% translate %} or {% blocktranslate %},
nor template variables, whose text comes translated from the code or is data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Words that read the same in every language: names, units, metric names and key caps.
ALLOWED = frozenset(
    {
        "Sampan",
        "· Sampan",  # the page title's suffix
        "API",
        "F1",
        "AP",
        "mAP",
        "FLOPs",
        "sha256",
        "AP@.5",
        "AP@[.5:.95]",
        "active",  # a class name, filled into a block of workspace_base.html's tabs
        "v",  # "v3": an export's version number
        "A",
        "C",
        "E",
        "F",
        "M",
        "N",
        "Esc",
        "Ctrl Z / Ctrl Y",
    }
)

_HIDDEN = re.compile(
    r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}|{#.*?#}|<!--.*?-->"
    r"|<script\b.*?</script>|<style\b.*?</style>|<pre\b.*?</pre>"
    r"|{%\s*blocktranslate\b.*?{%\s*endblocktranslate\s*%}|{%\s*translate\b.*?%}",
    re.S,
)
_TAG = re.compile(r"<[a-zA-Z/!][^>]*>", re.S)
_TEMPLATE = re.compile(r"{%.*?%}|{{.*?}}", re.S)
_READ_ATTRIBUTES = re.compile(r'\b(title|placeholder|aria-label|alt)\s*=\s*"([^"]*)"')
_BUTTON_INPUT = re.compile(r'^<input\b[^>]*\btype="(submit|button|reset)"')
_VALUE = re.compile(r'\bvalue\s*=\s*"([^"]*)"')
_LETTERS = re.compile(r"[A-Za-z]")
# A literal a filter shows in place of a missing value ({{ x|default:"none" }}): text too.
_FILTER_LITERAL = re.compile(r'\|(?:default|default_if_none):"([^"]*)"')


@dataclass(frozen=True)
class Untranslated:
    line: int
    text: str


def _is_text(fragment: str) -> bool:
    fragment = " ".join(fragment.split())
    return bool(_LETTERS.search(fragment)) and fragment not in ALLOWED


def _blank(match: re.Match[str]) -> str:
    """The match replaced by NULs, newlines kept: line numbers stay right, and the text on
    either side stays apart."""
    return re.sub(r"[^\n]", "\0", match.group(0))


def untranslated(source: str) -> list[Untranslated]:
    """Each user-facing text or attribute value in `source` outside a translate tag."""
    visible = _HIDDEN.sub(_blank, source)
    found: list[Untranslated] = []

    def line_of(offset: int) -> int:
        return visible.count("\n", 0, offset) + 1

    for tag in _TAG.finditer(visible):
        values = [m for m in _READ_ATTRIBUTES.finditer(tag.group(0))]
        texts = [(m.group(2), m.start(2)) for m in values]
        if _BUTTON_INPUT.match(tag.group(0)):
            texts += [(m.group(1), m.start(1)) for m in _VALUE.finditer(tag.group(0))]
        for value, start in texts:
            if _is_text(_TEMPLATE.sub(" ", value)):
                found.append(Untranslated(line_of(tag.start() + start), value.strip()))
    for literal in _FILTER_LITERAL.finditer(visible):
        if _is_text(literal.group(1)):
            found.append(Untranslated(line_of(literal.start()), literal.group(1)))
    between = _TAG.sub(_blank, visible)
    for part in re.finditer(r"[^\0]+", _TEMPLATE.sub(_blank, between)):
        text = part.group(0)
        if _is_text(text):
            found.append(Untranslated(line_of(part.start()), " ".join(text.split())))
    return found
