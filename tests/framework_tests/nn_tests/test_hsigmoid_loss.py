"""F.hsigmoid_loss and nn.HSigmoidLoss: a NumPy loop over Paddle's default and custom trees
(the log 2 its kernel adds past a short path's end included), gradients of two orders, real
Paddle parity of values and dtypes, a Paddle state dict loading into the layer."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)
PATH_TABLE = np.array([[0, 1, -1], [0, 2, 3], [1, -1, -1]])
PATH_CODE = np.array([[1, 0, 0], [0, 1, 1], [1, 0, 0]])


def _numpy_hsigmoid(x, labels, num_classes, w, b):
    code_length = int(num_classes - 1).bit_length()
    out = np.zeros((len(labels), 1))
    for i, label in enumerate(labels):
        code = label + num_classes
        length = int(code).bit_length() - 1
        for j in range(code_length):
            if j < length:
                node, bit = (code >> (j + 1)) - 1, (code >> j) & 1
                z = np.clip(x[i] @ w[node] + b[node, 0], -40, 40)
                out[i] += np.log1p(np.exp(z)) - bit * z
            else:
                out[i] += np.log(2.0)  # Paddle's kernel: z = 0 past the path's end
    return out


@pytest.mark.parametrize("num_classes", [2, 5, 6, 8])
def test_it_matches_a_numpy_loop_and_has_gradients(num_classes):
    x = rng.standard_normal((6, 3))
    labels = rng.integers(0, num_classes, 6)
    w = rng.standard_normal((num_classes - 1, 3))
    b = rng.standard_normal((num_classes - 1, 1))
    label = framework.to_tensor(labels)
    got = F.hsigmoid_loss(
        framework.to_tensor(x), label, num_classes, framework.to_tensor(w), framework.to_tensor(b)
    )
    np.testing.assert_allclose(
        got.numpy(), _numpy_hsigmoid(x, labels, num_classes, w, b), rtol=1e-10
    )
    check_backward(
        lambda t, weight, bias: F.hsigmoid_loss(t, label, num_classes, weight, bias), [x, w, b]
    )
    check_double_backward(lambda t, weight: F.hsigmoid_loss(t, label, num_classes, weight), [x, w])


@pytest.mark.parametrize("num_classes", [2, 3, 6, 11])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_it_matches_paddle(num_classes, dtype):
    paddle = pytest.importorskip("paddle")
    x = rng.standard_normal((7, 4)).astype(dtype)
    labels = rng.integers(0, num_classes, (7, 1))
    w = rng.standard_normal((num_classes - 1, 4)).astype(dtype)
    b = rng.standard_normal((num_classes - 1, 1)).astype(dtype)
    args = (x, labels, num_classes, w, b)
    ours = F.hsigmoid_loss(
        *(framework.to_tensor(a) if isinstance(a, np.ndarray) else a for a in args)
    )
    theirs = paddle.nn.functional.hsigmoid_loss(
        *(paddle.to_tensor(a) if isinstance(a, np.ndarray) else a for a in args)
    )
    assert ours.shape == list(theirs.shape) and str(ours.dtype).split(".")[-1] == dtype
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)


def test_a_custom_tree_matches_paddle_and_has_gradients():
    paddle = pytest.importorskip("paddle")
    x = rng.standard_normal((3, 4)).astype(np.float32)
    labels = np.array([0, 1, 2])
    w = rng.standard_normal((4, 4)).astype(np.float32)
    b = rng.standard_normal((4, 1)).astype(np.float32)
    args = (x, labels, 4, w, b, PATH_TABLE, PATH_CODE)
    ours = F.hsigmoid_loss(
        *(framework.to_tensor(a) if isinstance(a, np.ndarray) else a for a in args)
    )
    theirs = paddle.nn.functional.hsigmoid_loss(
        *(paddle.to_tensor(a) if isinstance(a, np.ndarray) else a for a in args)
    )
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)
    table, code, label = (framework.to_tensor(a) for a in (PATH_TABLE, PATH_CODE, labels))
    check_backward(
        lambda t, weight: F.hsigmoid_loss(t, label, 4, weight, None, table, code),
        [x.astype(np.float64), w.astype(np.float64)],
    )


def test_the_layer_loads_a_paddle_state_dict_and_matches_it():
    paddle = pytest.importorskip("paddle")
    theirs = paddle.nn.HSigmoidLoss(4, 6)
    ours = nn.HSigmoidLoss(4, 6)
    assert ours.weight.shape == [5, 4] and ours.bias.shape == [5, 1]
    assert ours.set_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()}) == ([], [])
    x = rng.standard_normal((5, 4)).astype(np.float32)
    labels = rng.integers(0, 6, 5)
    got = ours(framework.to_tensor(x), framework.to_tensor(labels))
    want = theirs(paddle.to_tensor(x), paddle.to_tensor(labels))
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)
    assert nn.HSigmoidLoss(4, 4, is_custom=True).weight.shape == [4, 4]


def test_it_rejects_bad_arguments():
    x, w = framework.ones([2, 3]), framework.ones([3, 3])
    with pytest.raises(ValueError, match="num_classes >= 2"):
        F.hsigmoid_loss(x, framework.to_tensor([0, 0]), 1, w)
    with pytest.raises(ValueError, match="labels must lie in"):
        F.hsigmoid_loss(x, framework.to_tensor([0, 4]), 4, w)
    with pytest.raises(ValueError, match="both path_table and path_code"):
        F.hsigmoid_loss(
            x, framework.to_tensor([0, 1]), 4, w, path_table=framework.to_tensor(PATH_TABLE[:2])
        )
    with pytest.raises(ValueError, match="default tree"):
        nn.HSigmoidLoss(3, 1)
