"""`Tensor.__getitem__` against NumPy, table-driven, with gradients of every order."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

SHAPE = (3, 4, 5)

# (id, key builder) pairs: the builder gets the module used for arrays (numpy or framework) so
# the same key is given to NumPy and, with Tensors, to the framework.
CASES = [
    ("int", lambda m: 1),
    ("negative_int", lambda m: -1),
    ("slice", lambda m: slice(1, 3)),
    ("negative_step", lambda m: (slice(None), slice(None, None, -2))),
    ("reverse_all", lambda m: (slice(None, None, -1), slice(3, 0, -1), slice(-1, None, -3))),
    ("ellipsis", lambda m: (Ellipsis, 2)),
    ("none", lambda m: (None, 1, None, slice(0, 2))),
    ("ellipsis_none", lambda m: (0, Ellipsis, None)),
    ("empty_slice", lambda m: slice(2, 2)),
    ("int_list", lambda m: [0, 2, 2]),
    ("int_list_on_axis_1", lambda m: (slice(None), [3, 0, 3, 1])),
    ("int_array_2d", lambda m: m.asarray(np.array([[0, 1], [2, 0]]))),
    ("negative_ints", lambda m: m.asarray(np.array([-1, -3, -1]))),
    ("two_arrays", lambda m: (m.asarray(np.array([0, 2, 0])), slice(None), [1, 1, 4])),
    ("separated_arrays", lambda m: ([0, 2], slice(1, 3), [4, 0])),
    ("array_and_int", lambda m: (1, [0, 0, 3])),
    ("bool_mask_full", lambda m: m.asarray(np.arange(60).reshape(SHAPE) % 3 == 0)),
    ("bool_mask_lead", lambda m: m.asarray(np.array([True, False, True]))),
    ("bool_mask_mid", lambda m: (slice(None), m.asarray(np.array([True, False, True, True])))),
    ("bool_all_false", lambda m: m.asarray(np.zeros(3, dtype=bool))),
    ("bool_and_slice", lambda m: (m.asarray(np.array([False, True, True])), slice(None, None, 2))),
    ("empty_index_list", lambda m: m.asarray(np.zeros(0, dtype=np.int64))),
]


def _framework_key(builder):
    return builder(_TensorMaker())


class _TensorMaker:
    @staticmethod
    def asarray(array: np.ndarray) -> framework.Tensor:
        return framework.to_tensor(array)


def _numpy_key(builder):
    return builder(np)


@pytest.mark.parametrize("builder", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_getitem_matches_numpy(builder):
    data = np.arange(60, dtype=np.float32).reshape(SHAPE)
    got = framework.to_tensor(data)[_framework_key(builder)]
    expected = data[_numpy_key(builder)]
    assert got.shape == list(expected.shape)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize("builder", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_getitem_gradient_adds_up_repeated_indices(builder):
    data = np.random.default_rng(0).standard_normal(SHAPE)
    x = framework.to_tensor(data, stop_gradient=False)
    y = x[_framework_key(builder)]
    g = np.random.default_rng(1).standard_normal(y.shape)
    y.backward(framework.to_tensor(g))
    expected = np.zeros(SHAPE)
    np.add.at(expected, _numpy_key(builder), g)
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-12)


@pytest.mark.parametrize(
    "key",
    [(slice(None), [1, 1, 0]), ([0, 0], slice(None, None, -1)), (1, slice(0, 2))],
    ids=["repeated_columns", "repeated_rows_reversed", "int_and_slice"],
)
def test_getitem_numerical_gradients_first_and_second_order(key):
    x = np.random.default_rng(0).standard_normal((2, 3))
    check_backward(lambda t: t[key], [x])
    check_double_backward(lambda t: t[key] * t[key], [x])


def test_getitem_accepts_tensor_scalars_and_tensor_slice_bounds():
    x = framework.to_tensor(np.arange(10.0))
    i = framework.to_tensor(3)
    assert x[i].item() == 3.0
    assert x[i].shape == []
    np.testing.assert_array_equal(x[i : i + 2].numpy(), [3.0, 4.0])


def test_getitem_with_a_numpy_bool_mask_and_int_dtype():
    data = np.arange(6, dtype=np.int32).reshape(2, 3)
    got = framework.to_tensor(data)[data > 2]
    np.testing.assert_array_equal(got.numpy(), [3, 4, 5])
    assert got.dtype == np.int32


def test_getitem_rejects_float_index_tensors():
    x = framework.to_tensor(np.arange(4.0))
    with pytest.raises(IndexError, match="integer or bool"):
        x[framework.to_tensor([0.0, 1.0])]


def test_getitem_out_of_range_is_an_index_error():
    with pytest.raises(IndexError):
        framework.to_tensor(np.arange(4.0))[[0, 7]]


def test_large_embedding_style_gradient_matches_add_at():
    rng = np.random.default_rng(0)
    table = framework.to_tensor(
        rng.standard_normal((50, 8)).astype(np.float32), stop_gradient=False
    )
    ids = rng.integers(0, 50, size=(16, 7))
    out = table[framework.to_tensor(ids)]
    g = rng.standard_normal(out.shape).astype(np.float32)
    out.backward(framework.to_tensor(g))
    expected = np.zeros((50, 8), np.float32)
    np.add.at(expected, ids, g)
    np.testing.assert_allclose(table.grad.numpy(), expected, rtol=1e-5, atol=1e-6)


def test_getitem_matches_torch_forward_and_grad():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    data = rng.standard_normal(SHAPE).astype(np.float32)
    index = np.array([2, 0, 2, 1])
    ours = framework.to_tensor(data, stop_gradient=False)
    theirs = torch.tensor(data, requires_grad=True)
    y = ours[framework.to_tensor(index), 1:, ::2]
    yt = theirs[torch.tensor(index), 1:, ::2]
    g = rng.standard_normal(y.shape).astype(np.float32)
    y.backward(framework.to_tensor(g))
    yt.backward(torch.tensor(g))
    np.testing.assert_allclose(y.numpy(), yt.detach().numpy())
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-6, atol=1e-6)
