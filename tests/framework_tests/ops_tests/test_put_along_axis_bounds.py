"""put_along_axis rejects an out-of-range index for every reduce, as Paddle does, and its
in-range results (negative indices, a one-row index broadcast over all rows) match Paddle's."""

from __future__ import annotations

import numpy as np
import pytest

import framework

paddle = pytest.importorskip("paddle")

REDUCES = ("assign", "add", "mean", "mul", "amax", "amin")


@pytest.mark.parametrize("reduce", REDUCES)
@pytest.mark.parametrize("broadcast", [True, False])
@pytest.mark.parametrize("index", [[[9]], [[4]], [[-5]], [[1], [7]]])
def test_out_of_range_index_raises_like_paddle(reduce, broadcast, index):
    for m, errors in ((paddle, (IndexError, RuntimeError, ValueError)), (framework, IndexError)):
        with pytest.raises(errors):
            m.put_along_axis(
                m.zeros([2, 4]), m.to_tensor(index), 1.0, axis=1, reduce=reduce, broadcast=broadcast
            )


def test_add_with_index_nine_no_longer_wraps_to_column_one():
    x = framework.zeros([2, 4])
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 1 with size 4"):
        framework.put_along_axis(x, framework.to_tensor([[9]]), 1.0, axis=1, reduce="add")


@pytest.mark.parametrize("reduce", REDUCES)
@pytest.mark.parametrize("broadcast", [True, False])
@pytest.mark.parametrize("index", [[[1]], [[-1]], [[-4]], [[3], [0]], [[1, 2]], [[2, 2]]])
def test_in_range_results_match_paddle(reduce, broadcast, index):
    base = np.arange(8, dtype=np.float32).reshape(2, 4) + 1

    def run(m):
        out = m.put_along_axis(
            m.to_tensor(base), m.to_tensor(index), 2.0, axis=1, reduce=reduce, broadcast=broadcast
        )
        return out.numpy()

    np.testing.assert_allclose(run(framework), run(paddle), rtol=1e-6)


def test_paddle_docstring_example_axis_zero():
    def run(m):
        x = m.to_tensor([[10, 30, 20], [60, 40, 50]])
        index = m.zeros((2, 2)).astype("int32")
        value = m.to_tensor([[1, 2], [3, 4]]).astype(x.dtype)
        return [
            m.put_along_axis(x, m.to_tensor([[0]]), 99, 0).numpy(),
            m.put_along_axis(x, index, value, 0, "add", True, False).numpy(),
            m.put_along_axis(x, index, value, 0, "add", False, False).numpy(),
        ]

    for ours, theirs in zip(run(framework), run(paddle), strict=True):
        np.testing.assert_array_equal(ours, theirs)


def test_scatter_nd_add_out_of_range_raises():
    x = framework.zeros([3, 2])
    with pytest.raises(IndexError):
        framework.scatter_nd_add(x, framework.to_tensor([[5, 0]]), framework.ones([1]))


@pytest.mark.gpu
@pytest.mark.parametrize("reduce", ["add", "mean", "assign"])
def test_out_of_range_index_raises_on_gpu(reduce):
    x = framework.zeros([2, 4]).cuda()
    index = framework.to_tensor([[9]], place=x.place)
    with pytest.raises(IndexError, match="index 9 is out of bounds"):
        framework.put_along_axis(x, index, 1.0, axis=1, reduce=reduce)
    ok = framework.put_along_axis(x, framework.to_tensor([[-1]], place=x.place), 1.0, 1, reduce)
    np.testing.assert_array_equal(ok.numpy()[:, 3], [1.0 if reduce != "mean" else 0.5] * 2)
