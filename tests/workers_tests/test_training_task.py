"""The `training.run_job` task, called here as the worker calls it: it drops missing jobs,
leaves finished ones alone, waits for a free device, and claims before it trains."""

from __future__ import annotations

from unittest import mock

import pytest
from celery.exceptions import Retry
from celery.utils.nodenames import gethostname

from tests.platform_tests.training_tests.base import TrainingTestCase
from training.models import TrainingJob
from workers.runtime import devices
from workers.runtime.devices import Device, acquire_slot, device_for
from workers.runtime.failures import DeviceUnavailable
from workers.tasks.training import run_job

HOST = gethostname()  # what Task.apply gives as the worker's name


class RunJobTaskTests(TrainingTestCase):
    def call(self, job_id: int) -> None:
        run_job.apply(args=[job_id], throw=True)

    def test_a_missing_job_is_dropped_without_retrying(self) -> None:
        self.call(987654)  # no exception: logged and acknowledged

    def test_a_job_that_is_not_queued_is_left_alone(self) -> None:
        job = self.make_job()
        job.request_cancel()
        with mock.patch("workers.tasks.training.run_claimed") as run:
            self.call(job.pk)
        run.assert_not_called()

    def test_it_claims_and_trains_the_job(self) -> None:
        job = self.make_job()
        self.call(job.pk)
        job.refresh_from_db()
        self.assertEqual((job.status, job.worker, job.device), ("succeeded", HOST, "cpu"))

    def test_it_waits_when_every_device_of_the_host_is_busy(self) -> None:
        job = self.make_job()
        held = acquire_slot(HOST)
        self.addCleanup(held.release)
        with self.assertRaises(Retry):
            self.call(job.pk)
        job.refresh_from_db()
        self.assertEqual(job.status, "queued")

    def test_a_gpu_job_on_a_cpu_worker_fails_with_the_reason(self) -> None:
        job = self.make_job()
        TrainingJob.objects.filter(pk=job.pk).update(config={**job.config, "device": "gpu"})
        self.call(job.pk)
        job.refresh_from_db()
        self.assertEqual((job.status, job.failure_kind), ("failed", "device"))
        self.assertIn("asks for a GPU", job.error)


def test_slots_are_one_per_device_and_freed_on_release() -> None:
    gpus = [Device("gpu:0", "gpu", "A", 1), Device("gpu:1", "gpu", "B", 1)]
    first = acquire_slot("slot-test@host", gpus)
    second = acquire_slot("slot-test@host", gpus)
    assert (first.device.id, second.device.id) == ("gpu:0", "gpu:1")
    assert acquire_slot("slot-test@host", gpus) is None
    first.release()
    again = acquire_slot("slot-test@host", gpus)
    assert again.device.id == "gpu:0"
    again.release()
    second.release()


def test_the_device_follows_the_request_and_the_slot() -> None:
    gpu = devices.Slot(Device("gpu:1", "gpu", "A", 1), handle=None)  # type: ignore[arg-type]
    cpu = devices.Slot(Device("cpu", "cpu", "CPU", 1), handle=None)  # type: ignore[arg-type]
    assert device_for("auto", gpu) == "gpu:1"
    assert device_for("cpu", gpu) == "cpu"
    assert device_for("auto", cpu) == "cpu"
    with pytest.raises(DeviceUnavailable):
        device_for("gpu", cpu)


def test_a_cpu_only_machine_reports_one_cpu_device() -> None:
    found = devices.detect_devices()
    assert [d.kind for d in found] == ["cpu"] or all(d.kind == "gpu" for d in found)
