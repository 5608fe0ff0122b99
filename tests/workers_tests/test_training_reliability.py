"""Reliability against real processes: a worker killed with SIGKILL mid-training loses no job
(the running one resumes from its checkpoint after a restart, the queued one still runs),
and jobs queued while Redis restarts without persistence all run."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from accounts.models import Membership, User, Workspace
from core import localstack
from tests.platform_tests.training_tests.stack import (
    finished,
    job_state,
    start_worker,
    wait_until,
)
from training.demo.digits import digits_version
from training.models import JobLogLine, TrainingJob
from training.services.jobs import create_job
from training.services.scalars import series_arrays
from workers.runtime.reconciler import reconcile_jobs

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
STALE = timedelta(seconds=3)


@pytest.fixture
def lab(tmp_path, settings):  # noqa: ANN001, ANN201
    settings.MEDIA_ROOT = tmp_path / "var" / "media"  # the workers' storage
    user = User.objects.create_user(username="grace", password="a long enough passphrase")
    workspace = Workspace.objects.create(name="Grace's lab", slug="graces-lab")
    workspace.add_member(user, Membership.Role.OWNER)
    return user, workspace, digits_version(workspace, user, per_class=8)


def new_job(lab, epochs: int) -> TrainingJob:  # noqa: ANN001
    user, workspace, version = lab
    return create_job(
        workspace=workspace,
        user=user,
        version=version,
        architecture="mlp",
        preset="quick",
        overrides={"epochs": epochs, "batch_size": 4},
    )


def reconcile_until(done, timeout: float) -> None:  # noqa: ANN001
    """Runs the reconciler every second (as beat would, faster) until `done()`."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the jobs did not all finish"
        reconcile_jobs(stale_after=STALE, resend_after=STALE)
        time.sleep(1)


def test_a_killed_worker_loses_no_job(redis_server, lab, tmp_path) -> None:
    var = tmp_path / "var"
    worker = start_worker(redis_server.url, var, django_settings.SECRET_KEY, "doomed")
    running, waiting = new_job(lab, epochs=30), new_job(lab, epochs=2)
    try:
        wait_until(lambda: (job_state(running.pk).checkpoint_epoch or 0) >= 2, 180, "a checkpoint")
    finally:
        worker.kill()
    killed_at = job_state(running.pk)
    assert killed_at.status == "running" and killed_at.epoch < 30

    successor = start_worker(redis_server.url, var, django_settings.SECRET_KEY, "successor")
    try:
        reconcile_until(lambda: finished(running.pk) and finished(waiting.pk), 300)
    finally:
        successor.stop()
    for job in (job_state(running.pk), job_state(waiting.pk)):
        assert job.status == "succeeded", f"{job.error}\n{successor.log()[-3000:]}"
    resumed = job_state(running.pk)
    assert resumed.attempt == 2 and resumed.worker == successor.hostname
    log = list(JobLogLine.objects.filter(job=resumed).values_list("message", flat=True))
    assert any(
        "sent no heartbeat" in line and "resumes from the checkpoint" in line for line in log
    )
    assert any(line.startswith("Resumed from the checkpoint written after epoch") for line in log)
    steps = series_arrays(resumed.pk, "train/loss")[0].tolist()
    assert steps == list(range(1, resumed.total_steps + 1))  # nothing lost, nothing twice


def test_jobs_queued_across_a_redis_restart_all_run(redis_server, lab, tmp_path) -> None:
    jobs = [new_job(lab, epochs=1) for _ in range(3)]  # queued: no worker yet
    port = int(redis_server.url.rsplit(":", 1)[1].split("/")[0])
    localstack.stop(redis_server.process)  # no persistence: the three messages are gone
    redis_server.process = localstack.start_redis(port, tmp_path / "redis2", persistent=False)
    worker = start_worker(redis_server.url, tmp_path / "var", django_settings.SECRET_KEY, "after")
    try:
        TrainingJob.objects.filter(pk__in=[j.pk for j in jobs]).update(
            enqueued_at=timezone.now() - timedelta(minutes=5)
        )
        reconcile_until(lambda: all(finished(j.pk) for j in jobs), 300)
    finally:
        worker.stop()
    assert [job_state(j.pk).status for j in jobs] == ["succeeded"] * 3
