"""A package's name tells the job's dataset version from the model's: a job named after its
version ("LeNet on Digits v1") exported once is "LeNet on Digits v1 (model v1)", not
"… v1 v1"."""

from __future__ import annotations

from django.utils import translation

from tests.platform_tests.deploy_tests.base import DeployTestCase, export_now
from training.models import TrainingJob


class PackageNameTests(DeployTestCase):
    def test_the_model_version_is_named_apart_from_the_datasets(self) -> None:
        TrainingJob.objects.filter(pk=self.job.pk).update(name="LeNet on Digits v1")
        self.job.refresh_from_db()
        first, second = (export_now(self.job, fmt, self.alice) for fmt in ("package", "onnx"))
        self.assertEqual(first.meta["name"], f"LeNet on Digits v1 (model v{first.version})")
        self.assertEqual(second.meta["name"], f"LeNet on Digits v1 (model v{second.version})")
        self.assertNotEqual(first.version, second.version)
        with translation.override("en"):
            self.assertEqual(
                first.label, f"LeNet on Digits v1 · model v{first.version} · Inference package"
            )
        with translation.override("zh-hans"):
            self.assertEqual(first.label, f"LeNet on Digits v1 · 模型 v{first.version} · 推理包")
