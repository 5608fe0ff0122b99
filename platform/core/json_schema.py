"""Typed JSON fields for the OpenAPI schema: a model's JSONField otherwise comes out with no
type at all, and tests/api_contract.py could not check what it holds."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

NUMBER_OR_NULL = {"type": "number", "nullable": True}
NUMBERS = {"type": "array", "items": {"type": "number"}}
INDICES = {"type": "array", "items": {"type": "integer"}}
STRINGS = {"type": "array", "items": {"type": "string"}}


def typed_json_field(schema: dict[str, Any], help_text: str = "") -> serializers.JSONField:
    """A read-only JSONField documented as `schema` (a subclass each: the schema is the
    class's).

        ratios = typed_json_field({"type": "object", "properties": {...}}, "Split shares")
    """
    field = extend_schema_field(schema)(type("TypedJSONField", (serializers.JSONField,), {}))
    return field(read_only=True, help_text=help_text)
