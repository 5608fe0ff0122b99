"""The RoI, deformable-convolution and detection-head ops on CuPy arrays give what they give on
NumPy: outputs and input gradients (run by `make gpu-check` on a GPU machine)."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.vision import ops

pytestmark = pytest.mark.gpu

BOXES = np.array([[1.0, 1.0, 6.0, 7.0], [-2.0, 0.5, 4.3, 12.0], [0.0, 0.0, 11.0, 9.0]])
NUM = np.array([1, 2], np.int32)


def on_both(fn, *arrays, wrt: int = 1):
    """`fn` on CPU and GPU tensors: outputs, and gradients of the first output's weighted sum
    with respect to the first `wrt` inputs."""
    grads = wrt > 0
    results = []
    for place in (framework.CPUPlace(), framework.CUDAPlace(0)):
        tensors = [
            framework.to_tensor(a, place=place, stop_gradient=i >= wrt)
            for i, a in enumerate(arrays)
        ]
        out = fn(*tensors)
        outs = out if isinstance(out, tuple | list) else (out,)
        if grads:
            upstream = np.random.default_rng(1).standard_normal(outs[0].shape)
            weight = framework.to_tensor(upstream.astype(outs[0].numpy().dtype), place=place)
            (outs[0] * weight).sum().backward()
        results.append(
            [o.numpy() for o in outs if o is not None] + [t.grad.numpy() for t in tensors[:wrt]]
        )
    return results


def assert_same(results, tol: float = 1e-5) -> None:
    cpu, gpu = results
    for a, b in zip(cpu, gpu, strict=True):
        assert a.dtype == b.dtype
        np.testing.assert_allclose(b, a, rtol=tol, atol=tol)


@pytest.mark.parametrize("name, channels", [("roi_align", 3), ("roi_pool", 3), ("psroi_pool", 12)])
def test_roi_ops(name, channels) -> None:
    x = np.random.default_rng(0).standard_normal((2, channels, 9, 11)).astype(np.float32)
    op = getattr(ops, name)
    assert_same(on_both(lambda t, b, n: op(t, b, n, (2, 3)), x, BOXES.astype(np.float32), NUM))


def test_deform_conv2d() -> None:
    rng = np.random.default_rng(0)
    arrays = [
        rng.standard_normal((2, 4, 7, 8)),
        rng.standard_normal((2, 2 * 2 * 9, 4, 4)) * 2,
        rng.standard_normal((6, 2, 3, 3)),
        rng.standard_normal(6),
        rng.uniform(0, 1, (2, 2 * 9, 4, 4)),
    ]

    def fn(x, offset, weight, bias, mask):
        return ops.deform_conv2d(x, offset, weight, bias, 2, 1, 1, 2, 2, mask)

    assert_same(on_both(fn, *[a.astype(np.float32) for a in arrays], wrt=5))


def test_detection_heads() -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3 * 9, 5, 5)).astype(np.float32)
    img = np.array([[160, 190], [100, 80]], np.int32)
    anchors = [10, 13, 16, 30, 33, 23]
    assert_same(on_both(lambda t, i: ops.yolo_box(t, i, anchors, 4, 0.3, 32), x, img, wrt=0))
    gt = np.concatenate([rng.uniform(0.1, 0.9, (2, 3, 2)), rng.uniform(0.05, 0.5, (2, 3, 2))], -1)
    labels = rng.integers(0, 4, (2, 3)).astype(np.int32)

    def loss(t, g, lab):
        return ops.yolo_loss(t, g, lab, anchors, [0, 1, 2], 4, 0.5, 32)

    assert_same(on_both(loss, x, gt.astype(np.float32), labels))
    boxes = np.stack([np.concatenate([c, c + 20], 1) for c in rng.uniform(0, 80, (2, 30, 2))])
    scores = rng.uniform(0, 1, (2, 3, 30))
    assert_same(
        on_both(
            lambda b, s: ops.matrix_nms(b, s, 0.2, 0.3, 10, 15, return_index=True),
            boxes.astype(np.float32),
            scores.astype(np.float32),
            wrt=0,
        )
    )
