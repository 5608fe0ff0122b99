"""Imported weights of every supported format load into a zoo architecture and give the same
outputs as the network they came from; files that do not fit are refused with a reason. Each
import runs as the worker runs it: converted in a child process under the memory ceiling."""

from __future__ import annotations

import os
import pickle
import warnings
from pathlib import Path

import numpy as np
import pytest
from django.core.exceptions import ValidationError

import framework
from modelzoo.models import Weights, WeightsImport
from modelzoo.services.weights import import_now, load_network
from tests.platform_tests.modelzoo_tests.base import (
    ZooTestCase,
    digits_input,
    torch_bytes,
    torch_lenet,
)


def outputs(network, x: np.ndarray) -> np.ndarray:  # noqa: ANN001
    network.eval()
    with framework.no_grad():
        return network(framework.to_tensor(x)).numpy()


class ImportWeightsTests(ZooTestCase):
    def import_job(self, path: Path, architecture: str = "lenet") -> WeightsImport:
        return import_now(
            workspace=self.workspace,
            user=self.alice,
            architecture=architecture,
            upload=self.upload(path),
        )

    def imported(self, path: Path, architecture: str = "lenet") -> Weights:
        job = self.import_job(path, architecture)
        self.assertEqual(job.status, WeightsImport.Status.SUCCEEDED, job.error)
        self.assertEqual(job.incoming, "")  # the upload is deleted once imported
        return job.weights

    def refused(self, path: Path, architecture: str = "lenet") -> str:
        """The reason the import failed; nothing was stored."""
        job = self.import_job(path, architecture)
        self.assertEqual(job.status, WeightsImport.Status.FAILED)
        self.assertFalse(Weights.objects.exists())
        self.assertNotIn(str(self.media_root), job.error)
        return job.error

    def test_it_imports_safetensors_with_the_same_outputs(self) -> None:
        from safetensors.numpy import save_file

        from framework.vision.models import LeNet

        framework.seed(3)
        source = LeNet()
        path = self.files / "lenet.safetensors"
        save_file({k: v.numpy() for k, v in source.state_dict().items()}, str(path))
        weights = self.imported(path)
        self.assertEqual((weights.source, weights.original_format), ("imported", "safetensors"))
        self.assertIn("finite outputs for 10 classes", weights.report["check"])
        x = digits_input()
        np.testing.assert_allclose(outputs(load_network(weights), x), outputs(source, x))

    def test_it_imports_a_torch_checkpoint_with_the_same_outputs(self) -> None:
        torch = pytest.importorskip("torch")
        source = torch_lenet(num_classes=5)
        path = self.files / "lenet.pth"
        path.write_bytes(torch_bytes(source))
        weights = self.imported(path)
        self.assertEqual((weights.original_format, weights.num_classes), ("torch", 5))
        self.assertEqual(weights.report["transposed"], 3)  # the three Linear weights
        x = digits_input()
        with torch.no_grad():
            expected = source(torch.from_numpy(x)).numpy()
        np.testing.assert_allclose(outputs(load_network(weights), x), expected, atol=1e-5)

    def test_it_imports_paddle_pdparams_with_the_same_outputs(self) -> None:
        paddle = pytest.importorskip("paddle")
        paddle.seed(0)
        source = paddle.vision.models.LeNet(num_classes=10)
        source.eval()
        path = self.files / "lenet.pdparams"
        paddle.save(source.state_dict(), str(path))
        weights = self.imported(path)
        self.assertEqual(weights.original_format, "paddle")
        x = digits_input()
        expected = source(paddle.to_tensor(x)).numpy()
        np.testing.assert_allclose(outputs(load_network(weights), x), expected, atol=1e-5)

    def test_it_imports_an_onnx_export_with_the_same_outputs(self) -> None:
        torch = pytest.importorskip("torch")
        source = torch_lenet()
        path = self.files / "lenet.onnx"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                source, (torch.randn(1, 1, 28, 28),), str(path), dynamo=False, opset_version=17
            )
        weights = self.imported(path)
        self.assertEqual(weights.original_format, "onnx")
        self.assertIn("reproduces the ONNX graph's outputs", weights.report["check"])
        x = digits_input()
        with torch.no_grad():
            expected = source(torch.from_numpy(x)).numpy()
        np.testing.assert_allclose(outputs(load_network(weights), x), expected, atol=1e-5)

    def test_it_refuses_a_pickle_that_would_run_code(self) -> None:
        class Exploit:
            def __reduce__(self):  # noqa: ANN204
                return (os.system, ("echo pwned",))

        path = self.files / "evil.pt"
        path.write_bytes(pickle.dumps({"fc.weight": Exploit()}))
        self.assertIn("never loads", self.refused(path))

    def test_it_rejects_weights_of_another_architecture(self) -> None:
        from safetensors.numpy import save_file

        from framework.vision.models import LeNet

        path = self.files / "lenet.safetensors"
        save_file({k: v.numpy() for k, v in LeNet().state_dict().items()}, str(path))
        self.assertIn("another architecture", self.refused(path, architecture="mlp"))

    def test_it_rejects_unknown_file_types_naming_the_supported_ones(self) -> None:
        path = self.files / "model.h5"
        path.write_bytes(b"\x89HDF")
        with self.assertRaisesMessage(ValidationError, ".safetensors, .pth / .pt"):
            self.import_job(path)
        self.assertFalse(WeightsImport.objects.exists())

    def test_it_rejects_a_damaged_file(self) -> None:
        path = self.files / "broken.safetensors"
        path.write_bytes(b"not really")
        self.assertIn("could not be read", self.refused(path))
