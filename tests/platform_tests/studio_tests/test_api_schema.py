"""The OpenAPI schema is complete and Swagger UI is served locally."""

from __future__ import annotations

from io import StringIO

import yaml
from django.core.management import call_command
from django.test import SimpleTestCase


class ApiSchemaTests(SimpleTestCase):
    def test_it_serves_the_schema(self) -> None:
        response = self.client.get("/api/schema/")
        self.assertEqual(response.status_code, 200)
        schema = yaml.safe_load(response.content)
        self.assertEqual(schema["info"]["title"], "Sampan API")
        self.assertIn("/api/workspaces/{workspace_slug}/tokens/", schema["paths"])
        self.assertEqual(
            schema["components"]["securitySchemes"]["apiToken"],
            {
                "type": "http",
                "scheme": "bearer",
                "description": schema["components"]["securitySchemes"]["apiToken"]["description"],
            },
        )

    def test_it_generates_without_warnings(self) -> None:
        call_command("spectacular", "--validate", "--fail-on-warn", stdout=StringIO())

    def test_swagger_ui_comes_from_the_sidecar(self) -> None:
        response = self.client.get("/api/docs/")
        self.assertEqual(response.status_code, 200)
        body = response.content.decode()
        self.assertIn("/static/drf_spectacular_sidecar/swagger-ui-dist/", body)
        self.assertNotIn("cdn.", body)
