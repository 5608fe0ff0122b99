"""Tensor methods Paddle 3.3 has beyond the functional ops: `fill_diagonal_`, `repeat` (its
alias of `tile`) and `element_size`."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward


def _paddle_fill_diagonal(array: np.ndarray, value, offset: int, wrap: bool) -> np.ndarray:
    """Paddle's CPU kernel, element by element: walk the flat buffer one step down every dim
    at a time, shifting each hit by `offset` when it stays in its row."""
    out = array.copy().reshape(-1)
    shape = array.shape
    cols = shape[1]
    step = sum(int(np.prod(shape[k + 1 :])) for k in range(len(shape)))
    size = out.size if wrap or len(shape) > 2 else min(out.size, cols * cols)
    for i in range(0, size, step):
        if 0 <= i % cols + offset < cols:
            out[i + offset] = value
    return out.reshape(shape)


# --- fill_diagonal_ ----------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(3, 3), (5, 3), (7, 3), (3, 5), (1, 4), (6, 1), (0, 3)])
@pytest.mark.parametrize("wrap", [False, True])
def test_fill_diagonal_matches_torch_on_matrices(shape, wrap):
    torch = pytest.importorskip("torch")
    data = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    x = framework.to_tensor(data)
    expected = torch.tensor(data).fill_diagonal_(-1.0, wrap=wrap).numpy()
    assert x.fill_diagonal_(-1.0, wrap=wrap) is x
    np.testing.assert_array_equal(x.numpy(), expected)


@pytest.mark.parametrize("shape", [(3, 3), (5, 3), (3, 5), (4, 4, 4), (3, 3, 3, 3)])
@pytest.mark.parametrize("offset", [-2, -1, 0, 1, 2])
@pytest.mark.parametrize("wrap", [False, True])
def test_fill_diagonal_matches_paddles_kernel_with_offsets(shape, offset, wrap):
    data = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    x = framework.to_tensor(data).fill_diagonal_(0.5, offset=offset, wrap=wrap)
    np.testing.assert_array_equal(x.numpy(), _paddle_fill_diagonal(data, 0.5, offset, wrap))


def test_fill_diagonal_is_paddles_documented_example():
    x = framework.ones([4, 3]) * 2
    x.fill_diagonal_(1.0)
    assert x.tolist() == [[1.0, 2.0, 2.0], [2.0, 1.0, 2.0], [2.0, 2.0, 1.0], [2.0, 2.0, 2.0]]


@pytest.mark.parametrize("dtype", ["int32", "int64", "bool", "float16"])
def test_fill_diagonal_keeps_the_dtype(dtype):
    x = framework.zeros([3, 3], dtype=dtype).fill_diagonal_(1)
    assert x.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(x.numpy(), np.eye(3, dtype=dtype))


def test_fill_diagonal_passes_no_gradient_through_the_filled_positions():
    data = np.random.default_rng(0).standard_normal((4, 3))

    def filled(t):
        y = t * 1.0
        return y.fill_diagonal_(5.0, wrap=True)

    check_backward(filled, [data])
    x = framework.to_tensor(data, stop_gradient=False)
    filled(x).sum().backward()
    np.testing.assert_array_equal(
        x.grad.numpy(), _paddle_fill_diagonal(np.ones((4, 3)), 0, 0, True)
    )


def test_fill_diagonal_rejects_bad_shapes_and_gradient_leaves():
    with pytest.raises(ValueError, match="at least 2 dims"):
        framework.zeros([3]).fill_diagonal_(1.0)
    with pytest.raises(ValueError, match="all dims equal"):
        framework.zeros([2, 3, 3]).fill_diagonal_(1.0)
    leaf = framework.zeros([2, 2])
    leaf.stop_gradient = False
    with pytest.raises(RuntimeError, match="inplace"):
        leaf.fill_diagonal_(1.0)


# --- repeat ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "reps"),
    [((2,), [2]), ((2, 3), [2, 3]), (([2, 3],), [2, 3]), (((1, 2, 3),), [1, 2, 3])],
)
def test_repeat_is_tile_with_the_counts_spread_or_listed(args, reps):
    data = np.arange(6).reshape(2, 3)
    x = framework.to_tensor(data)
    np.testing.assert_array_equal(x.repeat(*args).numpy(), np.tile(data, reps))
    np.testing.assert_array_equal(x.repeat(repeats=reps).numpy(), np.tile(data, reps))


def test_repeat_matches_paddles_documented_examples():
    x = framework.to_tensor([1, 2, 3])
    assert x.repeat(2).tolist() == [1, 2, 3, 1, 2, 3]
    x = framework.to_tensor([[1, 2], [3, 4]])
    assert x.repeat(2).tolist() == [[1, 2, 1, 2], [3, 4, 3, 4]]
    assert x.repeat([2, 3]).shape == [4, 6]
    assert framework.to_tensor([[[1, 2], [3, 4]]]).repeat([2, 1, 3]).shape == [2, 2, 6]


def test_repeat_takes_a_tensor_of_counts_and_is_differentiable():
    data = np.random.default_rng(0).standard_normal((2, 3))
    counts = framework.to_tensor([2, 1])
    assert framework.to_tensor(data).repeat(counts).shape == [4, 3]
    check_backward(lambda t: t.repeat(2, 2), [data])


def test_repeat_needs_counts_given_one_way():
    x = framework.ones([2])
    with pytest.raises(TypeError, match="number of repeats"):
        x.repeat()
    with pytest.raises(TypeError, match="not both"):
        x.repeat(2, repeats=[2])


# --- element_size ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dtype", "size"),
    [("bool", 1), ("int8", 1), ("uint8", 1), ("int16", 2), ("float16", 2), ("int32", 4)]
    + [("float32", 4), ("int64", 8), ("float64", 8)],
)
def test_element_size_is_the_bytes_per_element(dtype, size):
    assert framework.zeros([3, 2], dtype=dtype).element_size() == size


def test_the_methods_are_paddle_tensor_manipulation_functions_too():
    assert framework.tensor.manipulation.fill_diagonal_ is framework.Tensor.fill_diagonal_
    assert framework.tensor.manipulation.repeat is framework.Tensor.repeat
