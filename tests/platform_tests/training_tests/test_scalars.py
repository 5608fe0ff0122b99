"""Scalar series: fetched incrementally with ?after=, downsampled on the server keeping every
bucket's extremes, and downloadable at full resolution as CSV."""

from __future__ import annotations

import numpy as np

from tests.platform_tests.training_tests.base import TrainingTestCase
from training.models import ScalarChunk
from training.services.scalars import keep_extremes, read_scalars


class DownsamplingTests(TrainingTestCase):
    def test_short_series_are_kept_whole(self) -> None:
        self.assertEqual(keep_extremes(np.arange(5.0), 10).tolist(), [0, 1, 2, 3, 4])

    def test_long_series_keep_their_spikes_dips_and_ends(self) -> None:
        values = np.sin(np.linspace(0, 20, 100_000))
        values[31_337], values[77_777] = 50.0, -50.0
        keep = keep_extremes(values, 1000)
        self.assertLessEqual(len(keep), 1000)
        self.assertIn(31_337, keep)
        self.assertIn(77_777, keep)
        self.assertEqual((keep[0], keep[-1]), (0, 99_999))
        self.assertTrue(np.all(np.diff(keep) > 0))
        kept = values[keep]
        self.assertEqual((kept.max(), kept.min()), (values.max(), values.min()))


class ScalarEndpointTests(TrainingTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.job = self.make_job()
        for tag, k in (("train/loss", 1.0), ("val/acc", 0.5)):
            for first in range(1, 5001, 100):  # fifty flushes of a hundred points
                points = [(step, 1000.0 + step, step * k) for step in range(first, first + 100)]
                ScalarChunk.pack(self.job.pk, tag, points).save()
        self.url = f"/api/jobs/{self.job.pk}/scalars/"
        self.client.force_login(self.vera)

    def test_it_downsamples_long_series(self) -> None:
        data = self.client.get(self.url, {"max_points": 100}).json()
        loss = data["series"]["train/loss"]
        self.assertEqual(loss["total"], 5000)
        self.assertLessEqual(len(loss["step"]), 100)
        self.assertEqual((loss["step"][0], loss["step"][-1]), (1, 5000))
        self.assertEqual(len(loss["step"]), len(loss["wall"]))
        self.assertEqual(max(loss["value"]), 5000.0)

    def test_it_returns_only_new_points_after_a_given_id(self) -> None:
        self.assertEqual(
            list(self.client.get(self.url, {"tags": "train/loss"}).json()["series"]),
            ["train/loss"],
        )
        first = self.client.get(self.url).json()
        ScalarChunk.pack(self.job.pk, "train/loss", [(5001, 1.0, 2.0)]).save()
        later = self.client.get(self.url, {"after": first["last_id"]}).json()
        self.assertEqual(later["series"]["train/loss"]["step"], [5001])
        self.assertEqual(later["series"]["val/acc"]["step"], [])
        again = self.client.get(self.url, {"after": later["last_id"]}).json()
        self.assertEqual(again["last_id"], later["last_id"])

    def test_chunks_written_while_a_poll_reads_come_in_the_next_poll(self) -> None:
        from unittest import mock

        from training.services import scalars

        first = read_scalars(self.job.pk)
        real = scalars.series_arrays
        written = []

        def worker_writes_between_tags(job_id, tag, after=0, upto=None):
            found = real(job_id, tag, after, upto)
            if not written:  # after the first tag is read, the worker flushes both tags
                for name in ("train/loss", "val/acc"):
                    chunk = ScalarChunk.pack(self.job.pk, name, [(9000, 9000.0, 1.0)])
                    chunk.save()
                    written.append(chunk.pk)
            return found

        with mock.patch.object(scalars, "series_arrays", worker_writes_between_tags):
            during = read_scalars(self.job.pk, after=first["last_id"])
        after = read_scalars(self.job.pk, after=during["last_id"])
        for tag in ("train/loss", "val/acc"):
            self.assertEqual(during["series"][tag]["step"], [])
            self.assertEqual(after["series"][tag]["step"], [9000])
        self.assertEqual(after["last_id"], max(written))

    def test_bad_parameters_get_a_clear_400(self) -> None:
        response = self.client.get(self.url, {"after": "soon"})
        self.assertEqual(response.status_code, 400)
        self.assertEqual(response.json()["fields"], {"after": ["Must be a whole number."]})

    def test_the_csv_has_every_point(self) -> None:
        response = self.client.get(f"{self.url}csv/")
        self.assertEqual(response["Content-Type"], "text/csv")
        lines = b"".join(response.streaming_content).decode().splitlines()
        self.assertEqual(lines[0], "tag,step,wall_time,value")
        self.assertEqual(len(lines), 1 + 10_000)
        self.assertIn("train/loss,1,1001.000,1.0", lines)

    def test_read_scalars_lists_every_series(self) -> None:
        self.assertEqual(set(read_scalars(self.job.pk)["series"]), {"train/loss", "val/acc"})


class TrimTests(TrainingTestCase):
    def test_trimming_keeps_the_steps_up_to_the_checkpoint(self) -> None:
        from training.services.scalars import series_arrays, trim_after

        job = self.make_job()
        for first in (1, 11, 21):
            points = [(s, float(s), float(s)) for s in range(first, first + 10)]
            ScalarChunk.pack(job.pk, "train/loss", points).save()
        trim_after(job.pk, 15)
        self.assertEqual(series_arrays(job.pk, "train/loss")[0].tolist(), list(range(1, 16)))
        self.assertEqual(ScalarChunk.objects.filter(job=job).count(), 2)
