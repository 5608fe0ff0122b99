"""Issue 24's functional additions on a GPU (marked `gpu`, run by `make gpu-check`): values
and gradients match the CPU run of the same inputs."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F

pytestmark = pytest.mark.gpu

rng = np.random.default_rng(0)
X4 = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
GRID = rng.uniform(-1.2, 1.2, (2, 3, 2, 2)).astype(np.float32)
FEATURES = rng.standard_normal((6, 3)).astype(np.float32)
WEIGHT = rng.standard_normal((5, 3)).astype(np.float32)
LABELS = np.array([[0], [5], [2], [3], [1], [4]])
TARGETS = np.array([[2, 0, -1], [1, 2, -1], [0, 1, 2], [-1, 2, 0], [2, -1, -1], [1, -1, 0]])

CASES = {
    "grid_sample_bilinear_reflection": (
        lambda x, g: F.grid_sample(x, g, padding_mode="reflection", align_corners=False),
        [X4, GRID],
    ),
    "grid_sample_nearest_zeros": (lambda x, g: F.grid_sample(x, g, "nearest"), [X4, GRID]),
    "affine_grid": (lambda t: F.affine_grid(t, [2, 1, 3, 4]), [X4[:, 0, :2, :3]]),
    "temporal_shift": (lambda x: F.temporal_shift(x, 2), [X4]),
    "rms_norm": (lambda x: F.rms_norm(x, [5])[0], [X4]),
    "swiglu": (lambda x: F.swiglu(x[..., :4]), [X4]),
    "hsigmoid_loss": (
        lambda x, w: F.hsigmoid_loss(x, framework.to_tensor(LABELS), 6, w),
        [FEATURES, WEIGHT],
    ),
    "multi_label_margin_loss": (
        lambda x: F.multi_label_margin_loss(x, framework.to_tensor(TARGETS)),
        [FEATURES],
    ),
    "multi_margin_loss": (
        lambda x: F.multi_margin_loss(x, framework.to_tensor(LABELS[:, 0] % 3), p=2),
        [FEATURES],
    ),
    "npair_loss": (
        lambda a, b: F.npair_loss(a, b, framework.to_tensor(np.array([0, 1, 0, 2, 1, 2]))),
        [FEATURES, FEATURES[::-1].copy()],
    ),
    "dice_loss": (
        lambda p: F.dice_loss(F.softmax(p), framework.to_tensor(LABELS[:, :, None] % 3)),
        [FEATURES[:, None, :]],
    ),
}


def run(fn, arrays):
    inputs = [framework.to_tensor(a, stop_gradient=False) for a in arrays]
    out = fn(*inputs)
    out.sum().backward()
    return out.numpy(), [t.grad.numpy() for t in inputs]


@pytest.mark.parametrize("name", list(CASES))
def test_values_and_gradients_match_cpu(name):
    fn, arrays = CASES[name]
    expected, expected_grads = run(fn, arrays)
    framework.set_device("gpu")
    try:
        out, grads = run(fn, arrays)
    finally:
        framework.set_device("cpu")
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    for a, b in zip(grads, expected_grads, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def test_gather_tree_and_gumbel_softmax_run_on_gpu():
    ids = rng.integers(0, 9, (4, 2, 3))
    parents = rng.integers(0, 3, (4, 2, 3))
    expected = F.gather_tree(framework.to_tensor(ids), framework.to_tensor(parents)).numpy()
    framework.set_device("gpu")
    try:
        out = F.gather_tree(framework.to_tensor(ids), framework.to_tensor(parents))
        assert out.place.is_gpu_place()
        np.testing.assert_array_equal(out.numpy(), expected)
        sample = F.gumbel_softmax(framework.to_tensor(FEATURES), hard=True)
        assert sample.place.is_gpu_place()
        np.testing.assert_array_equal(sample.numpy().sum(-1), 1.0)
    finally:
        framework.set_device("cpu")
