"""A base test case for deploy tests: the training tests' set-up (roles, a private MEDIA_ROOT,
a small digits version) plus a LeNet trained on it once per class, and helpers that export and
deploy it here, in the test's process, as the worker would.

Not a test module.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
from PIL import Image

from deploy.exporting.pipeline import run_export
from deploy.models import Deployment, ModelExport
from deploy.services import recent, serving, traffic
from deploy.services.exports import start_export
from tests.platform_tests.training_tests.base import TrainingTestCase, make_job, run_now
from training.demo.digits import digit_images
from training.models import TrainingJob


def train_lenet(workspace: Any, user: Any, version: Any) -> TrainingJob:
    job, _ = make_job(
        workspace=workspace,
        user=user,
        version=version,
        architecture="lenet",
        overrides={"epochs": 2, "batch_size": 16},
    )
    job = run_now(job)
    assert job.status == TrainingJob.Status.SUCCEEDED, job.error
    return job


def export_now(
    job: TrainingJob,
    fmt: str = "package",
    user: Any = None,
    threshold: float | None = None,
    class_thresholds: dict[str, float] | None = None,
) -> ModelExport:
    """Starts an export and runs it here, as the worker's task does."""
    with mock.patch("deploy.services.exports.enqueue"):
        export = start_export(job, fmt, user, threshold, class_thresholds)
    assert export.claim(worker="test-worker@localhost", device="cpu")
    run_export(export, "cpu")
    export.refresh_from_db()
    assert export.status == ModelExport.Status.SUCCEEDED, export.error
    return export


def png_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def digit_pngs(count: int) -> list[bytes]:
    """Real digits (the demo set's later ones, not all in the small training version)."""
    pairs = digit_images()
    picks = np.linspace(len(pairs) // 2, len(pairs) - 1, count).round().astype(int)
    return [png_bytes(pairs[i][1]) for i in picks]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


class DeployTestCase(TrainingTestCase):
    """`self.job`: a succeeded LeNet job of alice's workspace; `self.export`: its package;
    `self.deployment`: serving it."""

    job: TrainingJob
    export: ModelExport
    deployment: Deployment

    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.job = train_lenet(cls.workspace, cls.alice, cls.version)
        cls.export = export_now(cls.job, "package", cls.alice)
        cls.deployment = Deployment.objects.create(
            workspace=cls.workspace, name="digits", export=cls.export, created_by=cls.alice
        )

    def setUp(self) -> None:
        super().setUp()
        serving.clear_cache()
        traffic.recorder.reset()
        recent.clear()


@dataclass
class World:
    """Rows for tests that run a real server (transactional tests and browser tests)."""

    user: Any
    workspace: Any
    token: str
    job: TrainingJob
    export: ModelExport
    deployment: Deployment


def build_world(media_root: Path, *, per_class: int = 6) -> World:
    """An owner with an API token, a digits version, a trained LeNet, its package export and a
    deployment serving it. Call with MEDIA_ROOT already pointing at `media_root`."""
    from accounts.models import ApiToken, Membership, User, Workspace
    from training.demo.digits import digits_version

    media_root.mkdir(parents=True, exist_ok=True)
    user = User.objects.create_user(username="dana", password="a long enough passphrase")
    workspace = Workspace.objects.create(name="Dana's lab", slug="danas-lab")
    workspace.add_member(user, Membership.Role.OWNER)
    _, token = ApiToken.issue(workspace=workspace, user=user, name="tests")
    version = digits_version(workspace, user, per_class=per_class)
    job = train_lenet(workspace, user, version)
    export = export_now(job, "package", user)
    deployment = Deployment.objects.create(
        workspace=workspace, name="digits", export=export, created_by=user
    )
    return World(user, workspace, token, job, export, deployment)


def assert_same_answers(got: list[dict], expected: list[dict], atol: float = 2e-5) -> None:
    """Equal labels, acceptance, classes and boxes; scores equal to float32 rounding (a batch
    of 1 and a batch of 10 sum in different orders)."""
    assert len(got) == len(expected)
    for a, b in zip(got, expected, strict=True):
        assert (a["label"], a["index"], a["accepted"]) == (b["label"], b["index"], b["accepted"])
        assert [c["index"] for c in a["classes"]] == [c["index"] for c in b["classes"]]
        scores_a = [a["score"], *(c["score"] for c in a["classes"])]
        scores_b = [b["score"], *(c["score"] for c in b["classes"])]
        np.testing.assert_allclose(scores_a, scores_b, atol=atol)
        assert len(a["boxes"]) == len(b["boxes"])
