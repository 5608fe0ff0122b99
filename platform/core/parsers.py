"""JSON from requests, with a depth limit: REST framework's parser, and the one for JSON text
inside form fields and cursors.

Python's parser recurses once per nesting level: a body of ten thousand `[` ended the request
with a RecursionError, a 500 (and, with DEBUG on, Django's debug page). No real request nests
anywhere near MAX_DEPTH levels, and everything that walks a parsed body afterwards (serializers,
our own code) is then safe from deep recursion too.
"""

from __future__ import annotations

import json
from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 64


class JSONTooDeep(ValueError):
    def __init__(self) -> None:
        super().__init__(f"the JSON is nested more than {MAX_DEPTH} levels deep")


def check_depth(value: Any, max_depth: int = MAX_DEPTH) -> Any:
    """``value`` itself, or JSONTooDeep when its lists and objects nest deeper than allowed.

    Iterative, so checking a deep value cannot itself overflow the stack.
    """
    pending = [(value, 1)] if isinstance(value, dict | list) else []
    while pending:
        item, depth = pending.pop()
        if depth > max_depth:
            raise JSONTooDeep()
        children = item.values() if isinstance(item, dict) else item
        pending.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return value


def parse_json(text: str | bytes) -> Any:
    """``json.loads`` with the depth limit; every failure is a ValueError."""
    try:
        return check_depth(json.loads(text))
    except RecursionError:
        raise JSONTooDeep() from None


class JSONParser(parsers.JSONParser):
    """REST framework's JSON parser; a body nested too deeply is a 400 that says so."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return check_depth(super().parse(stream, media_type, parser_context))
        except (RecursionError, JSONTooDeep):
            raise ParseError(f"JSON parse error - {JSONTooDeep()}.") from None
