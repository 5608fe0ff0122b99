"""INT8 ResNet-18 (3x32x32, 10 classes): top-1 agreement with float >= 98% on 500 held-out
images, in the framework and in onnxruntime, every convolution on INT8 kernels."""

from __future__ import annotations

import os

import numpy as np
import pytest

import framework
from framework.jit import InputSpec, save
from framework.quantization import PTQ, QuantConfig, export_onnx
from tests.framework_tests.quantization_tests import onnxruntime_check
from tests.framework_tests.quantization_tests.conftest import RESNET_STEPS

HELD_OUT = 500
pytestmark = pytest.mark.slow  # trains a ResNet-18 for 24 steps: about a minute on 2 cores


@pytest.fixture(scope="module")
def resnet_int8(trained_resnet18, digits_rgb32, tmp_path_factory):
    train, test = digits_rgb32
    # training used the first RESNET_STEPS * 32 images and the batch norms the last 256
    unused = train.images[RESNET_STEPS * 32 : -256]
    held_out = np.concatenate([test.images, unused[: HELD_OUT - len(test.images)]])
    calibration = unused[-64:]
    folder = tmp_path_factory.mktemp("resnet18")
    save(trained_resnet18, str(folder / "fp32"), input_spec=[InputSpec([None, 3, 32, 32])])
    ptq = PTQ(QuantConfig())
    observed = ptq.quantize(trained_resnet18)
    ptq.calibrate(observed, [calibration[i : i + 64] for i in range(0, len(calibration), 64)])
    int8 = ptq.convert(observed)
    int8.save(str(folder / "int8"))
    with framework.no_grad():
        reference = np.concatenate(
            [
                trained_resnet18(framework.to_tensor(held_out[i : i + 100])).numpy()
                for i in range(0, HELD_OUT, 100)
            ]
        )
    return folder, int8, held_out, reference


def test_int8_resnet18_agrees_with_float_on_98_percent(resnet_int8) -> None:
    _, int8, held_out, reference = resnet_int8
    counts = int8.program.op_counts()
    assert counts["quantized_conv2d"] == 20 and counts["quantized_linear"] == 1, counts
    assert not int8.report.float_layers
    logits = np.concatenate([int8(held_out[i : i + 100]).numpy() for i in range(0, HELD_OUT, 100)])
    agreement = float((logits.argmax(1) == reference.argmax(1)).mean())
    error = np.linalg.norm(logits - reference) / np.linalg.norm(reference)
    print(f"ResNet-18 int8 top-1 agreement {agreement:.3f}, relative logit error {error:.3f}")
    assert agreement >= 0.98


def test_int8_resnet18_weights_are_four_times_smaller(resnet_int8) -> None:
    folder, _, _, _ = resnet_int8
    ratio = os.path.getsize(folder / "fp32.safetensors") / os.path.getsize(
        folder / "int8.safetensors"
    )
    print(f"ResNet-18 weights: {ratio:.3f}x smaller")
    assert 3.9 <= ratio <= 4.0


def test_int8_resnet18_runs_on_onnxruntime_int8_kernels(resnet_int8) -> None:
    folder, int8, held_out, reference = resnet_int8
    path = export_onnx(int8, str(folder / "resnet18_int8"))
    runner, kernels = onnxruntime_check.session(path, str(folder))
    assert kernels["QLinearConv"] == 20, kernels
    assert kernels["QGemm"] + kernels["QLinearMatMul"] + kernels["MatMulInteger"] == 1, kernels
    assert not onnxruntime_check.FLOAT_KERNELS & set(kernels), kernels
    logits = onnxruntime_check.run(runner, held_out)
    agreement = float((logits.argmax(1) == reference.argmax(1)).mean())
    print(f"ResNet-18 onnxruntime int8 top-1 agreement {agreement:.3f}")
    assert agreement >= 0.98
