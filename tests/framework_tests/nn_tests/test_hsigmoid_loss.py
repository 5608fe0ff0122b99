"""hsigmoid_loss: a per-sample NumPy reference of the default and custom trees, real Paddle
parity in float32 (values, gradients, dtypes, shapes, the [-40, 40] clip), and float64
gradient checks of first and second order."""

from __future__ import annotations

import math

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)
X = rng.standard_normal((6, 3))
LABELS = np.array([[0], [5], [2], [3], [1], [4]])
W = rng.standard_normal((5, 3))  # 6 classes -> 5 inner nodes
B = rng.standard_normal((5, 1))
TABLE = np.array([[0, 1, 3, -1], [0, 2, -1, -1], [0, 1, 4, 2], [1, -1, -1, -1], [3, 4, -1, -1],
                  [2, 0, 1, 3]])  # fmt: skip
CODE = np.array([[1, 0, 1, -1], [0, 1, -1, -1], [1, 1, 0, 0], [1, -1, -1, -1], [0, 0, -1, -1],
                 [1, 1, 1, 0]])  # fmt: skip


def tensor(array, **kwargs):
    return framework.to_tensor(array, **kwargs)


def softplus(v):
    return np.log1p(np.exp(-abs(v))) + max(v, 0.0)


def reference_hsigmoid(x, labels, num_classes, w, b, table=None, code=None):
    """Walk each sample's path from its leaf: inner node `(c >> (j+1)) - 1`, bit `(c >> j) & 1`
    for `c = label + num_classes` (or the given table and code)."""
    longest = table.shape[1] if table is not None else int(num_classes - 1).bit_length()
    out = np.zeros((x.shape[0], 1))
    for i in range(x.shape[0]):
        if table is None:
            c = int(labels[i, 0]) + num_classes
            path = [((c >> (j + 1)) - 1, (c >> j) & 1) for j in range(c.bit_length() - 1)]
        else:
            path = []
            for node, bit in zip(table[i], code[i], strict=True):
                if node < 0:
                    break
                path.append((node, bit))
        for node, bit in path:
            z = w[node] @ x[i] + (0.0 if b is None else b[node, 0])
            out[i, 0] += softplus(z) - bit * z
        out[i, 0] += (longest - len(path)) * math.log(2.0)  # Paddle's constant for short paths
    return out


@pytest.mark.parametrize("num_classes", [2, 3, 6, 9])
@pytest.mark.parametrize("with_bias", [False, True])
def test_default_tree_matches_the_numpy_reference(num_classes, with_bias):
    labels = rng.integers(0, num_classes, (6, 1))
    w = rng.standard_normal((num_classes - 1, 3))
    b = rng.standard_normal((num_classes - 1, 1)) if with_bias else None
    out = F.hsigmoid_loss(
        tensor(X), tensor(labels), num_classes, tensor(w), None if b is None else tensor(b)
    )
    expected = reference_hsigmoid(X, labels, num_classes, w, b)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)


def test_custom_tree_matches_the_numpy_reference():
    out = F.hsigmoid_loss(
        tensor(X), tensor(LABELS), 5, tensor(W), tensor(B), tensor(TABLE), tensor(CODE)
    )
    np.testing.assert_allclose(out.numpy(), reference_hsigmoid(X, LABELS, 5, W, B, TABLE, CODE))


@pytest.mark.parametrize("custom", [False, True])
@pytest.mark.parametrize("scale", [1.0, 30.0])  # 30: classifier outputs beyond Paddle's clip
def test_matches_paddle_values_and_gradients(custom, scale):
    paddle = pytest.importorskip("paddle")
    arrays = [a.astype(np.float32) for a in (X, W * scale, B)]
    paths = (TABLE, CODE) if custom else (None, None)
    ours = [tensor(a, stop_gradient=False) for a in arrays]
    theirs = [paddle.to_tensor(a, stop_gradient=False) for a in arrays]
    out = F.hsigmoid_loss(
        ours[0],
        tensor(LABELS),
        6,
        ours[1],
        ours[2],
        *[None if p is None else tensor(p) for p in paths],
    )
    expected = paddle.nn.functional.hsigmoid_loss(
        theirs[0], paddle.to_tensor(LABELS), 6, theirs[1], theirs[2],
        *[None if p is None else paddle.to_tensor(p) for p in paths],
    )  # fmt: skip
    assert out.numpy().dtype == expected.numpy().dtype == np.float32
    assert out.shape == list(expected.shape) == [6, 1]
    np.testing.assert_allclose(out.numpy(), expected.numpy(), rtol=1e-5, atol=1e-5)
    g = rng.standard_normal((6, 1)).astype(np.float32)
    out.backward(tensor(g))
    expected.backward(paddle.to_tensor(g))
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("custom", [False, True])
def test_gradients_in_float64(custom):
    labels = tensor(LABELS)
    paths = [tensor(TABLE), tensor(CODE)] if custom else [None, None]

    def fn(x, w, b):
        return F.hsigmoid_loss(x, labels, 6, w, b, *paths)

    check_backward(fn, [X, W, B])
    check_double_backward(fn, [X, W, B])


def test_hsigmoid_loss_rejects_bad_arguments():
    with pytest.raises(ValueError, match="num_classes >= 2"):
        F.hsigmoid_loss(tensor(X), tensor(LABELS), 1, tensor(W))
    with pytest.raises(ValueError, match="both"):
        F.hsigmoid_loss(tensor(X), tensor(LABELS), 6, tensor(W), path_table=tensor(TABLE))
    with pytest.raises(ValueError, match="labels must lie"):
        F.hsigmoid_loss(tensor(X), tensor(LABELS + 3), 6, tensor(W))
