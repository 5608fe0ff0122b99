"""The Tensor methods Paddle binds from `paddle.tensor.tensor_method_func` that were missing:
the short comparison and arithmetic names (`x.eq`, `x.gt`, `x.mul_`, `x.div` ...), the
list-taking functions (`concat`, `stack`, `add_n`, ...), `x.softmax(dim)`, `x.sigmoid_()`,
`x.split_with_sizes`, `x.put_along_axis_` and the in-place inverse hyperbolics. Each is called
as a method on ours and on real Paddle: same values, dtype and shape; in-place ones return the
same object and count one `inplace_version`, as Paddle's do."""

from __future__ import annotations

import numpy as np
import pytest

import framework

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 4)).astype(np.float32)
Y = RNG.standard_normal((3, 4)).astype(np.float32)
ABOVE_ONE = RNG.uniform(1.2, 3.0, (3, 4)).astype(np.float32)
IN_UNIT = RNG.uniform(-0.9, 0.9, (3, 4)).astype(np.float32)
X3 = RNG.standard_normal((2, 3, 4)).astype(np.float32)
# inf and nan on the diagonal (and inf off it): filling must replace them exactly.
NONFINITE = X.copy()
NONFINITE[0, 0], NONFINITE[1, 1], NONFINITE[0, 2] = np.inf, np.nan, -np.inf
INDEX = np.array([[0, 2, 1, 3], [3, 3, 0, 1], [1, 0, 2, 2]], np.int64)


class T:
    """A NumPy value to pass as a Tensor of each framework."""

    def __init__(self, value: np.ndarray) -> None:
        self.value = value


def _on(module, value):
    if isinstance(value, T):
        return module.to_tensor(value.value)
    if isinstance(value, list):
        return [_on(module, v) for v in value]
    return value


# (method, self as NumPy, positional arguments, keyword arguments)
CASES = [
    ("eq", X, (T(X.round()),), {}),
    ("eq", X.round(), (0.0,), {}),
    ("ne", X, (T(Y),), {}),
    ("lt", X, (T(Y),), {}),
    ("less", X, (T(Y),), {}),
    ("le", X, (T(X),), {}),
    ("gt", X, (T(Y),), {}),
    ("greater", X, (T(Y),), {}),
    ("ge", X, (T(Y),), {}),
    ("div", X, (T(ABOVE_ONE),), {}),
    ("div", X, (T(ABOVE_ONE),), {"rounding_mode": "floor"}),
    ("div", X, (T(ABOVE_ONE),), {"rounding_mode": "trunc"}),
    ("mul", X, (T(Y),), {}),
    ("negative", X, (), {}),
    ("reverse", X, (0,), {}),
    ("reverse", X, (), {"axis": [0, 1]}),
    ("take_along_dim", X, (T(INDEX[:, :2]), 1), {}),
    ("take_along_dim", X, (T(INDEX[:1] % 3), 0), {}),
    ("clamp", X, (-0.5, 0.5), {}),
    ("clamp", X, (), {"min": 0.1}),
    ("clamp", INDEX, (1, 2), {}),
    ("add_n", X, (), {}),
    ("is_tensor", X, (), {}),
    ("scatter_nd", np.array([[1], [0], [1]]), (T(np.float32([1, 2, 3])), [3]), {}),
    ("split_with_sizes", X, ([1, 2],), {}),
    ("split_with_sizes", X, ([1, 0, 3],), {"dim": -1}),
    ("sigmoid", X, (), {}),
    ("softmax", X, (), {}),
    ("softmax", X, (0,), {}),
    ("softmax", X, (-1, "float64"), {}),
    ("softmax", X[0], (), {}),
    ("softmax", X[None], (), {}),
    ("softmax", X[None, None], (), {}),
    ("fill_diagonal_tensor", X, (T(np.float32([9, 8, 7])),), {}),
    ("fill_diagonal_tensor", X, (T(np.float32([9, 8, 7])),), {"offset": 1}),
    ("fill_diagonal_tensor", X, (T(np.float32([9, 8, 7])),), {"offset": -1, "dim1": 1, "dim2": 0}),
    (
        "fill_diagonal_tensor",
        X3,
        (T(-np.ones((2, 3), np.float32)),),
        {"offset": 1, "dim1": 1, "dim2": 2},
    ),
    ("fill_diagonal_tensor", X3, (T(-np.ones((4, 2), np.float32)),), {}),
    ("fill_diagonal_tensor", NONFINITE, (T(np.float32([9, 8, 7])),), {}),
]

INPLACE_CASES = [
    ("div_", X, (T(ABOVE_ONE),), {}),
    ("mul_", X, (T(Y),), {}),
    ("sub_", X, (T(Y),), {}),
    ("acosh_", ABOVE_ONE, (), {}),
    ("asinh_", X, (), {}),
    ("atanh_", IN_UNIT, (), {}),
    ("sigmoid_", X, (), {}),
    ("clip_", X, (-0.5, 0.5), {}),
    ("clip_", INDEX, (1, 2.5), {}),
    ("clamp_", X, (), {"max": 0.2}),
    ("put_along_axis_", X, (T(INDEX[:1] % 3), T(Y[:1]), 0), {}),
    ("put_along_axis_", X, (T(INDEX), 9.0, 1), {"reduce": "add"}),
    ("put_along_axis_", X, (T(INDEX[:, :2]), T(Y[:, :2]), 1), {"reduce": "multiply"}),
    ("fill_diagonal_tensor_", X, (T(np.float32([9, 8, 7])),), {"offset": 1}),
]


