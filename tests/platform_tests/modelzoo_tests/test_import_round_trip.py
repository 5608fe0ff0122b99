"""Sampan re-imports its own ONNX exports into the zoo, and a file that does not fit says so
in the terms of what was uploaded, with the layers that fitted in the report (the probe: our
own ONNX export failed with "These PyTorch weights do not fit LeNet ... pass strict=False")."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import framework
from framework.static import InputSpec
from framework.vision.models import LeNet
from modelzoo.models import WeightsImport
from modelzoo.services.weights import import_now, load_network
from tests.platform_tests.modelzoo_tests.base import ZooTestCase, digits_input, torch_bytes


def outputs(network: framework.nn.Layer, x: np.ndarray) -> np.ndarray:
    network.eval()
    with framework.no_grad():
        return network(framework.to_tensor(x)).numpy()


class ImportRoundTripTests(ZooTestCase):
    def import_file(self, path: Path, architecture: str = "lenet") -> WeightsImport:
        return import_now(
            workspace=self.workspace,
            user=self.alice,
            architecture=architecture,
            upload=self.upload(path),
        )

    def test_our_own_onnx_export_imports_back_with_the_same_outputs(self) -> None:
        framework.seed(7)
        source = LeNet(num_classes=10)
        source.eval()
        # As the platform's ONNX export writes it (deploy.exporting.formats), opset 17.
        path = framework.onnx.export(
            source,
            str(self.files / "digits"),
            input_spec=[InputSpec([None, 1, 28, 28], "float32", "image")],
            opset_version=17,
        )
        job = self.import_file(Path(path))
        self.assertEqual(job.status, WeightsImport.Status.SUCCEEDED, job.error)
        report = job.weights.report
        self.assertIn("reproduces the ONNX graph's outputs", report["check"])
        self.assertEqual(report["layers"], ["fc.0", "fc.1", "fc.2", "features.0", "features.3"])
        self.assertEqual(report["constants_ignored"], 1)  # the Reshape's shape
        x = digits_input()
        np.testing.assert_allclose(outputs(load_network(job.weights), x), outputs(source, x))

    def test_a_torch_file_for_another_width_says_which_tensors_differ(self) -> None:
        pytest.importorskip("torch")
        from torch import nn

        class WiderLeNet(nn.Module):  # LeNet's layout with a 200-unit first Linear
            def __init__(self) -> None:
                super().__init__()
                self.features = nn.Sequential(
                    nn.Conv2d(1, 6, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2, 2),
                    nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2, 2),
                )  # fmt: skip
                self.fc = nn.Sequential(nn.Linear(400, 200), nn.Linear(200, 84), nn.Linear(84, 10))

        path = self.files / "wider.pth"
        path.write_bytes(torch_bytes(WiderLeNet()))
        job = self.import_file(path)
        self.assertEqual(job.status, WeightsImport.Status.FAILED)
        self.assertIn(
            "This PyTorch checkpoint does not fit LeNet: 7 of its 10 tensors match", job.error
        )
        self.assertIn("fc.0.weight is [200, 400] in the file, LeNet needs [120, 400]", job.error)
        self.assertIn("Choose the architecture with the same layers", job.error)
        self.assertNotIn("strict=False", job.error)

    def test_an_onnx_model_of_another_network_speaks_of_onnx(self) -> None:
        from framework import nn

        other = nn.Sequential(nn.Flatten(), nn.Linear(784, 10))
        path = framework.onnx.export(
            other,
            str(self.files / "linear"),
            input_spec=[InputSpec([None, 1, 28, 28], "float32", "image")],
            opset_version=17,
        )
        job = self.import_file(Path(path))
        self.assertEqual(job.status, WeightsImport.Status.FAILED)
        self.assertTrue("ONNX model" in job.error or "another architecture" in job.error, job.error)
        self.assertNotIn("PyTorch", job.error)
