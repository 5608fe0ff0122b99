"""`Tensor.__setitem__`: in-place writes, broadcasting, and gradients to both sides."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

WRITES = [
    ("int_row_scalar", 1, 7.0),
    ("slice_broadcast_row", (slice(0, 2),), np.arange(4.0)),
    ("negative_step_column", (slice(None, None, -1), 2), np.array([1.0, 2.0, 3.0])),
    ("int_list", ([0, 2],), np.ones((2, 4))),
    ("bool_mask", (np.array([True, False, True]),), np.full((1, 4), 5.0)),
    ("elementwise_mask", (np.arange(12).reshape(3, 4) % 2 == 0,), -1.0),
    ("array_pairs", ([0, 1, 2], [3, 2, 1]), np.array([9.0, 8.0, 7.0])),
    ("ellipsis_last", (Ellipsis, -1), np.array([[4.0], [5.0], [6.0]]).reshape(3)),
    ("leading_one_dims", (slice(1, 3), slice(0, 2)), np.ones((1, 1, 2))),
]


@pytest.mark.parametrize("key,value", [w[1:] for w in WRITES], ids=[w[0] for w in WRITES])
def test_setitem_matches_numpy(key, value):
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    expected = data.copy()
    expected[key] = value
    x = framework.to_tensor(data)
    x[key] = framework.to_tensor(value, dtype="float32") if np.ndim(value) else value
    np.testing.assert_array_equal(x.numpy(), expected)
    assert x.dtype == np.float32


@pytest.mark.parametrize("key,value", [w[1:] for w in WRITES], ids=[w[0] for w in WRITES])
def test_setitem_gradients_reach_the_old_tensor_and_the_value(key, value):
    value = np.asarray(value, dtype=np.float64)

    def write(base, v):
        x = base * 1.0  # a non-leaf copy we may write into
        x[key] = v
        return x * x

    rng = np.random.default_rng(0)
    check_backward(write, [rng.standard_normal((3, 4)), value + 0.5])


def test_setitem_double_backward():
    def write(base, v):
        x = base * base
        x[1:, ::2] = v * v
        return x

    rng = np.random.default_rng(0)
    check_double_backward(write, [rng.standard_normal((3, 4)), rng.standard_normal((2, 2))])


def test_setitem_on_a_leaf_that_requires_grad_is_a_clear_error():
    x = framework.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(RuntimeError, match="leaf Tensor .* inplace"):
        x[0] = 5.0


def test_setitem_on_a_leaf_is_allowed_under_no_grad():
    x = framework.to_tensor([1.0, 2.0], stop_gradient=False)
    with framework.no_grad():
        x[0] = 5.0
    np.testing.assert_array_equal(x.numpy(), [5.0, 2.0])
    assert x.is_leaf and not x.stop_gradient


def test_setitem_without_grad_writes_in_place():
    x = framework.zeros([2, 3])
    before = x._data
    x[:, 1] = 4
    assert x._data is before
    np.testing.assert_array_equal(x.numpy(), [[0, 4, 0], [0, 4, 0]])


def test_setitem_into_a_constant_with_a_value_that_needs_grad():
    v = framework.to_tensor([1.0, 2.0], stop_gradient=False)
    x = framework.zeros([3, 2])
    x[1] = v
    assert not x.stop_gradient and not x.is_leaf
    (x * 3.0).sum().backward()
    np.testing.assert_array_equal(v.grad.numpy(), [3.0, 3.0])


def test_later_uses_see_the_new_version_and_earlier_ones_the_old():
    w = framework.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    x = w * 2.0
    before = x * 1.0  # uses the old version
    x[0] = 10.0
    after = x * 1.0
    np.testing.assert_array_equal(before.numpy(), [2.0, 4.0, 6.0])
    np.testing.assert_array_equal(after.numpy(), [10.0, 4.0, 6.0])
    (before.sum() + after.sum()).backward()
    np.testing.assert_array_equal(w.grad.numpy(), [2.0, 4.0, 4.0])


def test_setitem_casts_the_value_to_the_tensor_dtype():
    x = framework.zeros([3], dtype="int64")
    x[1] = 2.7
    assert x.dtype == np.int64 and x.numpy().tolist() == [0, 2, 0]
    y = framework.zeros([2])
    v = framework.to_tensor([1.5], dtype="float64", stop_gradient=False)
    y2 = y * 1.0
    y2[0] = v * 1.0
    y2.sum().backward()
    assert y2.dtype == np.float32 and v.grad.dtype == np.float64


def test_setitem_on_a_read_only_broadcast_view_copies_first():
    x = framework.broadcast_to(framework.to_tensor([1.0, 2.0]), [2, 2])
    x[0, 0] = 9.0
    np.testing.assert_array_equal(x.numpy(), [[9.0, 2.0], [1.0, 2.0]])


def test_setitem_matches_torch_gradients():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    base = rng.standard_normal((4, 3)).astype(np.float32)
    val = rng.standard_normal((2, 3)).astype(np.float32)
    b, v = (framework.to_tensor(a, stop_gradient=False) for a in (base, val))
    bt, vt = (torch.tensor(a, requires_grad=True) for a in (base, val))
    x = b * 1.5
    x[[3, 1]] = v * 2.0
    xt = bt * 1.5
    xt[[3, 1]] = vt * 2.0
    (x * x).sum().backward()
    (xt * xt).sum().backward()
    np.testing.assert_allclose(x.numpy(), xt.detach().numpy(), rtol=1e-6)
    np.testing.assert_allclose(b.grad.numpy(), bt.grad.numpy(), rtol=1e-5)
    np.testing.assert_allclose(v.grad.numpy(), vt.grad.numpy(), rtol=1e-5)


def test_an_op_that_saved_a_tensor_sees_its_old_version_after_setitem():
    w = framework.to_tensor([1.0, 2.0], stop_gradient=False)
    a = framework.to_tensor([3.0, 4.0], stop_gradient=False)
    x = a * 1.0
    y = x * w  # saves x for w's gradient
    x[0] = 100.0
    y.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [3.0, 4.0])
