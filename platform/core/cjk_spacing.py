"""A half-width space where Chinese text meets Latin letters or digits, the common zh-Hans
style ("正在写入 ONNX (opset 17)", "验证集 mAP@[.5:.95]").

A catalog's msgstr already spaces its own literal text; what it cannot space is where a
parameter meets text, because the parameter may be Chinese ("正在写入推理包") or Latin
("正在写入 ONNX"). `filled` decides at those boundaries only, from the rendered values, and
never changes the inside of a literal or of a parameter (a file's name stays as it is)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%%")
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
LATIN = re.compile(r"[A-Za-z0-9]")


def _meet(left: str, right: str) -> bool:
    """Whether a space belongs between text ending `left` and text starting `right`."""
    if not left or not right:
        return False
    a, b = left[-1], right[0]
    return bool((CJK.match(a) and LATIN.match(b)) or (LATIN.match(a) and CJK.match(b)))


def filled(template: str, params: Mapping[str, Any]) -> str:
    """`template % params`, with a space at each boundary where a parameter meets Chinese on
    one side and a Latin letter or digit on the other."""
    plain = template % params  # raises as `%` does on a lost or extra placeholder
    pieces: list[tuple[bool, str]] = []  # (is a parameter, its text)
    last = 0
    for match in PLACEHOLDER.finditer(template):
        pieces.append((False, template[last : match.start()]))
        name = match.group(1)
        pieces.append((name is not None, match.group() % params if name else "%"))
        last = match.end()
    pieces.append((False, template[last:]))
    if any("%" in text for is_param, text in pieces[::2] if not is_param):
        return plain  # a directive this does not parse (%(x).2f): leave it unspaced
    out, previous_is_param = "", False
    for is_param, text in pieces:
        if not text:
            continue
        if (is_param or previous_is_param) and _meet(out, text):
            out += " "
        out += text
        previous_is_param = is_param
    return out
