"""rank, shape, is_tensor, is_empty, is_floating_point, is_integer, is_complex, isreal,
broadcast_shapes: NumPy reference, PaddlePaddle parity, bad input. No gradients: they
describe a tensor rather than compute from it."""

from __future__ import annotations

import numpy as np
import pytest

import framework

CASES = [
    np.ones((2, 3, 4), np.float32),
    np.array(1.0),
    np.zeros((0, 3)),
    np.array([1, 2]),
    np.array([True]),
    np.array([1 + 0j, 1 + 2j], np.complex64),
]


@pytest.mark.parametrize("data", CASES, ids=lambda a: f"{a.dtype}{list(a.shape)}")
def test_inspection_matches_numpy_and_paddle(data):
    paddle = pytest.importorskip("paddle")
    ours, theirs = framework.to_tensor(data), paddle.to_tensor(data)
    assert framework.rank(ours).item() == data.ndim and framework.rank(ours).dtype == np.int32
    assert framework.shape(ours).numpy().tolist() == list(data.shape)
    assert framework.shape(ours).dtype == np.int64
    assert framework.is_empty(ours).item() == (data.size == 0)
    np.testing.assert_array_equal(framework.isreal(ours).numpy(), np.isreal(data))
    # Paddle 3.3.1 has no is_empty kernel for bool or complex; ours answers for every dtype.
    names = ("rank", "shape", "isreal") + (("is_empty",) if data.dtype.kind in "if" else ())
    for name in names:
        a, b = getattr(framework, name)(ours), getattr(paddle, name)(theirs)
        assert a.shape == list(b.shape)
        assert str(a.dtype).split(".")[-1] == str(b.dtype).split(".")[-1]
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    for name in ("is_floating_point", "is_integer", "is_complex"):
        assert getattr(framework, name)(ours) == getattr(paddle, name)(theirs), name
    assert framework.is_tensor(ours) and not framework.is_tensor(data)


@pytest.mark.parametrize("shapes", [([2, 1], [3]), ([2, 1, 1], [3, 1], [4]), ([],), ([0], [1])])
def test_broadcast_shapes_matches_numpy_and_paddle(shapes):
    paddle = pytest.importorskip("paddle")
    want = list(np.broadcast_shapes(*map(tuple, shapes)))
    assert framework.broadcast_shapes(*shapes) == want
    assert list(paddle.broadcast_shapes(*shapes)) == want


def test_bad_input_raises_clear_errors():
    with pytest.raises(ValueError, match="do not broadcast"):
        framework.broadcast_shapes([2], [3])
    for name in (
        "rank",
        "shape",
        "is_empty",
        "is_floating_point",
        "is_integer",
        "is_complex",
        "isreal",
    ):
        with pytest.raises(TypeError, match="expects a Tensor"):
            getattr(framework, name)(np.ones(2))
