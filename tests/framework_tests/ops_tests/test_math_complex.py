"""Complex dtypes: dtype rules, the parts ops (complex, real, imag, conj, angle, as_complex,
as_real), elementwise math, reductions and matmul on complex64/complex128.

Oracles: NumPy for values, numerical gradients that perturb real and imaginary parts, and
PyTorch's complex autograd (the conjugate Wirtinger convention Paddle shares) for gradients;
real Paddle for result dtypes and values."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

RNG = np.random.default_rng(7)


def _complex(shape, low=-1.5, high=1.5, seed=0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.uniform(low, high, shape) + 1j * rng.uniform(low, high, shape)


# --- dtypes and creation ---------------------------------------------------------------------


def test_it_names_the_complex_dtypes_as_paddle_does():
    assert framework.complex64 == np.complex64 and framework.complex128 == np.complex128
    assert framework.to_tensor([1.0], dtype="complex128").dtype == framework.complex128
    assert framework.to_tensor([1.0], dtype="paddle.complex64").dtype == framework.complex64


def test_python_complex_numbers_become_the_default_complex_dtype():
    assert framework.to_tensor([1 + 2j]).dtype == framework.complex64
    assert framework.to_tensor(1 + 2j).dtype == framework.complex64
    assert framework.to_tensor([1 + 2j, 1.0]).dtype == framework.complex64
    # NumPy arrays keep their dtype.
    assert framework.to_tensor(np.array([1 + 2j])).dtype == framework.complex128
    framework.set_default_dtype("float64")
    try:
        assert framework.to_tensor([1 + 2j]).dtype == framework.complex128
    finally:
        framework.set_default_dtype("float32")


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_constant_fills_make_complex_tensors(dtype):
    np.testing.assert_array_equal(framework.zeros([2], dtype=dtype).numpy(), np.zeros(2, dtype))
    np.testing.assert_array_equal(framework.ones([2], dtype=dtype).numpy(), np.ones(2, dtype))
    full = framework.full([2], 1 + 1j, dtype=dtype)
    assert full.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(full.numpy(), np.full(2, 1 + 1j, dtype))
    np.testing.assert_array_equal(framework.full([1], 1.5, dtype=dtype).numpy(), [1.5 + 0j])


@pytest.mark.parametrize(
    ("left", "right", "expected"),
    [
        ("float32", "complex64", "complex64"),
        ("float64", "complex64", "complex128"),
        ("complex64", "complex128", "complex128"),
        ("int64", "complex64", "complex64"),
        ("complex128", "float32", "complex128"),
    ],
)
def test_binary_ops_promote_real_to_complex(left, right, expected):
    x = framework.to_tensor([1.0], dtype=left)
    y = framework.to_tensor([1.0], dtype=right)
    for op in (framework.add, framework.subtract, framework.multiply, framework.divide):
        assert op(x, y).dtype == np.dtype(expected), op.__name__
        assert op(y, x).dtype == np.dtype(expected), op.__name__


def test_a_complex_scalar_makes_a_real_tensor_complex_of_its_precision():
    assert (framework.to_tensor([1.0]) * 2j).dtype == framework.complex64
    assert (framework.to_tensor([1.0], dtype="float64") * 2j).dtype == framework.complex128
    assert (framework.to_tensor([1]) * 2j).dtype == framework.complex64
    np.testing.assert_allclose((framework.to_tensor([1.0]) * 2j).numpy(), [2j])
    assert (framework.to_tensor([1 + 1j]) * 2).dtype == framework.complex64


def test_casts_between_real_and_complex_keep_the_real_part_without_a_warning():
    z = framework.to_tensor([1.5 + 2j, -3 - 1j])
    with np.testing.assert_no_warnings():
        np.testing.assert_array_equal(z.astype("float32").numpy(), [1.5, -3.0])
        np.testing.assert_array_equal(z.astype("int32").numpy(), [1, -3])
    assert framework.to_tensor([1.0]).astype("complex64").dtype == framework.complex64


def test_cast_gradients_cross_between_real_and_complex():
    # real -> complex -> real: the gradient of Re(conj(g) * z) w.r.t. the real input is Re(g).
    check_backward(lambda x: framework.cast(x, "complex128") * (1 + 2j), [RNG.normal(size=3)])
    check_backward(lambda z: framework.cast(z, "float64") * 3.0, [_complex(3)])


# --- the parts -------------------------------------------------------------------------------


def test_parts_match_numpy_and_return_the_real_dtype():
    data = _complex((2, 3)).astype(np.complex64)
    z = framework.to_tensor(data)
    for op, reference in (
        (framework.real, np.real),
        (framework.imag, np.imag),
        (framework.abs, np.abs),
        (framework.angle, np.angle),
    ):
        result = op(z)
        assert result.dtype == framework.float32, op.__name__
        np.testing.assert_allclose(result.numpy(), reference(data), rtol=1e-6)
    assert framework.conj(z).dtype == framework.complex64
    np.testing.assert_array_equal(framework.conj(z).numpy(), np.conj(data))
    np.testing.assert_array_equal(z.real().numpy(), data.real)
    np.testing.assert_array_equal(z.imag().numpy(), data.imag)
    assert z.is_complex() and framework.is_complex(z)
    assert not framework.to_tensor([1.0]).is_complex()


def test_complex_builds_from_parts_with_broadcasting():
    re = framework.to_tensor([[1.0], [2.0]])
    im = framework.to_tensor([3.0, 4.0])
    z = framework.complex(re, im)
    assert z.dtype == framework.complex64
    np.testing.assert_array_equal(z.numpy(), [[1 + 3j, 1 + 4j], [2 + 3j, 2 + 4j]])
    z64 = framework.complex(re.astype("float64"), im.astype("float64"))
    assert z64.dtype == framework.complex128


def test_as_complex_and_as_real_are_inverse():
    pairs = RNG.normal(size=(2, 3, 2)).astype(np.float32)
    z = framework.as_complex(framework.to_tensor(pairs))
    assert z.shape == [2, 3] and z.dtype == framework.complex64
    np.testing.assert_array_equal(z.numpy(), pairs[..., 0] + 1j * pairs[..., 1])
    back = framework.as_real(z)
    assert back.dtype == framework.float32
    np.testing.assert_array_equal(back.numpy(), pairs)


def test_parts_ops_reject_wrong_inputs_clearly():
    with pytest.raises(TypeError, match="real: expects a complex64 or complex128 tensor"):
        framework.real(framework.to_tensor([1.0]))
    with pytest.raises(TypeError, match="as_real"):
        framework.as_real(framework.to_tensor([1.0]))
    with pytest.raises(ValueError, match="last axis has size 2"):
        framework.as_complex(framework.to_tensor([1.0, 2.0, 3.0]))
    with pytest.raises(TypeError, match="same dtype"):
        framework.complex(framework.to_tensor([1.0]), framework.to_tensor([1.0], dtype="float64"))


PARTS: list[tuple[str, Callable, int]] = [
    ("real", lambda z: framework.real(z), 1),
    ("imag", lambda z: framework.imag(z), 1),
    ("conj", lambda z: framework.conj(z), 1),
    ("abs", lambda z: framework.abs(z), 1),
    ("angle", lambda z: framework.angle(z), 1),
    ("as_real", lambda z: framework.as_real(z), 1),
    ("complex", lambda a, b: framework.complex(a, b), 2),
    ("as_complex", lambda x: framework.as_complex(x), 1),
]


@pytest.mark.parametrize(("name", "op", "arity"), PARTS, ids=[p[0] for p in PARTS])
def test_parts_gradients_match_numerical_ones(name, op, arity):
    if name == "complex":
        inputs = [RNG.normal(size=(2, 3)), RNG.normal(size=(3,))]
    elif name == "as_complex":
        inputs = [RNG.normal(size=(3, 2))]
    else:
        inputs = [_complex((2, 3))]
    check_backward(op, inputs)
    check_double_backward(op, inputs)


def test_the_gradient_of_z_times_its_conjugate_is_two_z():
    data = np.array([1 + 2j, -0.5 + 0.25j], dtype=np.complex64)
    z = framework.to_tensor(data, stop_gradient=False)
    (z * framework.conj(z)).real().sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), 2 * data)
    assert z.grad.dtype == framework.complex64


def test_abs_and_angle_have_zero_gradient_at_zero():
    z = framework.to_tensor([0j, 1 + 1j], dtype="complex128", stop_gradient=False)
    (framework.abs(z) + framework.angle(z)).sum().backward()
    assert z.grad.numpy()[0] == 0
    assert np.isfinite(z.grad.numpy()).all()


# --- elementwise math, reductions and matmul ------------------------------------------------

UNARY: list[tuple[str, Callable, Callable]] = [
    ("exp", framework.exp, np.exp),
    ("log", framework.log, np.log),
    ("sqrt", framework.sqrt, np.sqrt),
    ("sin", framework.sin, np.sin),
    ("cos", framework.cos, np.cos),
    ("tan", framework.tan, np.tan),
    ("sinh", framework.sinh, np.sinh),
    ("cosh", framework.cosh, np.cosh),
    ("tanh", framework.tanh, np.tanh),
    ("expm1", framework.expm1, np.expm1),
    ("log1p", framework.log1p, np.log1p),
    ("square", framework.square, np.square),
    ("reciprocal", framework.reciprocal, np.reciprocal),
    ("rsqrt", framework.rsqrt, lambda z: 1 / np.sqrt(z)),
    ("neg", framework.neg, np.negative),
    ("pow3", lambda z: framework.pow(z, 3.0), lambda z: z**3),
    ("pow2", lambda z: framework.pow(z, 2), lambda z: z**2),
]
# Away from the branch cut of log and sqrt (the negative real axis) and from zero.
_UNARY_SAMPLE = {"low": 0.3, "high": 1.5}


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize(("name", "op", "reference"), UNARY, ids=[u[0] for u in UNARY])
def test_unary_forward_matches_numpy(name, op, reference, dtype):
    data = _complex((3, 4), **_UNARY_SAMPLE).astype(dtype)
    result = op(framework.to_tensor(data))
    assert result.dtype == np.dtype(dtype)
    rtol = 1e-5 if dtype == "complex64" else 1e-12
    np.testing.assert_allclose(result.numpy(), reference(data), rtol=rtol)


@pytest.mark.parametrize(("name", "op", "reference"), UNARY, ids=[u[0] for u in UNARY])
def test_unary_gradients_match_numerical_ones(name, op, reference):
    data = _complex((2, 3), **_UNARY_SAMPLE)
    check_backward(op, [data])
    check_double_backward(op, [data])


BINARY: list[tuple[str, Callable]] = [
    ("add", framework.add),
    ("subtract", framework.subtract),
    ("multiply", framework.multiply),
    ("divide", framework.divide),
    ("pow", framework.pow),
]


@pytest.mark.parametrize(("name", "op"), BINARY, ids=[b[0] for b in BINARY])
def test_binary_gradients_match_numerical_ones_with_broadcasting(name, op):
    x, y = _complex((2, 3), 0.3, 1.5, seed=1), _complex((3,), 0.3, 1.5, seed=2)
    check_backward(op, [x, y])
    check_double_backward(op, [x, y])


@pytest.mark.parametrize(("name", "op"), BINARY, ids=[b[0] for b in BINARY])
def test_binary_gradients_reach_a_real_operand_as_real(name, op):
    x, y = _complex((2, 3), 0.3, 1.5, seed=1), RNG.uniform(0.3, 1.5, (3,))
    check_backward(op, [x, y])
    real = framework.to_tensor(y, stop_gradient=False)
    op(framework.to_tensor(x), real).abs().sum().backward()
    assert real.grad.dtype == framework.float64


REDUCTIONS: list[tuple[str, Callable, Callable]] = [
    ("sum", lambda z: framework.sum(z, axis=1), lambda z: z.sum(axis=1)),
    ("mean", lambda z: framework.mean(z), lambda z: z.mean()),
    ("prod", lambda z: framework.prod(z, axis=0), lambda z: z.prod(axis=0)),
    ("matmul", lambda z: framework.matmul(z, z, transpose_y=True), lambda z: z @ z.T),
    ("transpose", lambda z: framework.transpose(z, [1, 0]), lambda z: z.T),
    ("reshape", lambda z: framework.reshape(z, [3, 2]), lambda z: z.reshape(3, 2)),
    (
        "concat",
        lambda z: framework.concat([z, z * 2], axis=0),
        lambda z: np.concatenate([z, z * 2]),
    ),
    ("stack", lambda z: framework.stack([z, z], axis=1), lambda z: np.stack([z, z], axis=1)),
    ("slice", lambda z: z[:, 1:], lambda z: z[:, 1:]),
]


@pytest.mark.parametrize(("name", "op", "reference"), REDUCTIONS, ids=[r[0] for r in REDUCTIONS])
def test_reductions_and_shape_ops_match_numpy_and_numerical_gradients(name, op, reference):
    data = _complex((2, 3), seed=3)
    result = op(framework.to_tensor(data))
    assert result.dtype == framework.complex128
    np.testing.assert_allclose(result.numpy(), reference(data), rtol=1e-12)
    check_backward(op, [data])
    check_double_backward(op, [data])


def test_prod_gradient_with_a_zero_element():
    data = _complex((3, 2), seed=4)
    data[1, 0] = 0
    check_backward(lambda z: framework.prod(z, axis=0), [data])


def test_matmul_of_batched_complex_inputs_matches_numerical_gradients():
    check_backward(framework.matmul, [_complex((2, 3, 4), seed=5), _complex((4, 2), seed=6)])
    check_backward(framework.matmul, [_complex((3,), seed=5), _complex((3, 2), seed=6)])


# --- parity with PyTorch's complex autograd ---------------------------------------------------


def _torch_loss_pairs():
    return [
        ("abs_of_exp_sin", lambda m, z: m.abs(m.exp(z) * m.sin(z) / (z + 3)).sum()),
        ("angle_sqrt", lambda m, z: m.angle(m.sqrt(z) * m.log(z)).sum()),
        ("real_matmul", lambda m, z: m.real(m.matmul(z, z)).sum()),
        ("imag_prod_tanh", lambda m, z: m.imag(m.prod(m.tanh(z), 0)).sum()),
        ("mean_square_reciprocal", lambda m, z: m.abs(m.mean(m.square(z) + 1 / z))),
        ("conj_pow", lambda m, z: m.real(m.conj(z) * z**3).sum()),
    ]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize(
    ("name", "loss"), _torch_loss_pairs(), ids=[p[0] for p in _torch_loss_pairs()]
)
def test_gradients_match_pytorch(name, loss, dtype):
    torch = pytest.importorskip("torch")
    data = _complex((3, 3), 0.3, 1.5, seed=8).astype(dtype)
    z = framework.to_tensor(data, stop_gradient=False)
    ours = loss(framework, z)
    ours.backward()
    t = torch.tensor(data, requires_grad=True)
    theirs = loss(torch, t)
    theirs.backward()
    rtol = 1e-4 if dtype == "complex64" else 1e-10
    np.testing.assert_allclose(ours.numpy(), theirs.detach().numpy(), rtol=rtol)
    assert z.grad.dtype == np.dtype(dtype)
    np.testing.assert_allclose(z.grad.numpy(), t.grad.numpy(), rtol=rtol, atol=rtol)


# --- parity with Paddle ------------------------------------------------------------------------


def test_result_dtypes_and_values_match_paddle():
    paddle = pytest.importorskip("paddle")
    data = _complex((2, 2), 0.3, 1.5, seed=9).astype(np.complex64)
    real = np.float32([[1.5, -2.0], [0.5, 3.0]])
    cases = [
        ("to_tensor", lambda m: m.to_tensor([1 + 2j, 3.0])),
        ("add_f32", lambda m: m.to_tensor(data) + m.to_tensor(real)),
        ("add_f64", lambda m: m.to_tensor(data) + m.to_tensor(real.astype(np.float64))),
        ("scalar", lambda m: m.to_tensor(real) * 2j),
        ("abs", lambda m: m.abs(m.to_tensor(data))),
        ("angle", lambda m: m.angle(m.to_tensor(data))),
        ("real", lambda m: m.real(m.to_tensor(data))),
        ("imag", lambda m: m.imag(m.to_tensor(data))),
        ("conj", lambda m: m.conj(m.to_tensor(data))),
        ("complex", lambda m: m.complex(m.to_tensor(real), m.to_tensor(real * 2))),
        ("as_real", lambda m: m.as_real(m.to_tensor(data))),
        ("as_complex", lambda m: m.as_complex(m.to_tensor(real))),
        ("exp", lambda m: m.exp(m.to_tensor(data))),
        ("sqrt", lambda m: m.sqrt(m.to_tensor(data))),
        ("tanh", lambda m: m.tanh(m.to_tensor(data))),
        ("pow", lambda m: m.pow(m.to_tensor(data), 3.0)),
        ("divide_int", lambda m: m.divide(m.to_tensor(data), m.to_tensor([2]))),
        ("prod", lambda m: m.prod(m.to_tensor(data))),
        ("mean", lambda m: m.mean(m.to_tensor(data))),
        ("matmul", lambda m: m.matmul(m.to_tensor(data), m.to_tensor(data))),
        ("astype_real", lambda m: m.to_tensor(data).astype("float32")),
        ("astype_complex", lambda m: m.to_tensor(real).astype("complex128")),
        ("full", lambda m: m.full([2], 1 + 1j, dtype="complex64")),
    ]
    for name, make in cases:
        ours, theirs = make(framework), make(paddle)
        assert ours.dtype.name == str(theirs.dtype).removeprefix("paddle."), name
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=2e-6, err_msg=name)


def test_gradients_match_paddle():
    paddle = pytest.importorskip("paddle")
    data = _complex((2, 3), 0.3, 1.5, seed=10).astype(np.complex64)

    def loss(m, z):
        return m.abs(m.exp(z) * m.conj(z) / (z + 2)).sum() + m.angle(z * z).sum()

    z = framework.to_tensor(data, stop_gradient=False)
    loss(framework, z).backward()
    p = paddle.to_tensor(data, stop_gradient=False)
    loss(paddle, p).backward()
    np.testing.assert_allclose(z.grad.numpy(), p.grad.numpy(), rtol=1e-4, atol=1e-5)
