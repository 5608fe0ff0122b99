"""Reliability against real processes, for every claimable kind but imports (a label export, a
model export, a test-split evaluation): a job whose worker died mid-task (running, its
heartbeat stopped) and a job whose broker message was lost (queued long ago, never sent) are
both found by one reconciler pass, as beat runs it, and a real worker finishes them. The job
taken over counts a second attempt, on the new worker. (Training jobs, which resume from a
checkpoint: test_training_reliability.py; imports: datastore_tests/test_job_attempt_cap.py.)"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from accounts.models import Membership, User, Workspace
from core.jobs import ClaimableJob
from datastore.models import ExportJob
from datastore.services.exports import start_export as start_label_export
from deploy.models import ModelExport
from deploy.services.exports import start_export as start_model_export
from tests.platform_tests.deploy_tests.base import train_lenet
from tests.platform_tests.training_tests.stack import start_worker, wait_until
from training.demo.digits import digits_version
from training.models import SplitEvaluation
from training.services.evaluations import start_evaluation
from workers.runtime.reconciler import RESEND_AFTER, reconcile_all

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def died_mid_task(job: ClaimableJob) -> None:
    """As a worker leaves the job when it is killed: claimed, running, heartbeat stopped."""
    assert job.claim(worker="doomed@localhost", device="cpu")
    long_ago = timezone.now() - type(job).STALE_AFTER - timedelta(seconds=5)
    type(job).objects.filter(pk=job.pk).update(heartbeat_at=long_ago)


def message_lost(job: ClaimableJob) -> None:
    """Queued, and its message never reached the broker (Redis restarted without it)."""
    long_ago = timezone.now() - RESEND_AFTER - timedelta(seconds=5)
    type(job).objects.filter(pk=job.pk).update(created_at=long_ago)


def test_a_dead_worker_and_a_lost_message_lose_no_job(redis_server, tmp_path, settings) -> None:
    var = tmp_path / "var"
    settings.MEDIA_ROOT = var / "media"  # the worker's storage
    user = User.objects.create_user(username="hopper", password="a long enough passphrase")
    workspace = Workspace.objects.create(name="Hopper's lab", slug="hoppers-lab")
    workspace.add_member(user, Membership.Role.OWNER)
    version = digits_version(workspace, user, per_class=8)
    trained = train_lenet(workspace, user, version)
    split = "test" if version.stats.get("per_split", {}).get("test") else "val"

    # No message reaches the broker while the rows are made: the reconciler must find them.
    with (
        mock.patch("datastore.services.exports.enqueue"),
        mock.patch("deploy.services.exports.enqueue"),
        mock.patch("training.services.evaluations.enqueue"),
    ):
        dead = [
            start_label_export(version.dataset, ExportJob.Format.CSV, user, version),
            start_model_export(trained, ModelExport.Format.PACKAGE, user),
            start_evaluation(trained, split, user),
        ]
        lost = [
            start_label_export(version.dataset, ExportJob.Format.IMAGENET, user, version),
            start_model_export(trained, ModelExport.Format.ONNX, user),
        ]
    for job in dead:
        died_mid_task(job)
    for job in lost:
        message_lost(job)

    worker = start_worker(redis_server.url, var, django_settings.SECRET_KEY, "successor")
    try:
        sent = reconcile_all()
        assert (sent["label_exports"], sent["model_exports"], sent["evaluations"]) == (2, 2, 1)

        def all_finished() -> bool:
            return all(type(j).objects.get(pk=j.pk).is_finished for j in [*dead, *lost])

        wait_until(all_finished, 300, "the reconciled jobs to finish", every=0.5)
    finally:
        worker.stop()

    for job in [*dead, *lost]:
        done = type(job).objects.get(pk=job.pk)
        assert done.status == ClaimableJob.Status.SUCCEEDED, (
            f"{type(job).__name__} {job.pk}: {done.error}\n{worker.log()[-3000:]}"
        )
        assert done.worker == worker.hostname
        assert done.attempt == (2 if job in dead else 1)
    for export in (ModelExport.objects.get(pk=j.pk) for j in (dead[1], lost[1])):
        assert Path(export.file.path).stat().st_size > 0
    for export in (ExportJob.objects.get(pk=j.pk) for j in (dead[0], lost[0])):
        assert Path(export.file.path).stat().st_size > 0
    evaluation = SplitEvaluation.objects.get(pk=dead[2].pk)
    assert evaluation.sample_count > 0
