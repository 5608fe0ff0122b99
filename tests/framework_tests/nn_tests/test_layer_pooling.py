"""Pooling layers: PyTorch parity of forward and gradients, settings passed through, reprs."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn

rng = np.random.default_rng(0)

CASES = [
    ("max2d", lambda: nn.MaxPool2D(2), lambda t: t.nn.MaxPool2d(2), (2, 3, 6, 6)),
    (
        "max2d_stride_pad_ceil",
        lambda: nn.MaxPool2D(3, stride=2, padding=1, ceil_mode=True),
        lambda t: t.nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True),
        (1, 2, 7, 8),
    ),
    ("avg2d", lambda: nn.AvgPool2D(2, 2), lambda t: t.nn.AvgPool2d(2, 2), (2, 3, 6, 4)),
    (
        "avg2d_pad_inclusive",
        lambda: nn.AvgPool2D(3, stride=1, padding=1, exclusive=False),
        lambda t: t.nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=True),
        (1, 2, 5, 5),
    ),
    (
        "avg2d_pad_exclusive",
        lambda: nn.AvgPool2D(3, stride=2, padding=1),
        lambda t: t.nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False),
        (1, 2, 5, 5),
    ),
    (
        "adaptive_avg2d_1",
        lambda: nn.AdaptiveAvgPool2D(1),
        lambda t: t.nn.AdaptiveAvgPool2d(1),
        (2, 3, 5, 7),
    ),
    (
        "adaptive_avg2d_3x2",
        lambda: nn.AdaptiveAvgPool2D((3, 2)),
        lambda t: t.nn.AdaptiveAvgPool2d((3, 2)),
        (2, 3, 7, 5),
    ),
    (
        "adaptive_max2d",
        lambda: nn.AdaptiveMaxPool2D(2),
        lambda t: t.nn.AdaptiveMaxPool2d(2),
        (2, 3, 6, 5),
    ),
    ("max1d", lambda: nn.MaxPool1D(3, 2), lambda t: t.nn.MaxPool1d(3, 2), (2, 3, 9)),
    ("avg1d", lambda: nn.AvgPool1D(2), lambda t: t.nn.AvgPool1d(2), (2, 3, 8)),
    (
        "adaptive_avg1d",
        lambda: nn.AdaptiveAvgPool1D(3),
        lambda t: t.nn.AdaptiveAvgPool1d(3),
        (2, 3, 8),
    ),
    (
        "adaptive_max1d",
        lambda: nn.AdaptiveMaxPool1D(4),
        lambda t: t.nn.AdaptiveMaxPool1d(4),
        (2, 3, 9),
    ),
]


@pytest.mark.parametrize("name, build, build_torch, shape", CASES, ids=[c[0] for c in CASES])
def test_pooling_layers_match_pytorch(name, build, build_torch, shape):
    torch = pytest.importorskip("torch")
    x = rng.standard_normal(shape).astype(np.float32)
    ours = framework.to_tensor(x, stop_gradient=False)
    out = build()(ours)
    theirs = torch.tensor(x, requires_grad=True)
    expected = build_torch(torch)(theirs)
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-5, atol=1e-6)
    g = rng.standard_normal(out.shape).astype(np.float32)
    out.backward(framework.to_tensor(g))
    expected.backward(torch.tensor(g))
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_max_pool_can_return_the_mask():
    x = framework.to_tensor(rng.standard_normal((1, 1, 4, 4)).astype(np.float32))
    out, mask = nn.MaxPool2D(2, return_mask=True)(x)
    assert out.shape == [1, 1, 2, 2] and mask.shape == [1, 1, 2, 2]
    flat = x.numpy().reshape(-1)
    np.testing.assert_array_equal(flat[mask.numpy().reshape(-1)], out.numpy().reshape(-1))


def test_pooling_layers_have_no_parameters_and_paddle_reprs():
    assert nn.MaxPool2D(2).parameters() == []
    assert repr(nn.MaxPool2D(3, 2, 1)) == "MaxPool2D(kernel_size=3, stride=2, padding=1)"
    assert repr(nn.AvgPool2D(2)) == "AvgPool2D(kernel_size=2, stride=None, padding=0)"
    assert repr(nn.AdaptiveAvgPool2D(1)) == "AdaptiveAvgPool2D(output_size=1)"
    assert (
        repr(nn.AdaptiveMaxPool2D([2, 3]))
        == "AdaptiveMaxPool2D(output_size=[2, 3], return_mask=False)"
    )
