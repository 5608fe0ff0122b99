"""A small CNN and an MLP built from our layers train like their PyTorch twins: same loss and
gradients after copying the weights, and the same losses over a few plain SGD steps."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn

torch = pytest.importorskip("torch")


def cnn_pair():
    ours = nn.Sequential(
        nn.Conv2D(3, 8, 3, padding=1),
        nn.BatchNorm2D(8),
        nn.ReLU(),
        nn.MaxPool2D(2),
        nn.Conv2D(8, 8, 3, padding=1, groups=8),
        nn.Hardswish(),
        nn.AdaptiveAvgPool2D(1),
        nn.Flatten(),
        nn.Linear(8, 5),
    )
    theirs = torch.nn.Sequential(
        torch.nn.Conv2d(3, 8, 3, padding=1),
        torch.nn.BatchNorm2d(8),
        torch.nn.ReLU(),
        torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(8, 8, 3, padding=1, groups=8),
        torch.nn.Hardswish(),
        torch.nn.AdaptiveAvgPool2d(1),
        torch.nn.Flatten(),
        torch.nn.Linear(8, 5),
    )
    return ours, theirs, (4, 3, 8, 8)


def mlp_pair():
    ours = nn.Sequential(nn.Linear(12, 16), nn.GELU(), nn.LayerNorm(16), nn.Linear(16, 5))
    theirs = torch.nn.Sequential(
        torch.nn.Linear(12, 16), torch.nn.GELU(), torch.nn.LayerNorm(16), torch.nn.Linear(16, 5)
    )
    return ours, theirs, (6, 12)


def copy_weights(ours: nn.Layer, theirs) -> list:
    """Copy by position: our trainable parameters line up with torch's (Linear weights
    transposed). Returns `(ours, twin, transposed)` triples."""
    ours_params = [(layer, p) for layer in ours.sublayers() for p in layer.parameters(False)]
    ours_params = [(layer, p) for layer, p in ours_params if not p.stop_gradient]
    pairs = []
    with torch.no_grad():
        for (layer, param), twin in zip(ours_params, theirs.parameters(), strict=True):
            transposed = isinstance(layer, nn.Linear) and param.ndim == 2
            value = param.numpy()
            twin.copy_(torch.tensor(value.T if transposed else value))
            pairs.append((param, twin, transposed))
    return pairs


@pytest.mark.parametrize("build", [cnn_pair, mlp_pair], ids=["cnn", "mlp"])
def test_loss_gradients_and_sgd_steps_match_pytorch(build):
    ours, theirs, shape = build()
    pairs = copy_weights(ours, theirs)
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(np.float32)
    labels = rng.integers(0, 5, shape[0])
    for step in range(3):
        loss = F.cross_entropy(ours(framework.to_tensor(x)), framework.to_tensor(labels))
        expected = torch.nn.functional.cross_entropy(theirs(torch.tensor(x)), torch.tensor(labels))
        assert loss.item() == pytest.approx(expected.item(), rel=1e-4, abs=1e-5), f"step {step}"
        loss.backward()
        expected.backward()
        with torch.no_grad():
            for param, twin, transposed in pairs:
                twin_grad = twin.grad.numpy().T if transposed else twin.grad.numpy()
                np.testing.assert_allclose(param.grad.numpy(), twin_grad, rtol=1e-3, atol=1e-5)
                twin -= 0.1 * twin.grad
                twin.grad = None
        with framework.no_grad():
            for param, _, _ in pairs:
                param.set_value(param.numpy() - 0.1 * param.grad.numpy())
                param.clear_grad()
