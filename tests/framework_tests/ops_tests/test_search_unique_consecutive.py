"""unique_consecutive, argwhere, shard_index and increment: NumPy reference, PaddlePaddle
parity."""

from __future__ import annotations

import numpy as np
import pytest

import framework

RUNS = np.array([1, 1, 2, 2, 3, 1, 1, 2])
ROWS = np.array([[2, 1, 3], [2, 1, 3], [3, 1, 2], [3, 1, 2], [2, 1, 3]])


def _t(a):
    return framework.to_tensor(np.asarray(a))


def test_unique_consecutive_flattened_with_inverse_and_counts():
    values, inverse, counts = framework.unique_consecutive(
        _t(RUNS), return_inverse=True, return_counts=True
    )
    assert values.numpy().tolist() == [1, 2, 3, 1, 2]
    assert inverse.numpy().tolist() == [0, 0, 1, 1, 2, 3, 3, 4]
    assert counts.numpy().tolist() == [2, 2, 1, 2, 1]
    np.testing.assert_array_equal(values.numpy()[inverse.numpy()], RUNS)
    assert framework.unique_consecutive(_t(np.zeros(0, np.int64))).shape == [0]


def test_unique_consecutive_along_an_axis():
    values, counts = framework.unique_consecutive(_t(ROWS), return_counts=True, axis=0)
    assert values.numpy().tolist() == [[2, 1, 3], [3, 1, 2], [2, 1, 3]]
    assert counts.numpy().tolist() == [2, 2, 1]
    columns = framework.unique_consecutive(_t(ROWS.T), axis=1)
    assert columns.shape == [3, 3]
    assert _t(RUNS).unique_consecutive().numpy().tolist() == [1, 2, 3, 1, 2]


@pytest.mark.parametrize(
    "data, kwargs",
    [
        (RUNS, {"return_inverse": True, "return_counts": True}),
        (ROWS, {"axis": 0, "return_inverse": True, "return_counts": True}),
        (ROWS.T.copy(), {"axis": 1, "return_counts": True}),
        (ROWS, {"dtype": "int32", "return_counts": True}),
    ],  # fmt: skip
)
def test_unique_consecutive_matches_paddle(data, kwargs):
    paddle = pytest.importorskip("paddle")
    ours = framework.unique_consecutive(_t(data), **kwargs)
    theirs = paddle.unique_consecutive(paddle.to_tensor(data), **kwargs)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
        assert str(a.dtype) == str(b.dtype).replace("paddle.", "")


def test_argwhere_is_nonzero_and_matches_paddle():
    paddle = pytest.importorskip("paddle")
    data = np.array([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]], np.float32)
    ours = framework.argwhere(_t(data))
    np.testing.assert_array_equal(ours.numpy(), np.argwhere(data))
    np.testing.assert_array_equal(ours.numpy(), paddle.argwhere(paddle.to_tensor(data)).numpy())
    assert ours.dtype == np.int64
    with pytest.raises(ValueError):
        framework.argwhere(_t(1.0))


@pytest.mark.parametrize("shard_id", [0, 1, 2])
def test_shard_index_matches_paddle(shard_id):
    paddle = pytest.importorskip("paddle")
    labels = np.array([[16], [1], [7], [19], [13]], np.int64)
    ours = framework.shard_index(_t(labels), 20, 3, shard_id, ignore_value=-5)
    theirs = paddle.shard_index(paddle.to_tensor(labels), 20, 3, shard_id, ignore_value=-5)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    with pytest.raises(ValueError):
        framework.shard_index(_t(labels), 20, 3, 3)


def test_increment_adds_in_place():
    i = framework.to_tensor([1.0])
    assert framework.increment(i, 2.5) is i
    assert i.numpy().tolist() == [3.5]
    with pytest.raises(ValueError):
        framework.increment(framework.to_tensor([1.0, 2.0]))
