"""Every JSON response the test suite gets from `/api/` is checked against the OpenAPI document.

Installed by tests/platform_tests/conftest.py. Django's test client (and so DRF's APIClient)
hands each response to `check`, which finds the operation by method and path, the documented
response by status code, and validates the body with jsonschema. A response the document does
not describe, or describes otherwise, fails the test that received it, naming the operation
and the mismatch.

The schema is generated once per process, by drf-spectacular, as `/api/schema/` serves it.
OpenAPI 3.0's `nullable` becomes JSON Schema's `null` type; `$ref`s resolve inside the document.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

# Responses that are not the API's JSON: files, the schema itself, Swagger UI.
SKIPPED_PREFIXES = ("/api/schema", "/api/docs")


# A method a documented path does not have: REST framework answers in the error shape.
_METHOD_NOT_ALLOWED = {
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
}


class ContractError(AssertionError):
    """A real response that the OpenAPI document does not describe."""


@dataclass(frozen=True)
class Operation:
    method: str
    template: str
    pattern: re.Pattern[str]
    responses: dict[str, Any]


def _to_json_schema(node: Any) -> Any:
    """OpenAPI 3.0 schema objects as JSON Schema (2020-12): `nullable` adds `null`."""
    if isinstance(node, list):
        return [_to_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: _to_json_schema(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable"):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


@cache
def _document() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


@cache
def _operations() -> tuple[Operation, ...]:
    operations = []
    for template, item in _document()["paths"].items():
        # A path parameter is one segment; literal segments win over parameters (sorted below).
        regex = re.sub(r"\\\{[^}]+\\\}", r"[^/]+", re.escape(template))
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                responses = operation.get("responses", {})
                operations.append(
                    Operation(method.upper(), template, re.compile(f"^{regex}$"), responses)
                )
    # The most literal template first: /api/jobs/compare/ before /api/jobs/{id}/.
    operations.sort(key=lambda op: (op.template.count("{"), -len(op.template)))
    return tuple(operations)


@cache
def _components() -> dict[str, Any]:
    return _to_json_schema(_document().get("components", {}))


def find_operation(method: str, path: str) -> Operation | None:
    for operation in _operations():
        if operation.method == method and operation.pattern.match(path):
            return operation
    return None


def check(method: str, path: str, status: int, content_type: str, body: bytes) -> None:
    """Raises ContractError unless the document describes this response."""
    if not path.startswith("/api/") or path.startswith(SKIPPED_PREFIXES):
        return
    # An undocumented alias with a trailing slash (predict/) answers as its documented path.
    operation = find_operation(method, path) or find_operation(method, path.rstrip("/"))
    if operation is None:
        if status == 404:
            return  # no such path: Django's 404, not an operation's answer
        if status == 405 and any(op.pattern.match(path) for op in _operations()):
            operation = Operation(method, path, re.compile(""), {"405": _METHOD_NOT_ALLOWED})
        else:
            raise ContractError(f"{method} {path} answered {status}, but no operation documents it")
    where = f"{method} {operation.template} -> {status}"
    documented = operation.responses.get(str(status)) or operation.responses.get("default")
    if documented is None:
        raise ContractError(
            f"{where} is not documented (documented: {sorted(operation.responses)})"
        )
    media = (documented.get("content") or {}).get("application/json")
    if not content_type.startswith("application/json"):
        if media is not None and status != 204 and body:
            raise ContractError(f"{where} answered {content_type!r}, documented as JSON")
        return
    if media is None:
        if body and status != 204:
            raise ContractError(f"{where} answered JSON, documented without a JSON body")
        return
    import jsonschema

    schema = {**_to_json_schema(media.get("schema", {})), "components": _components()}
    data = json.loads(body) if body else None
    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(schema).iter_errors(data)
    )
    if error is not None:
        at = "/".join(str(part) for part in error.absolute_path) or "(the body)"
        raise ContractError(f"{where}: at {at}: {error.message[:500]}")


def install() -> None:
    """Routes every response of Django's test client through `check`."""
    from django.test.client import Client

    original = Client.request
    if getattr(original, "_checks_contract", False):
        return

    def request(self: Client, **environ: Any) -> Any:
        response = original(self, **environ)
        if getattr(response, "streaming", False):
            return response
        check(
            response.request["REQUEST_METHOD"],
            response.request["PATH_INFO"],
            response.status_code,
            response.get("Content-Type", ""),
            response.content,
        )
        return response

    request._checks_contract = True  # type: ignore[attr-defined]
    Client.request = request  # type: ignore[method-assign]
