"""Binary elementwise math with broadcasting: add subtract multiply divide remainder pow maximum
minimum atan2 lerp; forward vs NumPy, gradients (first and second order), PyTorch parity."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward


@dataclass(frozen=True)
class Binary:
    name: str
    op: Callable
    reference: Callable
    torch_op: Callable
    x_range: tuple[float, float] = (-2.0, 2.0)
    y_range: tuple[float, float] = (-2.0, 2.0)

    def sample(self, x_shape, y_shape, dtype, seed=0):
        rng = np.random.default_rng(seed)
        x = rng.uniform(*self.x_range, x_shape).astype(dtype)
        y = rng.uniform(*self.y_range, y_shape).astype(dtype)
        return x, y


def _torch(name: str) -> Callable:
    def call(x, y):
        import torch

        return getattr(torch, name)(x, y)

    return call


OPS = [
    Binary("add", framework.add, np.add, _torch("add")),
    Binary("subtract", framework.subtract, np.subtract, _torch("subtract")),
    Binary("multiply", framework.multiply, np.multiply, _torch("multiply")),
    Binary("divide", framework.divide, np.divide, _torch("divide"), y_range=(0.5, 2.0)),
    # Away from the jumps of x mod y (x/y an integer).
    Binary(
        "remainder", framework.remainder, np.remainder, _torch("remainder"), (0.1, 0.9), (1.1, 2)
    ),
    Binary("pow", framework.pow, np.power, _torch("pow"), (0.5, 2.0)),
    Binary("maximum", framework.maximum, np.maximum, _torch("maximum")),
    Binary("minimum", framework.minimum, np.minimum, _torch("minimum")),
    Binary("atan2", framework.atan2, np.arctan2, _torch("atan2")),
    Binary("hypot", framework.hypot, np.hypot, _torch("hypot")),
    Binary("logaddexp", framework.logaddexp, np.logaddexp, _torch("logaddexp")),
    Binary(
        "lerp",
        lambda x, y: framework.lerp(x, y, 0.3),
        lambda x, y: x + 0.3 * (y - x),
        lambda x, y: __import__("torch").lerp(x, y, 0.3),
    ),
]
SHAPES = [((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 1, 3), (4, 1)), ((), (2,)), ((0, 3), (3,))]


def ids(ops):
    return [op.name for op in ops]


@pytest.mark.parametrize("op", OPS, ids=ids(OPS))
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_binary_forward_matches_numpy(op, shapes, dtype):
    x, y = op.sample(*shapes, dtype)
    out = op.op(framework.to_tensor(x), framework.to_tensor(y))
    expected = op.reference(x.astype(np.float64), y.astype(np.float64))
    assert out.dtype == dtype
    assert out.shape == list(expected.shape)
    rtol = 1e-6 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(out.numpy(), expected, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("op", OPS, ids=ids(OPS))
@pytest.mark.parametrize("shapes", SHAPES[1:], ids=str)
def test_binary_backward_through_broadcasting(op, shapes):
    check_backward(op.op, list(op.sample(*shapes, np.float64)))
    # and with the broadcast operand first
    check_backward(op.op, list(op.sample(shapes[1], shapes[0], np.float64)))


@pytest.mark.parametrize("op", OPS, ids=ids(OPS))
@pytest.mark.parametrize("shapes", [((2, 3), (2, 3)), ((2, 3), (3,))], ids=str)
def test_binary_double_backward(op, shapes):
    check_double_backward(op.op, list(op.sample(*shapes, np.float64)))


@pytest.mark.parametrize("op", OPS, ids=ids(OPS))
def test_binary_matches_torch(op):
    torch = pytest.importorskip("torch")
    x, y = op.sample((3, 4), (4,), np.float32, seed=3)
    g = np.random.default_rng(4).standard_normal((3, 4)).astype(np.float32)
    ox, oy = (framework.to_tensor(a, stop_gradient=False) for a in (x, y))
    out = op.op(ox, oy)
    out.backward(framework.to_tensor(g))
    tx, ty = (torch.tensor(a, requires_grad=True) for a in (x, y))
    expected = op.torch_op(tx, ty)
    expected.backward(torch.tensor(g))
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ox.grad.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(oy.grad.numpy(), ty.grad.numpy(), rtol=1e-5, atol=1e-5)
    assert ox.grad.dtype == np.float32 and oy.grad.dtype == np.float32


def test_maximum_and_minimum_split_the_gradient_on_ties():
    x = framework.to_tensor([1.0, 2.0], stop_gradient=False)
    y = framework.to_tensor([1.0, 1.0], stop_gradient=False)
    (framework.maximum(x, y) + framework.minimum(x, y) * 10.0).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [0.5 + 5.0, 1.0])
    np.testing.assert_allclose(y.grad.numpy(), [0.5 + 5.0, 10.0])


def test_pow_exponent_gradient_at_a_zero_base_is_zero():
    x = framework.to_tensor([0.0, 2.0], dtype="float64", stop_gradient=False)
    y = framework.to_tensor([2.0, 3.0], dtype="float64", stop_gradient=False)
    framework.pow(x, y).sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), [0.0, 8.0 * np.log(2.0)])
    np.testing.assert_allclose(x.grad.numpy(), [0.0, 12.0])


@pytest.mark.parametrize("exponent", [0, 1, 2, 3, -1, 0.5, -1.5, 2.5])
def test_pow_with_a_scalar_exponent(exponent):
    x = np.random.default_rng(0).uniform(0.5, 2.0, (2, 3))
    out = framework.pow(framework.to_tensor(x), exponent)
    np.testing.assert_allclose(out.numpy(), x**exponent, rtol=1e-12)
    check_backward(lambda t: framework.pow(t, exponent), [x])
    check_double_backward(lambda t: t**exponent, [x])


def test_scalar_base_to_a_tensor_power():
    x = np.array([0.5, 1.0, 2.0])
    np.testing.assert_allclose((2.0 ** framework.to_tensor(x)).numpy(), 2.0**x)
    check_backward(lambda t: 3.0**t, [x])
    check_double_backward(lambda t: 3.0**t, [x])
    assert (2 ** framework.to_tensor([3])).numpy().tolist() == [8]


def test_lerp_weight_may_be_a_broadcast_tensor_with_a_gradient():
    rng = np.random.default_rng(0)
    x, y, w = rng.standard_normal((2, 3)), rng.standard_normal((3,)), rng.uniform(0, 1, (2, 1))
    out = framework.lerp(*(framework.to_tensor(a) for a in (x, y, w)))
    np.testing.assert_allclose(out.numpy(), x + w * (y - x))
    check_backward(framework.lerp, [x, y, w])
    check_double_backward(framework.lerp, [x, y, w])


def test_floor_divide_rounds_toward_negative_infinity_and_has_no_gradient():
    x = framework.to_tensor([-7, 7, 7])
    y = framework.to_tensor([2, -2, 2])
    assert framework.floor_divide(x, y).numpy().tolist() == [-4, -4, 3]
    xf = framework.to_tensor([-7.5, 7.0], stop_gradient=False)
    out = xf // 2.0
    np.testing.assert_array_equal(out.numpy(), [-4.0, 3.0])
    assert out.stop_gradient


def test_remainder_takes_the_sign_of_the_divisor_like_python():
    x = framework.to_tensor([-7, 7, -7])
    y = framework.to_tensor([2, -2, -2])
    assert framework.remainder(x, y).numpy().tolist() == [1, -1, -1]
    assert framework.mod is framework.remainder and framework.floor_mod is framework.remainder
    np.testing.assert_allclose((framework.to_tensor([-7.5, 7.0]) % 2.0).numpy(), [0.5, 1.0])


def test_integer_true_division_gives_the_default_float():
    out = framework.to_tensor([3]) / framework.to_tensor([2])
    assert out.dtype == np.float32 and out.numpy().tolist() == [1.5]
    assert (framework.to_tensor([3]) / 2).dtype == np.float32


@pytest.mark.parametrize(
    ("left", "right", "expected"),
    [
        ("float32", "float64", "float64"),
        ("int64", "float32", "float32"),
        ("int32", "int64", "int64"),
        ("bool", "int32", "int32"),
    ],
)
def test_mixed_dtypes_promote(left, right, expected):
    x = framework.to_tensor([1, 2], dtype=left)
    y = framework.to_tensor([1, 1], dtype=right)
    for out in (x + y, x * y, x - y, y + x, framework.maximum(x, y)):
        assert out.dtype == np.dtype(expected)


def test_mixed_float_gradients_come_back_in_each_inputs_dtype():
    x = framework.to_tensor([1.0, 2.0], dtype="float32", stop_gradient=False)
    y = framework.to_tensor([3.0, 4.0], dtype="float64", stop_gradient=False)
    (x * y).sum().backward()
    assert x.grad.dtype == np.float32 and y.grad.dtype == np.float64
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 4.0])


def test_scalar_operands_take_the_tensor_dtype():
    x = framework.to_tensor([1.0, 2.0])
    for out in (x + 1, 1 + x, x - 1.5, 1.5 - x, x * 2, 2 * x, x / 2, 2 / x, x**2, x % 2.0):
        assert out.dtype == np.float32
    np.testing.assert_allclose((1.0 - x).numpy(), [0.0, -1.0])
    np.testing.assert_allclose((1.0 / x).numpy(), [1.0, 0.5])
    np.testing.assert_allclose((5 // x).numpy(), [5.0, 2.0])
    np.testing.assert_allclose((5 % x).numpy(), [0.0, 1.0])
    assert (framework.to_tensor([True]) * 2).dtype == np.int64


@pytest.mark.parametrize(
    ("scale", "bias", "after", "expected"),
    [(2.0, 1.0, True, [3.0, 5.0]), (2.0, 1.0, False, [4.0, 6.0]), (1.0, 0.0, True, [1.0, 2.0])],
)
def test_scale(scale, bias, after, expected):
    x = framework.to_tensor([1.0, 2.0])
    out = framework.scale(x, scale=scale, bias=bias, bias_after_scale=after)
    np.testing.assert_allclose(out.numpy(), expected)
    assert out._data is not x._data
    check_backward(lambda t: framework.scale(t, scale, bias, after), [np.array([1.0, -2.0])])
    check_double_backward(lambda t: t.scale(scale, bias, after), [np.array([1.0, -2.0])])


def test_scale_keeps_integers_integer_and_accepts_a_tensor_factor():
    out = framework.scale(framework.to_tensor([1, 2]), scale=2, bias=1.0)
    assert out.dtype == np.int64 and out.numpy().tolist() == [3, 5]
    out = framework.scale(framework.to_tensor([1.0]), scale=framework.to_tensor(3.0))
    assert out.numpy().tolist() == [3.0]


def test_scale_matches_torch():
    torch = pytest.importorskip("torch")
    x = np.array([[1.0, -2.0, 3.0]], dtype=np.float32)
    ours = framework.to_tensor(x, stop_gradient=False)
    framework.scale(ours, 0.5, 2.0, bias_after_scale=False).sum().backward()
    theirs = torch.tensor(x, requires_grad=True)
    ((theirs + 2.0) * 0.5).sum().backward()
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy())


def test_binary_method_forms_are_bound():
    x, y = framework.to_tensor([4.0, 9.0]), framework.to_tensor([2.0, 3.0])
    assert x.subtract(y).numpy().tolist() == [2.0, 6.0]
    assert x.divide(y).numpy().tolist() == [2.0, 3.0]
    assert x.pow(2).numpy().tolist() == [16.0, 81.0]
    assert x.maximum(y).numpy().tolist() == [4.0, 9.0]
    assert x.mod(y).numpy().tolist() == [0.0, 0.0]
    assert x.floor_divide(y).numpy().tolist() == [2.0, 3.0]
    assert x.lerp(y, 1.0).numpy().tolist() == [2.0, 3.0]


@pytest.mark.parametrize("shape", [(2, 3), (), (0, 2)])
def test_add_n_sums_many_tensors(shape):
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(shape) for _ in range(4)]
    out = framework.add_n([framework.to_tensor(a, "float64") for a in arrays])
    np.testing.assert_allclose(out.numpy(), sum(arrays))
    check_backward(lambda *ts: framework.add_n(list(ts)), arrays)
    check_double_backward(lambda a, b: framework.add_n([a, b, a]) * a, arrays[:2])


def test_add_n_with_one_input_and_bad_inputs():
    x = framework.to_tensor([1.0])
    assert framework.add_n(x) is x and framework.add_n([x]) is x
    with pytest.raises(ValueError, match="same shape"):
        framework.add_n([x, framework.to_tensor([1.0, 2.0])])
    with pytest.raises(ValueError, match="at least one"):
        framework.add_n([])


def test_add_n_matches_torch():
    torch = pytest.importorskip("torch")
    arrays = [np.random.default_rng(i).standard_normal((2, 3)).astype(np.float32) for i in range(3)]
    ours = [framework.to_tensor(a, stop_gradient=False) for a in arrays]
    (framework.add_n(ours) * framework.to_tensor(arrays[0])).sum().backward()
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    (torch.stack(theirs).sum(0) * torch.tensor(arrays[0])).sum().backward()
    for o, t in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(o.grad.numpy(), t.grad.numpy())


@pytest.mark.parametrize("dtype", ["int64", "float64"])
def test_divide_rounding_modes(dtype):
    x = framework.to_tensor([7, -7, 7, -7, 6], dtype=dtype)
    y = framework.to_tensor([2, 2, -2, -2, 3], dtype=dtype)
    floor = framework.divide(x, y, rounding_mode="floor")
    trunc = framework.divide(x, y, rounding_mode="trunc")
    assert floor.dtype == np.dtype(dtype) and trunc.dtype == np.dtype(dtype)
    assert floor.numpy().tolist() == [3, -4, -4, 3, 2]
    assert trunc.numpy().tolist() == [3, -3, -3, 3, 2]
    with pytest.raises(ValueError, match="rounding_mode"):
        framework.divide(x, y, rounding_mode="round")


SCALAR_FORMS = {
    "pow_scalar": lambda t: t**2.5,
    "pow_int": lambda t: t**3,
    "rpow": lambda t: 2.0**t,
    "rsub": lambda t: 1.0 - t,
    "rdiv": lambda t: 3.0 / t,
    "lerp_weight_tensor": lambda t: (
        framework.lerp(t, t * t, t * 0.5)
        if isinstance(t, framework.Tensor)
        else __import__("torch").lerp(t, t * t, t * 0.5)
    ),
}


@pytest.mark.parametrize("name", SCALAR_FORMS)
def test_scalar_forms_match_torch(name):
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(7).uniform(0.5, 2.0, (3, 4)).astype(np.float32)
    form = SCALAR_FORMS[name]
    ours = framework.to_tensor(x, stop_gradient=False)
    out = form(ours)
    out.sum().backward()
    theirs = torch.tensor(x, requires_grad=True)
    expected = form(theirs)
    expected.sum().backward()
    assert out.dtype == np.float32 and ours.grad.dtype == np.float32
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-5)
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-5)


def test_integer_powers_with_negative_exponents_truncate_like_paddle():
    x = framework.to_tensor([1, 2, -1, 4])
    assert (x**-1).numpy().tolist() == [1, 0, -1, 0]
    out = framework.pow(x, framework.to_tensor([-2, 2, -3, 0]))
    assert out.dtype == np.int64 and out.numpy().tolist() == [1, 4, -1, 1]


def test_logaddexp_is_stable_for_large_and_infinite_inputs():
    x = framework.to_tensor([1000.0, -np.inf, 0.0])
    y = framework.to_tensor([1000.0, -np.inf, -np.inf])
    with np.errstate(divide="ignore"):  # log(0) = -inf is the right answer for -inf, -inf
        out = framework.logaddexp(x, y).numpy()
    np.testing.assert_allclose(out, [1000.0 + np.log(2.0), -np.inf, 0.0])
