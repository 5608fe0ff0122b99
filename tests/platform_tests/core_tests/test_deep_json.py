"""Deeply nested JSON is a 400 that says why, never a 500 (the probe's finding: any API body
nested deep enough ended in a RecursionError, and under DEBUG in Django's debug page)."""

from __future__ import annotations

import base64

import pytest

from core.parsers import MAX_DEPTH, JSONTooDeep, parse_json
from core.testing import BaseTestCase
from datastore.models import Dataset

DEEP = "[" * 100_000 + "]" * 100_000


def nested(depth: int) -> str:
    return '{"a":' * (depth - 1) + "[]" + "}" * (depth - 1)


class DeepJsonBodyTests(BaseTestCase):
    def test_a_deep_body_is_refused_with_a_reason(self) -> None:
        client = self.api_client_for(self.alice)
        for body in (DEEP, nested(MAX_DEPTH + 1)):
            response = client.generic("POST", "/api/workspaces/", body, "application/json")
            self.assertEqual(response.status_code, 400)
            self.assertIn(f"nested more than {MAX_DEPTH} levels", response.json()["message"])
        self.assertEqual(self.alice.memberships.count(), 1)  # nothing was created

    def test_it_reaches_every_endpoint_that_reads_json(self) -> None:
        client = self.api_client_for(self.bob)
        dataset = Dataset.objects.create(workspace=self.workspace, name="d", created_by=self.bob)
        requests = [
            ("POST", f"/api/datasets/{dataset.pk}/uploads/"),
            ("PATCH", f"/api/datasets/{dataset.pk}/"),
            ("POST", f"/api/datasets/{dataset.pk}/classes/"),
        ]
        for method, url in requests:
            response = client.generic(method, url, DEEP, "application/json")
            self.assertEqual(response.status_code, 400, url)

    def test_a_body_within_the_limit_is_read_as_before(self) -> None:
        client = self.api_client_for(self.alice)
        response = client.generic(
            "POST",
            "/api/workspaces/",
            '{"name": "Deep enough", "x": ' + nested(10) + "}",
            "application/json",
        )
        self.assertEqual(response.status_code, 201)

    def test_a_deep_gallery_cursor_is_a_400(self) -> None:
        dataset = Dataset.objects.create(workspace=self.workspace, name="d", created_by=self.bob)
        cursor = base64.urlsafe_b64encode(DEEP.encode()).decode().rstrip("=")
        response = self.api_client_for(self.bob).get(
            f"/api/datasets/{dataset.pk}/samples/", {"after": cursor}
        )
        self.assertEqual(response.status_code, 400)
        self.assertIn("cursor is damaged", str(response.json()))


@pytest.mark.parametrize("text", [DEEP, nested(MAX_DEPTH + 1)])
def test_json_text_in_form_fields_has_the_same_limit(text: str) -> None:
    with pytest.raises(JSONTooDeep, match="nested more than"):
        parse_json(text)


def test_json_text_within_the_limit_parses() -> None:
    assert parse_json(nested(MAX_DEPTH)) is not None
    assert parse_json('{"cat": 0.9}') == {"cat": 0.9}
