"""On a CUDA machine (make gpu-check): a job trains on the GPU its slot names."""

from __future__ import annotations

import pytest

import framework
from tests.platform_tests.training_tests.base import TrainingTestCase
from workers.runtime.devices import detect_devices

pytestmark = pytest.mark.gpu


@pytest.mark.skipif(not framework.is_compiled_with_cuda(), reason="needs a CUDA GPU")
class GpuTrainingTests(TrainingTestCase):
    def test_a_job_trains_on_the_gpu_and_reports_its_memory(self) -> None:
        self.assertEqual(detect_devices()[0].kind, "gpu")
        job = self.run_now(self.make_job(overrides={"device": "gpu"}), device="gpu:0")
        self.assertEqual((job.status, job.device), ("succeeded", "gpu:0"), job.error)
        self.assertGreater(job.val_accuracy, 0.0)
