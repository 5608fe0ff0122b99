"""A detection version fine-tunes the ready CDLA layout detector only when its classes are all
CDLA's, by name (case, spaces, `-` and `_` aside, with the usual synonyms and CDLA's Chinese
names). One whose classes are not is told so everywhere, with the same reason: the
trainable-versions API (`unavailable_architectures`, in the schema), the job-creation API (the
one error shape), the form (the option disabled with the reason, and refused on submit) and
the zoo page of the ready model. Owners, members and viewers read; viewers cannot create;
outsiders get 404."""

from __future__ import annotations

from unittest import mock

from modelzoo.services.ready import get_ready_model
from modelzoo.services.ready_classes import class_indices, class_problem
from tests.platform_tests.training_tests.base import TrainingTestCase
from tests.platform_tests.training_tests.detection_data import shapes_version
from tests.platform_tests.training_tests.layout_data import layout_version
from tests.platform_tests.training_tests.openapi import assert_matches_schema
from training.models import TrainingJob

ARCH = "picodet_layout_cdla"
VERSIONS = "/api/workspaces/{workspace_slug}/training/versions/"


class ClassNameMappingTests(TrainingTestCase):
    def test_names_match_cdlas_ignoring_case_spaces_dashes_and_underscores(self) -> None:
        ready = get_ready_model("layout_cdla")
        names = ["Text", "TITLE", "Figure-Caption", "table caption", "Page_Header", "Footers"]
        self.assertEqual(class_indices(ready, names), ([0, 1, 3, 5, 6, 7], []))

    def test_usual_synonyms_and_cdlas_chinese_names_match(self) -> None:
        ready = get_ready_model("layout_cdla")
        names = ["paragraph", "heading", "image", "formula", "表格", "参考文献"]
        self.assertEqual(class_indices(ready, names), ([0, 1, 2, 9, 4, 8], []))

    def test_unknown_names_and_two_names_of_one_class_are_refused_by_name(self) -> None:
        ready = get_ready_model("layout_cdla")
        self.assertEqual(
            class_indices(ready, ["text", "dog", "paragraph"]), ([0], ["dog", "paragraph"])
        )
        reason = class_problem(ready, ["text", "dog"])
        self.assertIn("“dog”", reason)
        self.assertIn("text, title, figure, figure_caption, table", reason)
        self.assertIsNone(class_problem(ready, ["text", "title"]))


class ReadyLayoutRefusalTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.shapes = shapes_version(cls.workspace, cls.alice, images=12)  # circle, square, ...
        cls.pages = layout_version(cls.workspace, cls.alice, pages=6)

    def versions_url(self, slug: str | None = None) -> str:
        return f"/api/workspaces/{slug or self.workspace.slug}/training/versions/"

    def by_id(self, user) -> dict[int, dict]:  # noqa: ANN001
        response = self.api_client_for(user).get(self.versions_url())
        self.assertEqual(response.status_code, 200)
        body = response.json()
        assert_matches_schema(body, VERSIONS)
        return {v["id"]: v for v in body["results"]}

    def test_the_versions_api_lists_the_architecture_as_unavailable_with_the_reason(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            found = self.by_id(user)
            shapes, pages = found[self.shapes.pk], found[self.pages.pk]
            unavailable = {e["key"]: e["reason"] for e in shapes["unavailable_architectures"]}
            self.assertIn("“circle”", unavailable[ARCH])
            self.assertNotIn(ARCH, shapes["architectures"])
            self.assertIn("picodet_s", shapes["architectures"])
            self.assertIn(ARCH, pages["architectures"])
            self.assertEqual(pages["unavailable_architectures"], [])

    def test_outsiders_get_404_from_the_versions_api(self) -> None:
        self.assertEqual(
            self.api_client_for(self.charlie).get(self.versions_url()).status_code, 404
        )

    def post_job(self, user, version):  # noqa: ANN001, ANN201
        with mock.patch("training.services.jobs.enqueue"):
            return self.api_client_for(user).post(
                f"/api/workspaces/{self.workspace.slug}/jobs/",
                {"dataset_version": version.pk, "architecture": ARCH, "init": "shipped",
                 "preset": "quick"},
                format="json",
            )  # fmt: skip

    def test_the_job_api_refuses_an_unmapped_version_with_the_reason(self) -> None:
        for user in (self.alice, self.bob):
            response = self.post_job(user, self.shapes)
            self.assertEqual(response.status_code, 400, response.content)
            body = response.json()
            self.assertIn("“circle”", " ".join(body["fields"]["architecture"]))
            self.assertIn("message", body)
        self.assertFalse(TrainingJob.objects.filter(architecture=ARCH).exists())

    def test_owners_and_members_create_a_job_on_a_mapped_version(self) -> None:
        for user in (self.alice, self.bob):
            response = self.post_job(user, self.pages)
            self.assertEqual(response.status_code, 201, response.content)
        self.assertEqual(TrainingJob.objects.filter(architecture=ARCH).count(), 2)

    def test_viewers_cannot_create_and_outsiders_get_404(self) -> None:
        self.assertEqual(self.post_job(self.vera, self.pages).status_code, 403)
        self.assertEqual(self.post_job(self.charlie, self.pages).status_code, 404)
        self.assertFalse(TrainingJob.objects.filter(architecture=ARCH).exists())

    def test_it_fine_tunes_only_from_trained_weights(self) -> None:
        with mock.patch("training.services.jobs.enqueue"):
            response = self.api_client_for(self.bob).post(
                f"/api/workspaces/{self.workspace.slug}/jobs/",
                {"dataset_version": self.pages.pk, "architecture": ARCH, "init": "scratch"},
                format="json",
            )
        self.assertEqual(response.status_code, 400, response.content)
        self.assertIn("ready detector", " ".join(response.json()["fields"]["weights"]))

    def test_the_form_shows_the_reason_and_refuses_the_submit(self) -> None:
        self.client.force_login(self.bob)
        url = f"/workspaces/{self.workspace.slug}/jobs/new/"
        data = self.client.get(url).context["form_data"]
        self.assertIn("“circle”", data["architecture_problems"][self.shapes.pk][ARCH])
        self.assertEqual(data["architecture_problems"][self.pages.pk], {})
        response = self.client.post(
            url,
            {"dataset_version": self.shapes.pk, "architecture": ARCH,
             "weights": f"shipped:{ARCH}", "preset": "quick", "optimizer": "adam",
             "schedule": "constant", "device": "auto"},
        )  # fmt: skip
        self.assertEqual(response.status_code, 400)
        self.assertIn("“circle”", str(response.context["form"].errors["architecture"]))
        self.assertFalse(TrainingJob.objects.filter(architecture=ARCH).exists())

    def test_the_form_proposes_it_for_pages_only(self) -> None:
        self.client.force_login(self.bob)
        data = self.client.get(f"/workspaces/{self.workspace.slug}/jobs/new/").context["form_data"]
        pages = data["suggestions"][self.pages.pk]
        self.assertEqual((pages["architecture"], pages["weights"]), (ARCH, f"shipped:{ARCH}"))
        self.assertNotEqual(data["suggestions"][self.shapes.pk]["architecture"], ARCH)

    def test_the_zoo_page_says_what_a_version_needs_to_fine_tune_it(self) -> None:
        self.client.force_login(self.vera)
        response = self.client.get(f"/workspaces/{self.workspace.slug}/models/")
        self.assertContains(response, 'class="small fine-tune-needs"')
        self.assertContains(response, "Fine-tune: needs a detection version whose classes are")
        ready = self.api_client_for(self.vera).get("/api/modelzoo/ready-models/layout_cdla/")
        self.assertEqual(ready.json()["fine_tune"]["architecture"], ARCH)
        self.client.force_login(self.charlie)
        self.assertEqual(
            self.client.get(f"/workspaces/{self.workspace.slug}/models/").status_code, 404
        )

    def test_the_zoo_lists_each_trainable_versions_refused_models_with_the_reason(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            with self.subTest(user=user.username):
                self.client.force_login(user)
                page = self.client.get(
                    f"/workspaces/{self.workspace.slug}/models/", HTTP_ACCEPT_LANGUAGE="en"
                )
                html = page.content.decode()
                shapes = html.split(f'id="readiness-{self.shapes.pk}"')[1].split("</li>\n")[0]
                self.assertIn(f'data-architecture="{ARCH}"', shapes)
                self.assertIn("Not with PicoDet layout (CDLA)", shapes)
                self.assertIn("“circle”", shapes)
                pages = html.split(f'id="readiness-{self.pages.pk}"')[1].split("</li>\n")[0]
                self.assertNotIn("data-architecture=", pages)
        self.client.force_login(self.charlie)
        self.assertEqual(
            self.client.get(f"/workspaces/{self.workspace.slug}/models/").status_code, 404
        )
