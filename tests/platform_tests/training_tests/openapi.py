"""Checking a real response against the OpenAPI schema the server publishes.

    assert_matches_schema(body, "/api/jobs/{id}/report/")          # GET, 200
    assert_matches_schema(body, "/api/deployments/{id}/predict", "post")

The schema is OpenAPI 3.0; `nullable` becomes a JSON-Schema type list and `$ref`s resolve
against its components, so jsonschema validates the body as the documentation describes it.

Not a test module.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import jsonschema


@cache
def published_schema() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def _json_schema(node: Any) -> Any:
    """OpenAPI 3.0 schema objects as JSON Schema (draft 2020-12) objects."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {k: _json_schema(v) for k, v in node.items() if k not in ("nullable", "readOnly")}
    if "$ref" in out:
        out["$ref"] = out["$ref"].replace("#/components/schemas/", "#/$defs/")
    if node.get("nullable"):
        if "type" in out:
            out["type"] = [out["type"], "null"]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def response_schema(path: str, method: str = "get", status: int = 200) -> dict[str, Any]:
    schema = published_schema()
    operation = schema["paths"][path][method]
    content = operation["responses"][str(status)]["content"]["application/json"]
    definitions = _json_schema(schema["components"]["schemas"])
    return {**_json_schema(content["schema"]), "$defs": definitions}


def assert_matches_schema(body: Any, path: str, method: str = "get", status: int = 200) -> None:
    """AssertionError naming what differs when `body` breaks the documented response."""
    validator = jsonschema.Draft202012Validator(response_schema(path, method, status))
    errors = sorted(validator.iter_errors(body), key=lambda e: list(e.path))
    if errors:
        where = "; ".join(f"{'/'.join(map(str, e.path)) or '(root)'}: {e.message}" for e in errors)
        raise AssertionError(f"{method.upper()} {path} answered off its schema: {where[:2000]}")
