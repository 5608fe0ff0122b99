"""The API keeps its contract: one error shape everywhere, documented on every operation; one
list shape; enums and typed JSON in the schema; the renamed export paths; and the checker that
holds every test's responses to the schema (tests/api_contract.py) really fails on a mismatch."""

from __future__ import annotations

import json
from typing import Any

from django.test import override_settings
from rest_framework.test import APIClient

from core.testing import BaseTestCase
from datastore.models import Dataset, ExportJob
from tests import api_contract

ERROR_KEYS = {"code", "message", "fields"}


def document() -> dict[str, Any]:
    return api_contract._document()


def operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, item in document()["paths"].items()
        for method, operation in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]


class ErrorShapeTests(BaseTestCase):
    def setUp(self) -> None:
        self.dataset = Dataset.objects.create(
            workspace=self.workspace, name="Parts", task_type="classification"
        )

    def test_a_validation_error_names_each_field(self) -> None:
        response = self.api_client_for(self.alice).post(
            f"/api/datasets/{self.dataset.pk}/classes/", {"name": ""}, format="json"
        )
        self.assertEqual(response.status_code, 400)
        body = response.json()
        self.assertEqual(set(body), ERROR_KEYS)
        self.assertEqual(body["code"], "invalid")
        self.assertEqual(list(body["fields"]), ["name"])
        self.assertIn("name:", body["message"])

    def test_nested_field_errors_have_dotted_paths(self) -> None:
        response = self.api_client_for(self.alice).post(
            f"/api/datasets/{self.dataset.pk}/uploads/", {}, format="json"
        )
        upload = response.json()["id"]
        response = self.api_client_for(self.alice).post(
            f"/api/uploads/{upload}/files/",
            {"files": [{"name": "a.png", "size": 10}, {"name": "b.png", "size": -1}]},
            format="json",
        )
        self.assertEqual(response.status_code, 400)
        self.assertEqual(list(response.json()["fields"]), ["files.1.size"])

    def test_not_found_never_names_an_internal_class(self) -> None:
        for path in ("/api/label-exports/999999/", "/api/jobs/999999/", "/api/samples/999999/"):
            body = self.api_client_for(self.alice).get(path).json()
            self.assertEqual((body["code"], body["message"]), ("not_found", "Not found."), path)

    def test_an_outsider_gets_the_same_404_as_for_nothing_there(self) -> None:
        response = self.api_client_for(self.charlie).get(f"/api/datasets/{self.dataset.pk}/")
        self.assertEqual(response.status_code, 404)
        self.assertEqual(
            response.json(), {"code": "not_found", "message": "Not found.", "fields": {}}
        )

    def test_no_credentials_and_a_refused_role_answer_in_the_shape(self) -> None:
        anonymous = APIClient().get(f"/api/datasets/{self.dataset.pk}/")
        self.assertEqual(anonymous.status_code, 401)
        self.assertEqual(set(anonymous.json()), ERROR_KEYS)
        self.assertEqual(anonymous.json()["code"], "not_authenticated")
        viewer = self.api_client_for(self.vera).post(
            f"/api/datasets/{self.dataset.pk}/classes/", {"name": "scratch"}, format="json"
        )
        self.assertEqual(viewer.status_code, 403)
        self.assertEqual(viewer.json()["code"], "permission_denied")

    @override_settings(ADD_MEMBERS_DIRECTLY=True)
    def test_an_error_raised_in_a_view_keeps_its_field(self) -> None:
        response = self.api_client_for(self.alice).post(
            "/api/workspaces/alices-team/members/", {"user": "nobody", "role": "viewer"}
        )
        self.assertEqual(response.status_code, 400)
        self.assertEqual(list(response.json()["fields"]), ["user"])

    def test_throttling_answers_in_the_shape(self) -> None:
        for _ in range(6):
            response = APIClient().post(
                "/api/tokens/",
                {"username": "alice", "password": "wrong", "workspace": "x", "name": "t"},
                format="json",
                REMOTE_ADDR="203.0.113.77",
            )
        self.assertEqual(response.status_code, 429)
        self.assertEqual(set(response.json()), ERROR_KEYS)
        self.assertEqual(response.json()["code"], "throttled")


