"""Jobs start from random weights, from saved weights (imported or trained) or from the
shipped weights in the framework's store; a head for another number of classes starts fresh."""

from __future__ import annotations

import os
import tempfile
from unittest import mock

from framework.vision.models import save_pretrained
from modelzoo.catalog import get_architecture
from tests.platform_tests.training_tests.base import TrainingTestCase, log_of
from workers.runtime.failures import describe, is_out_of_memory


class StartingWeightsTests(TrainingTestCase):
    def test_a_job_continues_from_another_jobs_weights(self) -> None:
        first = self.run_now(self.make_job())
        job = self.run_now(self.make_job(init="saved", weights=first.output_weights))
        self.assertEqual(job.status, "succeeded", job.error)
        self.assertIn(
            f"Loaded 6 of 6 tensors from the saved weights “{first.output_weights.name}”",
            log_of(job),
        )

    def test_shipped_weights_for_other_classes_keep_all_but_the_head(self) -> None:
        store = tempfile.mkdtemp(prefix="sampan-store-")
        with mock.patch.dict(os.environ, {"FRAMEWORK_HOME": store}):
            save_pretrained(get_architecture("mlp").build(1000), "mlp")  # an "ImageNet" head
            job = self.run_now(self.make_job(init="shipped"))
        self.assertEqual(job.status, "succeeded", job.error)
        log = log_of(job)
        self.assertIn("Loaded 4 of 6 tensors from the shipped weights.", log)
        self.assertIn("The classifier head (5.bias, 5.weight) starts fresh for 10 classes.", log)

    def test_tampered_shipped_weights_fail_the_job_with_a_plain_reason(self) -> None:
        store = tempfile.mkdtemp(prefix="sampan-store-")
        with mock.patch.dict(os.environ, {"FRAMEWORK_HOME": store}):
            path = save_pretrained(get_architecture("mlp").build(1000), "mlp")
            with open(path, "r+b") as stored:  # one flipped byte in the tensors
                stored.seek(-1, os.SEEK_END)
                last = stored.read(1)
                stored.seek(-1, os.SEEK_END)
                stored.write(bytes([last[0] ^ 0xFF]))
            job = self.run_now(self.make_job(init="shipped"))
        self.assertEqual((job.status, job.failure_kind), ("failed", "weights"))
        self.assertIn("failed their check", job.error)
        self.assertIn("make weights", job.error_fix)
        self.assertNotIn(store, job.error)


class FailureWordingTests(TrainingTestCase):
    def test_out_of_memory_is_recognised_on_the_cpu_and_on_a_gpu(self) -> None:
        class OutOfMemoryError(Exception):  # as cupy.cuda.memory names it
            pass

        self.assertTrue(is_out_of_memory(MemoryError()))
        self.assertTrue(is_out_of_memory(OutOfMemoryError("out of memory allocating 1 GB")))
        self.assertFalse(is_out_of_memory(ValueError("bad")))

    def test_an_unexpected_error_points_to_the_log(self) -> None:
        outcome = describe(KeyError("conv1.weight"), learning_rate=0.1, dataset_id=None)
        self.assertEqual(outcome.kind, "internal")
        self.assertIn("KeyError", outcome.reason)
        self.assertIn("The job log has the details", outcome.suggestion)
