"""Layers, activations and losses on a GPU (marked `gpu`, run by `make gpu-check`): results
match the CPU run of the same weights, and a device mismatch is a clear error."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn

pytestmark = pytest.mark.gpu


def small_cnn() -> nn.Layer:
    return nn.Sequential(
        nn.Conv2D(3, 8, 3, padding=1),
        nn.BatchNorm2D(8),
        nn.ReLU(),
        nn.MaxPool2D(2),
        nn.Conv2D(8, 8, 3, padding=1, groups=8),
        nn.Hardswish(),
        nn.AdaptiveAvgPool2D(1),
        nn.Flatten(),
        nn.Dropout(0.0),
        nn.Linear(8, 10),
    )


def run_step(model: nn.Layer, x: np.ndarray, labels: np.ndarray) -> tuple[float, list]:
    loss = F.cross_entropy(model(framework.to_tensor(x)), framework.to_tensor(labels))
    loss.backward()
    return loss.item(), [p.grad.numpy() for p in model.parameters() if p.grad is not None]


def test_a_small_cnn_gives_the_same_loss_and_gradients_on_gpu():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 3, 8, 8)).astype(np.float32)
    labels = rng.integers(0, 10, 4)
    cpu_model = small_cnn()
    gpu_model = copy.deepcopy(cpu_model).to("gpu")
    assert all(p.place.is_gpu_place() for p in gpu_model.parameters())
    cpu_loss, cpu_grads = run_step(cpu_model, x, labels)
    framework.set_device("gpu")
    try:
        gpu_loss, gpu_grads = run_step(gpu_model, x, labels)
    finally:
        framework.set_device("cpu")
    assert gpu_loss == pytest.approx(cpu_loss, rel=1e-4)
    for a, b in zip(cpu_grads, gpu_grads, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize(
    "function",
    [F.relu, F.gelu, F.silu, F.softmax, F.log_softmax, F.sigmoid, F.mish, F.elu],
    ids=lambda f: f.__name__,
)
def test_activations_match_cpu(function):
    x = np.random.default_rng(1).standard_normal((4, 5)).astype(np.float32)
    expected = function(framework.to_tensor(x)).numpy()
    framework.set_device("gpu")
    try:
        out = function(framework.to_tensor(x))
        assert out.place.is_gpu_place()
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-6)
    finally:
        framework.set_device("cpu")


def test_losses_match_cpu():
    rng = np.random.default_rng(2)
    p = rng.uniform(0.1, 0.9, (4, 3)).astype(np.float32)
    t = rng.uniform(0, 1, (4, 3)).astype(np.float32)
    cases = [
        lambda a, b: F.binary_cross_entropy(a, b),
        lambda a, b: F.binary_cross_entropy_with_logits(a, b),
        lambda a, b: F.mse_loss(a, b),
        lambda a, b: F.smooth_l1_loss(a, b),
        lambda a, b: F.kl_div(a, b),
    ]
    expected = [f(framework.to_tensor(p), framework.to_tensor(t)).item() for f in cases]
    framework.set_device("gpu")
    try:
        for f, want in zip(cases, expected, strict=True):
            assert f(framework.to_tensor(p), framework.to_tensor(t)).item() == pytest.approx(
                want, rel=1e-5
            )
    finally:
        framework.set_device("cpu")


def test_a_device_mismatch_names_both_devices():
    fc = nn.Linear(3, 2).to("gpu")
    with pytest.raises(
        RuntimeError, match=r"weights on Place\(gpu:0\) but got an input on Place\(cpu\)"
    ):
        fc(framework.to_tensor(np.zeros((1, 3), np.float32)))
