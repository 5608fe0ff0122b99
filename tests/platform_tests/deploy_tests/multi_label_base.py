"""A base test case for multi-label deploy tests: a LeNet trained on digit pairs (two real
handwritten digits side by side), its inference package, a deployment serving it, and the
model's own sigmoid scores on the validation images, computed here from the saved weights.

Not a test module.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from django.core.files.storage import default_storage

from deploy.models import Deployment, ModelExport
from deploy.services import recent, serving, traffic
from tests.platform_tests.deploy_tests.base import export_now
from tests.platform_tests.training_tests.base import TrainingTestCase
from tests.platform_tests.training_tests.multi_label_data import (
    multi_label_version,
    train_multi_label,
)
from training.models import TrainingJob
from training.services.version_data import Example, examples


def image_bytes(items: list[Example]) -> list[bytes]:
    """The stored files of these samples, as a client would send them."""
    out = []
    for item in items:
        with default_storage.open(item.file, "rb") as stream:
            out.append(stream.read())
    return out


def label_sets(scores: np.ndarray, thresholds: np.ndarray | float) -> list[list[int]]:
    """Per image, the classes whose score reaches their threshold, best first."""
    sets = []
    for row in scores:
        order = np.argsort(-row, kind="stable")
        passed = row >= np.broadcast_to(thresholds, row.shape)
        sets.append([int(k) for k in order if passed[k]])
    return sets


class MultiLabelDeployTestCase(TrainingTestCase):
    """`self.job`: a succeeded multi-label LeNet job; `self.export`: its package;
    `self.deployment`: serving it; `self.items` and `self.images`: its validation images;
    `self.scores`: the trained model's scores on them, [N, 4]."""

    job: TrainingJob
    export: ModelExport
    deployment: Deployment

    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.pairs = multi_label_version(cls.workspace, cls.alice, count=160)
        cls.job = train_multi_label(cls.workspace, cls.alice, cls.pairs, epochs=8)
        cls.export = export_now(cls.job, "package", cls.alice)
        cls.deployment = Deployment.objects.create(
            workspace=cls.workspace, name="pairs", export=cls.export, created_by=cls.alice
        )
        cls.items = examples(cls.pairs, "val")
        cls.images = image_bytes(cls.items)
        cls.scores = cls.model_scores(cls.images)

    @classmethod
    def model_scores(cls, images: list[bytes]) -> Any:
        """The trained network's sigmoid scores, through the package's preprocessing."""
        import framework
        from deploy.exporting.source import load_trained
        from framework.inference.packaged_model import open_image, preprocess
        from workers.runtime.multi_label import sigmoid

        trained = load_trained(cls.export)
        batch = np.stack([preprocess(open_image(i), trained.preprocessing) for i in images])
        with framework.no_grad():
            return sigmoid(trained.network(framework.to_tensor(batch)).numpy())

    def setUp(self) -> None:
        super().setUp()
        serving.clear_cache()
        traffic.recorder.reset()
        recent.clear()

    @property
    def thresholds(self) -> np.ndarray:
        return np.array(self.job.report.class_thresholds)
