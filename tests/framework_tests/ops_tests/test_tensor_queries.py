"""Paddle 3's PyTorch-style Tensor methods: dtype casts (`x.float()`, `x.long()`, ...),
`type_as`, `new_zeros`/`new_ones`/`new_full`/`new_empty`, `requires_grad`, `ndimension`,
`is_same_shape`, `itemsize`, `is_cuda`, `get_device`, `is_dense`, `resize_` and
`apply`/`apply_`, each against real Paddle."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.ops.manipulation.tensor_queries import CAST_METHOD_DTYPES
from framework.testing import check_backward

X = np.array([[1.7, -2.2, 0.0], [3.5, 0.25, -0.75]], np.float32)


def _dtype_name(t) -> str:
    return str(t.dtype).replace("paddle.", "")


@pytest.mark.parametrize("name", sorted(CAST_METHOD_DTYPES))
def test_cast_methods_match_paddle(name):
    paddle = pytest.importorskip("paddle")
    ours, theirs = getattr(framework.to_tensor(X), name)(), getattr(paddle.to_tensor(X), name)()
    assert _dtype_name(ours) == _dtype_name(theirs) == CAST_METHOD_DTYPES[name]
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_a_cast_to_the_same_dtype_is_the_tensor_and_float_casts_pass_the_gradient():
    x = framework.to_tensor(X)
    assert x.float() is x
    check_backward(lambda t: t.double() * t.double(), [X.astype(np.float64)])
    # Through float32 the central differences need a wide step to rise above rounding.
    check_backward(lambda t: t.float() * 2.0, [X.astype(np.float64)], eps=1e-2, atol=1e-3)


def test_type_as_takes_the_other_dtype():
    paddle = pytest.importorskip("paddle")
    for module in (framework, paddle):
        out = module.to_tensor(X).type_as(module.to_tensor([1, 2]))
        assert _dtype_name(out) == "int64"


@pytest.mark.parametrize(
    "call",
    [
        lambda x: x.new_zeros([2, 3]),
        lambda x: x.new_zeros(2, 3),
        lambda x: x.new_ones((4,), dtype="int32"),
        lambda x: x.new_full([2], 7),
        lambda x: x.new_full([2, 2], True),
        lambda x: x.new_full([3], 2.5, dtype="float16"),
        lambda x: x.new_zeros([2], requires_grad=True),
        lambda x: x.new_ones(3, device="cpu"),
    ],
)
def test_new_tensor_factories_match_paddle(call):
    paddle = pytest.importorskip("paddle")
    x64 = X.astype(np.float64)
    ours, theirs = call(framework.to_tensor(x64)), call(paddle.to_tensor(x64))
    assert ours.shape == list(theirs.shape)
    assert _dtype_name(ours) == _dtype_name(theirs)
    assert ours.stop_gradient == theirs.stop_gradient
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_new_empty_has_the_shape_and_dtype():
    out = framework.to_tensor(X.astype(np.float64)).new_empty(2, 5)
    assert out.shape == [2, 5] and _dtype_name(out) == "float64"
    with pytest.raises(TypeError, match="must all be ints"):
        framework.to_tensor(X).new_zeros(2, [3])


def test_requires_grad_is_the_opposite_of_stop_gradient():
    paddle = pytest.importorskip("paddle")
    for module in (framework, paddle):
        x = module.ones([2])
        assert x.requires_grad is False
        assert x.requires_grad_() is x and x.stop_gradient is False and x.requires_grad
        x.requires_grad = False
        assert x.stop_gradient is True
        x.requires_grad_(True)
        x.requires_grad_(False)
        assert x.stop_gradient is True


def test_queries_match_paddle():
    paddle = pytest.importorskip("paddle")
    answers = []
    for module in (framework, paddle):
        x = module.to_tensor(X)
        answers.append(
            (
                x.ndimension(),
                x.is_same_shape(module.ones([2, 3])),
                x.is_same_shape(module.ones([3, 2])),
                x.itemsize,
                module.ones([2], dtype="int16").itemsize,
                x.is_cuda,
                x.get_device(),
                x.is_dense(),
                x.is_sparse(),
                x.is_sparse_coo(),
                x.is_sparse_csr(),
            )
        )
    assert answers[0] == answers[1]


@pytest.mark.parametrize("shape", [[2, 2], [6], [3, 2], [1, 1, 1], [0]])
def test_resize_keeps_the_leading_elements_as_paddle_does(shape):
    paddle = pytest.importorskip("paddle")
    values = np.arange(6, dtype=np.float32)
    ours, theirs = framework.to_tensor(values), paddle.to_tensor(values)
    assert ours.resize_(shape) is ours and theirs.resize_(shape) is theirs
    assert ours.shape == list(theirs.shape) and ours.inplace_version == theirs.inplace_version
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_resize_to_a_larger_size_zero_fills_like_fill_zero():
    paddle = pytest.importorskip("paddle")
    values = np.arange(3, dtype=np.float32)
    theirs = paddle.to_tensor(values)
    theirs.resize_([2, 3], fill_zero=True)
    ours = framework.to_tensor(values)
    ours.resize_([2, 3])
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    assert framework.tensor.resize_ is framework.Tensor.resize_


def test_resize_refuses_what_it_cannot_do():
    with pytest.raises(ValueError, match="negative dim"):
        framework.ones([2]).resize_([-1, 2])
    with pytest.raises(RuntimeError, match="leaf Tensor"):
        framework.ones([2], dtype="float32").requires_grad_().resize_([3])
    non_leaf = framework.ones([2]).requires_grad_() * 2.0
    with pytest.raises(RuntimeError, match="cannot be resized in place"):
        non_leaf.resize_([3])


def test_apply_and_apply_inplace_match_paddle():
    paddle = pytest.importorskip("paddle")
    results = []
    for module in (framework, paddle):
        x = module.to_tensor(X)
        y = x.apply(lambda t: t * 2.0)
        assert x.apply_(lambda t: t + 1.0) is x
        results.append((y.numpy(), x.numpy()))
        with pytest.raises(RuntimeError, match="Cannot apply function on a tensor that required"):
            module.to_tensor(X, stop_gradient=False).apply(lambda t: t)
    for ours, theirs in zip(*results, strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)
    with pytest.raises(ValueError, match="same shape"):
        framework.to_tensor(X).apply_(lambda t: t.sum())
