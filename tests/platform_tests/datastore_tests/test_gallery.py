"""The gallery's filters, sorts and keyset pages, through the API."""

from __future__ import annotations

from datastore.models import Sample
from tests.platform_tests.datastore_tests.base import DatastoreTestCase


class GalleryTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset()
        self.import_digits(self.dataset, labels=(0, 1, 2), per_class=5)
        self.client = self.api_client_for(self.vera)
        self.url = f"/api/datasets/{self.dataset.pk}/samples/"

    def walk(self, **params: object) -> list[int]:
        """Every id, following `next` links page by page."""
        ids: list[int] = []
        response = self.client.get(self.url, {"page_size": 4, **params}).json()
        while True:
            ids += [s["id"] for s in response["results"]]
            if not response["next"]:
                return ids
            response = self.client.get(response["next"]).json()

    def test_pages_cover_every_sample_once_in_each_sort(self) -> None:
        samples = Sample.objects.filter(dataset=self.dataset)
        expected = {
            "oldest": list(samples.order_by("id").values_list("id", flat=True)),
            "newest": list(samples.order_by("-id").values_list("id", flat=True)),
            "name": list(samples.order_by("original_name", "id").values_list("id", flat=True)),
            "largest": list(samples.order_by("-size_bytes", "-id").values_list("id", flat=True)),
        }
        for sort, ids in expected.items():
            with self.subTest(sort=sort):
                self.assertEqual(self.walk(sort=sort), ids)

    def test_previous_goes_back_a_page(self) -> None:
        first = self.client.get(self.url, {"page_size": 4, "sort": "name"}).json()
        second = self.client.get(first["next"]).json()
        self.assertTrue(second["previous"])
        back = self.client.get(second["previous"]).json()
        self.assertEqual([s["id"] for s in back["results"]], [s["id"] for s in first["results"]])

    def test_filters_combine(self) -> None:
        one = self.dataset.classes.get(name="1")
        samples = list(self.dataset.samples.order_by("id"))
        Sample.objects.filter(pk__in=[s.pk for s in samples[:3]]).update(
            split="val", has_problems=True, labeled=False
        )
        self.assertEqual(self.client.get(self.url, {"class": one.pk}).json()["count"], 5)
        self.assertEqual(self.client.get(self.url, {"status": "unlabeled"}).json()["count"], 3)
        self.assertEqual(self.client.get(self.url, {"split": "val"}).json()["count"], 3)
        self.assertEqual(self.client.get(self.url, {"split": "none"}).json()["count"], 12)
        both = self.client.get(self.url, {"problems": "1", "status": "labeled"}).json()
        self.assertEqual(both["count"], 0)

    def test_a_page_shows_labels_and_file_links(self) -> None:
        first = self.client.get(self.url, {"page_size": 1}).json()["results"][0]
        zero = self.dataset.classes.get(name="0")
        self.assertEqual(first["class_ids"], [zero.pk])
        self.assertEqual(first["thumbnail_url"], f"/api/samples/{first['id']}/thumbnail/")
        thumb = self.client.get(first["thumbnail_url"])
        self.assertEqual(thumb.status_code, 200)
        self.assertIn("immutable", thumb["Cache-Control"])
        self.assertEqual(b"".join(thumb.streaming_content)[:2], b"\xff\xd8")  # a JPEG

    def test_start_opens_the_page_at_a_sample(self) -> None:
        ids = list(self.dataset.samples.order_by("id").values_list("id", flat=True))
        page = self.client.get(self.url, {"start": ids[6], "page_size": 3}).json()
        self.assertEqual([s["id"] for s in page["results"]], ids[6:9])
        back = self.client.get(page["previous"]).json()
        self.assertEqual([s["id"] for s in back["results"]], ids[3:6])

    def test_bad_parameters_are_explained(self) -> None:
        for params, message in [
            ({"sort": "up"}, "sort must be"),
            ({"class": "x"}, "whole"),
            ({"after": "%%%"}, "cursor"),
            ({"split": "dev"}, "split"),
        ]:
            with self.subTest(params=params):
                response = self.client.get(self.url, params)
                self.assertEqual(response.status_code, 400)
                self.assertIn(message, response.json()["message"])


class GalleryPositionTests(DatastoreTestCase):
    """The gallery page says where a page is: images a–b of N, page k of K, whichever way the
    cursors took it there."""

    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset()
        self.import_digits(self.dataset, labels=(0, 1, 2), per_class=5)  # 15 images

    def test_each_page_knows_its_position_in_every_sort(self) -> None:
        from datastore.gallery import GalleryQuery, gallery_page

        for sort in ("oldest", "newest", "name", "largest"):
            params = {"page_size": "4", "sort": sort}
            page = gallery_page(self.dataset, GalleryQuery.from_params(params))
            seen = []
            while True:
                seen.append((page.first_index, page.last_index, page.page_number, page.page_count))
                if not page.next_cursor:
                    break
                query = GalleryQuery.from_params({**params, "after": page.next_cursor})
                page = gallery_page(self.dataset, query)
            with self.subTest(sort=sort):
                self.assertEqual(seen, [(1, 4, 1, 4), (5, 8, 2, 4), (9, 12, 3, 4), (13, 15, 4, 4)])
            back = gallery_page(
                self.dataset, GalleryQuery.from_params({**params, "before": page.previous_cursor})
            )
            self.assertEqual((back.first_index, back.page_number), (9, 3))

    def test_the_page_shows_it(self) -> None:
        self.client.force_login(self.vera)
        url = f"/datasets/{self.dataset.pk}/"
        first = self.client.get(url, {"page_size": 4})
        self.assertContains(first, "Images 1–4 of 15 · page 1 of 4")
        cursor = first.context["page"].next_cursor
        second = self.client.get(url, {"page_size": 4, "after": cursor})
        self.assertContains(second, "Images 5–8 of 15 · page 2 of 4")
