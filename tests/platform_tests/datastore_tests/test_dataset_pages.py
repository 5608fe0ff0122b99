"""Dataset pages: everyone in the workspace reads them, members change things, outsiders 404."""

from __future__ import annotations

from django.urls import reverse

from datastore.models import Dataset, ExportJob
from tests.platform_tests.datastore_tests.base import DatastoreTestCase

PAGES = [
    "datastore:gallery",
    "datastore:upload",
    "datastore:report",
    "datastore:label_set",
    "datastore:versions",
    "labeling:label",
]


class DatasetPageTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset()
        self.import_digits(self.dataset, labels=(0, 1), per_class=3)

    def test_every_page_renders_for_owner_member_and_viewer(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            self.client.force_login(user)
            for name in PAGES:
                with self.subTest(user=user.username, page=name):
                    response = self.client.get(reverse(name, args=[self.dataset.pk]))
                    self.assertEqual(response.status_code, 200)

    def test_every_page_is_404_for_an_outsider(self) -> None:
        self.client.force_login(self.charlie)
        for name in PAGES:
            with self.subTest(page=name):
                response = self.client.get(reverse(name, args=[self.dataset.pk]))
                self.assertEqual(response.status_code, 404)
        url = reverse("datastore:dataset_list", args=[self.workspace.slug])
        self.assertEqual(self.client.get(url).status_code, 404)

    def test_pages_ask_anonymous_visitors_to_log_in(self) -> None:
        response = self.client.get(reverse("datastore:gallery", args=[self.dataset.pk]))
        self.assertEqual(response.status_code, 302)
        self.assertIn(reverse("accounts:login"), response["Location"])

    def test_the_dataset_list_shows_counts_and_creates_datasets(self) -> None:
        self.client.force_login(self.bob)
        url = reverse("datastore:dataset_list", args=[self.workspace.slug])
        self.assertContains(self.client.get(url), "6 images, 6 labeled")
        response = self.client.post(url, {"name": "Boxes", "task_type": "detection"})
        created = Dataset.objects.get(name="Boxes")
        self.assertRedirects(response, reverse("datastore:upload", args=[created.pk]))
        self.assertEqual((created.workspace, created.created_by), (self.workspace, self.bob))

    def test_a_dataset_card_says_how_many_classes_it_cuts_off(self) -> None:
        from datastore.models import LabelClass

        many = self.make_dataset(name="Parts")
        eight = self.make_dataset(name="Eight")
        for i in range(11):
            LabelClass.objects.create(dataset=many, name=f"part-{i}", order=i)
        for i in range(8):
            LabelClass.objects.create(dataset=eight, name=f"kind-{i}", order=i)
        self.client.force_login(self.vera)
        page = self.client.get(reverse("datastore:dataset_list", args=[self.workspace.slug]))
        self.assertContains(page, ">+3 more</span>", count=1)  # only the 11-class card
        self.assertContains(page, "part-7")
        self.assertNotContains(page, "part-8")

    def test_it_refuses_a_duplicate_name(self) -> None:
        self.client.force_login(self.bob)
        url = reverse("datastore:dataset_list", args=[self.workspace.slug])
        response = self.client.post(url, {"name": "Digits", "task_type": "classification"})
        self.assertContains(response, "already has a dataset", status_code=400)

    def test_a_viewer_cannot_create_datasets_or_freeze_versions(self) -> None:
        self.client.force_login(self.vera)
        url = reverse("datastore:dataset_list", args=[self.workspace.slug])
        self.assertEqual(
            self.client.post(url, {"name": "X", "task_type": "detection"}).status_code, 403
        )
        versions = reverse("datastore:versions", args=[self.dataset.pk])
        self.assertEqual(self.client.post(versions, {"action": "freeze"}).status_code, 403)

    def test_the_gallery_filters_and_links_to_the_labeling_page(self) -> None:
        self.client.force_login(self.alice)
        zero = self.dataset.classes.get(name="0")
        response = self.client.get(
            reverse("datastore:gallery", args=[self.dataset.pk]), {"class": zero.pk, "sort": "name"}
        )
        self.assertContains(response, "3 of 6 images")
        self.assertContains(response, "?sample=", count=3)

    def test_the_gallery_explains_a_bad_filter(self) -> None:
        self.client.force_login(self.alice)
        url = reverse("datastore:gallery", args=[self.dataset.pk])
        response = self.client.get(url, {"sort": "sideways"}, follow=True)
        self.assertContains(response, "sort must be one of")

    def test_the_report_lists_problems_and_loads_plotly_locally(self) -> None:
        self.client.force_login(self.alice)
        response = self.client.get(reverse("datastore:report", args=[self.dataset.pk]))
        self.assertContains(response, "Validation report")
        self.assertContains(response, "/vendor/plotly-")
        script = response.content.decode().split('src="/vendor/')[1].split('"')[0]
        js = self.client.get(f"/vendor/{script}")
        self.addCleanup(js.close)  # a streamed file stays open until its response closes
        self.assertEqual(js.status_code, 200)
        self.assertEqual(js["Content-Type"], "text/javascript")

    def test_members_freeze_versions_and_start_exports_from_the_page(self) -> None:
        self.client.force_login(self.bob)
        url = reverse("datastore:versions", args=[self.dataset.pk])
        form = {
            "action": "freeze",
            "method": "stratified",
            "train": 0.5,
            "val": 0.5,
            "test": 0,
            "seed": 3,
        }
        self.assertRedirects(self.client.post(url, form), url)
        self.assertEqual(self.dataset.versions.get().sample_count, 6)
        self.assertRedirects(self.client.post(url, {"action": "export", "format": "csv"}), url)
        self.assertEqual(ExportJob.objects.get().status, ExportJob.Status.QUEUED)
        self.assertContains(self.client.get(url), "v1")

    def test_ratios_that_do_not_add_up_are_refused(self) -> None:
        self.client.force_login(self.bob)
        url = reverse("datastore:versions", args=[self.dataset.pk])
        form = {
            "action": "freeze",
            "method": "stratified",
            "train": 0.5,
            "val": 0.1,
            "test": 0,
            "seed": 0,
        }
        self.assertContains(self.client.post(url, form), "add up to 1")