def _ids(cases):
    return [f"{c[0]}-{i}" for i, c in enumerate(cases)]


def _assert_same(ours, theirs):
    if isinstance(theirs, list | tuple):
        assert isinstance(ours, list | tuple) and len(ours) == len(theirs)
        for a, b in zip(ours, theirs, strict=True):
            _assert_same(a, b)
        return
    if not hasattr(theirs, "numpy"):
        assert ours == theirs
        return
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype) == str(theirs.dtype).replace("paddle.", "")
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name, x, args, kwargs", CASES, ids=_ids(CASES))
def test_method_matches_paddle(name, x, args, kwargs):
    paddle = pytest.importorskip("paddle")
    ours = getattr(framework.to_tensor(x), name)(*_on(framework, list(args)), **kwargs)
    theirs = getattr(paddle.to_tensor(x), name)(*_on(paddle, list(args)), **kwargs)
    _assert_same(ours, theirs)


@pytest.mark.parametrize("name, x, args, kwargs", INPLACE_CASES, ids=_ids(INPLACE_CASES))
def test_inplace_method_matches_paddle_and_returns_the_same_tensor(name, x, args, kwargs):
    paddle = pytest.importorskip("paddle")
    ours, theirs = framework.to_tensor(x), paddle.to_tensor(x)
    out = getattr(ours, name)(*_on(framework, list(args)), **kwargs)
    expected = getattr(theirs, name)(*_on(paddle, list(args)), **kwargs)
    assert out is ours and expected is theirs
    assert ours.inplace_version == theirs.inplace_version == 1
    _assert_same(ours, theirs)


@pytest.mark.parametrize("name", ["concat", "stack", "broadcast_tensors"])
def test_list_methods_refuse_a_single_tensor_as_paddle_does(name):
    paddle = pytest.importorskip("paddle")
    with pytest.raises(ValueError, match="must be list of Tensors, but got Tensor"):
        getattr(framework.to_tensor(X), name)()
    with pytest.raises(ValueError, match="must be list of Tensors, but got Tensor"):
        getattr(paddle.to_tensor(X), name)()


def test_broadcast_shape_methods_are_the_shape_functions():
    assert framework.Tensor.broadcast_shape is framework.broadcast_shape
    assert framework.Tensor.broadcast_shapes is framework.broadcast_shapes
    assert framework.broadcast_shape([2, 1], [3]) == [2, 3]


def test_where_method_takes_the_tensor_as_the_condition_and_changes_x():
    paddle = pytest.importorskip("paddle")
    results = []
    for module in (framework, paddle):
        cond = module.to_tensor([True, False, True])
        x, y = module.to_tensor([1.0, 2.0, 3.0]), module.to_tensor([7.0, 8.0, 9.0])
        assert cond.where_(x, y) is x
        results.append(x.numpy())
    np.testing.assert_array_equal(*results)


def test_softmax_method_refuses_paddle_style_keywords_as_paddle_does():
    paddle = pytest.importorskip("paddle")
    for module in (framework, paddle):
        for key in ("axis", "x"):
            with pytest.raises(TypeError, match=f"unexpected keyword argument '{key}'"):
                module.to_tensor(X).softmax(**{key: 1})
    # PyTorch's `_stacklevel`, an int in dtype's place, is dropped as Paddle drops it.
    _assert_same(framework.to_tensor(X).softmax(1, 3), paddle.to_tensor(X).softmax(1, 3))


def test_split_with_sizes_errors_are_paddles():
    paddle = pytest.importorskip("paddle")
    for sizes, message in (([1, 1], "add up to 2"), ([-1, 4], "non-negative")):
        for module in (framework, paddle):
            with pytest.raises(ValueError, match=message):
                module.to_tensor(X).split_with_sizes(sizes)


def test_inplace_methods_refuse_a_leaf_that_needs_a_gradient_as_paddle_does():
    paddle = pytest.importorskip("paddle")
    for name in ("acosh_", "sigmoid_", "clip_", "mul_"):
        args = (framework.to_tensor(X),) if name == "mul_" else ()
        with pytest.raises(RuntimeError, match="leaf Tensor"):
            getattr(framework.to_tensor(ABOVE_ONE, stop_gradient=False), name)(*args)
        args = (paddle.to_tensor(X),) if name == "mul_" else ()
        with pytest.raises(ValueError, match="Leaf Var"):
            getattr(paddle.to_tensor(ABOVE_ONE, stop_gradient=False), name)(*args)


@pytest.mark.parametrize(
    "expression",
    [
        lambda m, x, y: x << y,
        lambda m, x, y: x >> y,
        lambda m, x, y: 3 << y,
        lambda m, x, y: 100 >> y,
        lambda m, x, y: x << 2,
        lambda m, x, y: x >> 1,
    ],
)
def test_shift_operators_match_paddle(expression):
    paddle = pytest.importorskip("paddle")
    results = []
    for m in (framework, paddle):
        x = m.to_tensor(np.array([-8, 5, 12], np.int32))
        y = m.to_tensor(np.array([1, 2, 3], np.int32))
        out = expression(m, x, y)
        results.append((out.numpy(), str(out.dtype).split(".")[-1]))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    assert results[0][1] == results[1][1]
