"""Reading and replacing an OCR sample's text lines: checked, with revisions, by role."""

from __future__ import annotations

from datastore.models import Dataset, Sample
from tests.platform_tests.datastore_tests.base import DatastoreTestCase

QUAD = [[10, 10], [110, 10], [110, 40], [10, 40]]


class TextLinesApiTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset(Dataset.TaskType.OCR, name="Receipts")
        self.sample = Sample.objects.create(
            dataset=self.dataset,
            file="x.png",
            thumbnail="x.jpg",
            original_name="page.png",
            content_hash="0" * 64,
            perceptual_hash="0" * 32,
            width=200,
            height=100,
            size_bytes=1,
        )
        self.url = f"/api/samples/{self.sample.pk}/text-lines/"
        self.client = self.api_client_for(self.bob)

    def put(self, client: object = None, **body: object) -> object:
        return (client or self.client).put(self.url, body, format="json")

    def test_it_saves_lines_in_order_with_chinese_text(self) -> None:
        lines = [
            {"points": QUAD, "transcription": "发票号码：20261202", "difficult": False},
            {"points": [[5, 50], [60, 50], [80, 90]], "transcription": "###", "difficult": True},
        ]
        response = self.put(revision=0, lines=lines)
        self.assertEqual(response.status_code, 200, response.content)
        self.assertEqual(response.json()["revision"], 1)
        body = self.api_client_for(self.vera).get(self.url).json()
        self.assertEqual(body["lines"], lines)
        self.assertTrue(body["labeled"])
        self.assertEqual((body["width"], body["height"]), (200, 100))

    def test_no_lines_makes_the_sample_unlabeled(self) -> None:
        self.put(revision=0, lines=[{"points": QUAD, "transcription": "a"}])
        response = self.put(revision=1, lines=[])
        self.assertFalse(response.json()["labeled"])
        self.sample.refresh_from_db()
        self.assertFalse(self.sample.labeled)

    def test_a_stale_revision_gets_409_with_the_current_lines(self) -> None:
        self.put(revision=0, lines=[{"points": QUAD, "transcription": "first"}])
        stale = self.put(revision=0, lines=[])
        self.assertEqual(stale.status_code, 409)
        self.assertEqual(stale.json()["code"], "stale_revision")
        self.assertEqual(stale.json()["current"]["lines"][0]["transcription"], "first")

    def test_it_refuses_points_outside_the_image(self) -> None:
        response = self.put(revision=0, lines=[{"points": [[0, 0], [300, 0], [0, 50]]}])
        self.assertEqual(response.status_code, 400)
        response = self.put(
            revision=0, lines=[{"points": [[0, 0], [300, 0], [0, 50]], "transcription": "x"}]
        )
        self.assertEqual(response.status_code, 400)
        self.assertIn("outside the 200x100 image", response.json()["message"])
        self.assertEqual(response.json()["code"], "invalid")

    def test_it_refuses_fewer_than_three_points_and_long_text(self) -> None:
        two = self.put(revision=0, lines=[{"points": [[0, 0], [5, 5]], "transcription": "x"}])
        self.assertEqual(two.status_code, 400)
        self.assertIn("lines", two.json()["fields"].__repr__())
        long = self.put(revision=0, lines=[{"points": QUAD, "transcription": "字" * 501}])
        self.assertEqual(long.status_code, 400)
        bad_point = self.put(
            revision=0, lines=[{"points": [[0], [1, 1], [2, 2]], "transcription": ""}]
        )
        self.assertEqual(bad_point.status_code, 400)

    def test_a_sample_of_another_task_type_is_not_found(self) -> None:
        other = self.make_dataset(Dataset.TaskType.DETECTION, name="Boxes")
        self.sample.dataset = other
        self.sample.save()
        self.assertEqual(self.client.get(self.url).status_code, 404)

    def test_the_owner_may_write(self) -> None:
        response = self.put(self.api_client_for(self.alice), revision=0, lines=[])
        self.assertEqual(response.status_code, 200)

    def test_a_viewer_reads_but_gets_403_on_write(self) -> None:
        vera = self.api_client_for(self.vera)
        self.assertEqual(vera.get(self.url).status_code, 200)
        response = self.put(vera, revision=0, lines=[])
        self.assertEqual(response.status_code, 403)
        self.assertEqual(set(response.json()), {"code", "message", "fields"})

    def test_an_outsider_gets_404_on_read_and_write(self) -> None:
        charlie = self.api_client_for(self.charlie)
        self.assertEqual(charlie.get(self.url).status_code, 404)
        self.assertEqual(self.put(charlie, revision=0, lines=[]).status_code, 404)