class SchemaTests(BaseTestCase):
    def test_every_operation_documents_its_errors_in_the_shape(self) -> None:
        schemas = document()["components"]["schemas"]
        wrong, missing = [], []
        for method, path, operation in operations():
            errors = {s: r for s, r in operation["responses"].items() if s[0] in "45"}
            for status, response in errors.items():
                schema = response.get("content", {}).get("application/json", {}).get("schema", {})
                name = schema.get("$ref", "").rsplit("/", 1)[-1]
                if name not in schemas or not ERROR_KEYS <= set(schemas[name]["required"]):
                    wrong.append(f"{method} {path} {status}")
            expected = {"401", "403"} if path != "/api/tokens/" else {"400", "429"}
            if "{" in path:
                expected.add("404")
            if method in ("post", "put", "patch"):
                expected.add("400")
            missing += [f"{method} {path} {s}" for s in sorted(expected - set(errors))]
        self.assertEqual(wrong, [])
        self.assertEqual(missing, [])
        self.assertEqual(set(schemas["Error"]["required"]), ERROR_KEYS)

    def test_only_public_operations_lack_a_401(self) -> None:
        without = sorted(p for m, p, op in operations() if "401" not in op["responses"])
        self.assertEqual(without, ["/api/tokens/"])

    def test_every_list_comes_in_the_one_page_shape(self) -> None:
        bare = []
        for method, path, operation in operations():
            if method != "get":
                continue
            for status, response in operation["responses"].items():
                schema = response.get("content", {}).get("application/json", {}).get("schema", {})
                if status.startswith("2") and schema.get("type") == "array":
                    bare.append(path)
        self.assertEqual(bare, [])
        classes = document()["paths"]["/api/datasets/{dataset_id}/classes/"]["get"]
        ref = classes["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
        page = document()["components"]["schemas"][ref.rsplit("/", 1)[1]]
        self.assertEqual(set(page["properties"]), {"count", "next", "previous", "results"})

    def test_fixed_values_are_enums(self) -> None:
        schemas = document()["components"]["schemas"]
        self.assertEqual(
            schemas["ModelExportFormatEnum"]["enum"],
            ["package", "onnx", "int8_package", "int8_onnx"],
        )
        self.assertEqual(
            schemas["LabelExportFormatEnum"]["enum"], ["coco", "voc", "imagenet", "csv", "ppocr"]
        )
        self.assertIn("cancelled", schemas["JobStatusEnum"]["enum"])
        job = schemas["TrainingJob"]["properties"]
        self.assertEqual(job["status"]["allOf"][0]["$ref"], "#/components/schemas/JobStatusEnum")

    def test_no_json_field_is_untyped(self) -> None:
        # A model's JSONField comes out as {"readOnly": true}: no type at all.
        annotations = {"readOnly", "writeOnly", "description", "title", "nullable", "default"}
        untyped = []
        for name, schema in document()["components"]["schemas"].items():
            for field, value in (schema.get("properties") or {}).items():
                bare_object = value.get("type") == "object" and value.get(
                    "additionalProperties"
                ) in ({}, True, None)
                no_type = not set(value) - annotations
                if no_type or (bare_object and not value.get("properties")):
                    untyped.append(f"{name}.{field}")
        self.assertEqual(untyped, [])


class RenamedExportPathTests(BaseTestCase):
    def setUp(self) -> None:
        dataset = Dataset.objects.create(workspace=self.workspace, name="Parts")
        self.export = ExportJob.objects.create(dataset=dataset, format="csv")

    def test_the_old_label_export_path_answers_the_same_and_says_where_to_go(self) -> None:
        client = self.api_client_for(self.bob)
        new = client.get(f"/api/label-exports/{self.export.pk}/")
        old = client.get(f"/api/exports/{self.export.pk}/")
        self.assertEqual((new.status_code, old.status_code), (200, 200))
        self.assertEqual(old.json(), new.json())
        self.assertNotIn("Deprecation", new.headers)
        self.assertEqual(old.headers["Deprecation"], "true")
        self.assertEqual(
            old.headers["Link"], f'</api/label-exports/{self.export.pk}/>; rel="successor-version"'
        )
        self.assertEqual(client.get("/api/exports/999999/").headers["Deprecation"], "true")

    def test_the_schema_marks_the_old_paths_deprecated(self) -> None:
        paths = document()["paths"]
        for old in (
            "/api/exports/{id}/",
            "/api/datasets/{dataset_id}/exports/",
            "/api/jobs/{job_id}/exports/",
        ):
            self.assertTrue(all(op["deprecated"] for op in paths[old].values()), old)
        self.assertNotIn("deprecated", paths["/api/label-exports/{id}/"]["get"])


class CheckerTests(BaseTestCase):
    """The checker every platform test goes through must refuse what the schema refuses."""

    def test_it_refuses_a_body_off_the_schema(self) -> None:
        body = json.dumps({"code": "not_found", "fields": {}}).encode()
        with self.assertRaisesRegex(api_contract.ContractError, "'message' is a required"):
            api_contract.check("GET", "/api/jobs/1/", 404, "application/json", body)

    def test_it_refuses_an_undocumented_status(self) -> None:
        with self.assertRaisesRegex(api_contract.ContractError, "not documented"):
            api_contract.check("GET", "/api/jobs/1/", 418, "application/json", b"{}")

    def test_it_accepts_a_documented_error(self) -> None:
        body = json.dumps({"code": "not_found", "message": "Not found.", "fields": {}}).encode()
        api_contract.check("GET", "/api/jobs/1/", 404, "application/json", body)
