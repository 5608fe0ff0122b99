"""Activations (functional and layers): NumPy references, float64 gradient checks (first and
second order), PyTorch parity in float32, layer wrappers and their reprs."""

from __future__ import annotations

import math

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.testing import check_backward, check_double_backward

erf = np.vectorize(math.erf, otypes=[np.float64])


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def softplus(x, beta=1.0, threshold=20.0):
    return np.where(beta * x > threshold, x, np.log1p(np.exp(beta * x)) / beta)


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True, initial=-np.inf))
    return e / e.sum(axis=axis, keepdims=True)


SELU_SCALE, SELU_ALPHA = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717

# name -> (framework function, NumPy reference, PyTorch function name or callable)
CASES = {
    "relu": (F.relu, lambda x: np.maximum(x, 0), "relu"),
    "relu6": (F.relu6, lambda x: np.clip(x, 0, 6), "relu6"),
    "leaky_relu": (
        lambda x: F.leaky_relu(x, 0.2),
        lambda x: np.where(x > 0, x, 0.2 * x),
        lambda t, x: t.nn.functional.leaky_relu(x, 0.2),
    ),
    "elu": (
        lambda x: F.elu(x, 0.7),
        lambda x: np.where(x > 0, x, 0.7 * np.expm1(x)),
        lambda t, x: t.nn.functional.elu(x, 0.7),
    ),
    "selu": (
        F.selu,
        lambda x: SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(x)),
        "selu",
    ),
    "celu": (
        lambda x: F.celu(x, 1.5),
        lambda x: np.maximum(x, 0) + np.minimum(0, 1.5 * np.expm1(x / 1.5)),
        lambda t, x: t.nn.functional.celu(x, 1.5),
    ),
    "gelu": (F.gelu, lambda x: 0.5 * x * (1 + erf(x / math.sqrt(2))), "gelu"),
    "gelu_tanh": (
        lambda x: F.gelu(x, approximate=True),
        lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))),
        lambda t, x: t.nn.functional.gelu(x, approximate="tanh"),
    ),
    "silu": (F.silu, lambda x: x * sigmoid(x), "silu"),
    "swish": (F.swish, lambda x: x * sigmoid(x), "silu"),
    "sigmoid": (F.sigmoid, sigmoid, "sigmoid"),
    "log_sigmoid": (F.log_sigmoid, lambda x: -np.log1p(np.exp(-x)), "logsigmoid"),
    "tanh": (F.tanh, np.tanh, "tanh"),
    "hardswish": (F.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6, "hardswish"),
    "hardsigmoid": (
        F.hardsigmoid,
        lambda x: np.clip(x * 0.1666667 + 0.5, 0, 1),
        lambda t, x: t.clamp(x * 0.1666667 + 0.5, 0, 1),
    ),
    "hardtanh": (
        lambda x: F.hardtanh(x, -0.5, 1.5),
        lambda x: np.clip(x, -0.5, 1.5),
        lambda t, x: t.nn.functional.hardtanh(x, -0.5, 1.5),
    ),
    "hardshrink": (F.hardshrink, lambda x: np.where(np.abs(x) > 0.5, x, 0), "hardshrink"),
    "softshrink": (
        F.softshrink,
        lambda x: np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0)),
        "softshrink",
    ),
    "thresholded_relu": (
        lambda x: F.thresholded_relu(x, 0.3, 0.1),
        lambda x: np.where(x > 0.3, x, 0.1),
        lambda t, x: t.nn.functional.threshold(x, 0.3, 0.1),
    ),
    "tanhshrink": (F.tanhshrink, lambda x: x - np.tanh(x), "tanhshrink"),
    "softsign": (F.softsign, lambda x: x / (1 + np.abs(x)), "softsign"),
    "softplus": (
        lambda x: F.softplus(x, 2.0, 3.0),
        lambda x: softplus(x, 2.0, 3.0),
        lambda t, x: t.nn.functional.softplus(x, 2.0, 3.0),
    ),
    "mish": (F.mish, lambda x: x * np.tanh(softplus(x)), "mish"),
    "softmax": (F.softmax, softmax, lambda t, x: t.softmax(x, -1)),
    "softmax_axis0": (
        lambda x: F.softmax(x, axis=0),
        lambda x: softmax(x, 0),
        lambda t, x: t.softmax(x, 0),
    ),
    "log_softmax": (
        F.log_softmax,
        lambda x: np.log(softmax(x)),
        lambda t, x: t.log_softmax(x, -1),
    ),
}

# Kinks: every point where some activation is not differentiable.
KINKS = np.array([0.0, 0.5, -0.5, 0.3, 1.5, 3.0, -3.0, 6.0, 1.5])


def away_from_kinks(shape, scale=2.5, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) * scale
    near = np.abs(x[..., None] - KINKS).min(axis=-1) < 0.05
    return np.where(near, x + 0.1, x)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 5), (0, 3)], ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_forward_matches_numpy(name, shape, dtype):
    function, reference, _ = CASES[name]
    x = away_from_kinks(shape).astype(dtype)
    out = function(framework.to_tensor(x))
    assert out.dtype == np.dtype(dtype) and out.shape == list(shape)
    rtol = 1e-5 if dtype == "float32" else 1e-10
    np.testing.assert_allclose(out.numpy(), reference(x.astype(np.float64)), rtol=rtol, atol=rtol)


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradients_in_float64(name):
    function = CASES[name][0]
    x = away_from_kinks((3, 4), seed=1)
    check_backward(function, [x])
    check_double_backward(function, [x])


@pytest.mark.parametrize("name", sorted(CASES))
def test_forward_and_gradient_match_pytorch(name):
    torch = pytest.importorskip("torch")
    function, _, torch_function = CASES[name]
    if isinstance(torch_function, str):
        name_ = torch_function
        torch_function = lambda t, x: getattr(t.nn.functional, name_)(x)  # noqa: E731
    x = away_from_kinks((4, 6), seed=2).astype(np.float32)
    g = np.random.default_rng(3).standard_normal((4, 6)).astype(np.float32)
    ours = framework.to_tensor(x, stop_gradient=False)
    out = function(ours)
    out.backward(framework.to_tensor(g))
    theirs = torch.tensor(x, requires_grad=True)
    expected = torch_function(torch, theirs)
    expected.backward(torch.tensor(g))
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-4, atol=1e-6)


def test_sigmoid_and_softmax_do_not_overflow_on_extreme_inputs():
    x = framework.to_tensor(np.array([[-1000.0, 0.0, 1000.0]], np.float32))
    np.testing.assert_allclose(F.sigmoid(x).numpy(), [[0.0, 0.5, 1.0]])
    np.testing.assert_allclose(F.softmax(x).numpy(), [[0.0, 0.0, 1.0]])
    np.testing.assert_allclose(F.log_softmax(x).numpy(), [[-2000.0, -1000.0, 0.0]])
    np.testing.assert_allclose(F.log_sigmoid(x).numpy(), [[-1000.0, -np.log(2), 0.0]], rtol=1e-6)
    np.testing.assert_allclose(F.softplus(x).numpy(), [[0.0, np.log(2), 1000.0]], rtol=1e-6)


def test_softmax_dtype_argument_casts_first():
    x = framework.to_tensor(np.array([[1.0, 2.0]], np.float32))
    assert F.softmax(x, dtype="float64").dtype == np.float64
    assert F.log_softmax(x, dtype="float64").dtype == np.float64


def test_gelu_rejects_an_unknown_approximation():
    with pytest.raises(ValueError, match="approximate"):
        F.gelu(framework.to_tensor([1.0]), approximate="erf")


@pytest.mark.parametrize(
    "data_format, shape, channels",
    [
        ("NCHW", (2, 3, 4, 5), 3),
        ("NHWC", (2, 4, 5, 3), 3),
        ("NCL", (2, 3, 7), 3),
        ("NC", (4, 3), 3),
    ],
)
def test_prelu_with_one_slope_per_channel(data_format, shape, channels):
    x = away_from_kinks(shape, seed=4)
    w = np.array([0.1, 0.2, 0.3])[:channels]
    axis = 1 if data_format[1] == "C" else len(shape) - 1
    view = [1] * len(shape)
    view[axis] = channels
    expected = np.where(x > 0, x, x * w.reshape(view))
    out = F.prelu(framework.to_tensor(x), framework.to_tensor(w), data_format=data_format)
    np.testing.assert_allclose(out.numpy(), expected)
    check_backward(lambda a, b: F.prelu(a, b, data_format=data_format), [x, w])


def test_prelu_gradients_twice_with_a_shared_slope():
    x = away_from_kinks((3, 4), seed=5)
    check_double_backward(lambda a, b: F.prelu(a, b), [x, np.array([0.25])])
    check_double_backward(
        lambda a, b: F.prelu(a, b), [x.reshape(3, 4, 1), np.array([0.1, 0.2, 0.3, 0.4])]
    )


def test_prelu_rejects_a_channel_count_mismatch():
    x = framework.to_tensor(np.zeros((2, 3, 4), np.float32))
    with pytest.raises(ValueError, match=r"2 slopes but the input has 3 channels"):
        F.prelu(x, framework.to_tensor(np.ones(2, np.float32)))


def test_prelu_layer_matches_pytorch_including_the_slope_gradient():
    torch = pytest.importorskip("torch")
    layer = nn.PReLU(num_parameters=3, init=0.1)
    assert list(layer.state_dict()) == ["_weight"]
    np.testing.assert_allclose(layer._weight.numpy(), [0.1, 0.1, 0.1])
    x = away_from_kinks((2, 3, 4, 4), seed=6).astype(np.float32)
    ours = framework.to_tensor(x, stop_gradient=False)
    layer(ours).backward(framework.to_tensor(np.ones_like(x)))
    reference = torch.nn.PReLU(3, init=0.1)
    theirs = torch.tensor(x, requires_grad=True)
    reference(theirs).sum().backward()
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-5)
    np.testing.assert_allclose(layer._weight.grad.numpy(), reference.weight.grad.numpy(), rtol=1e-4)


LAYERS = [
    (nn.ReLU(), F.relu, "ReLU()"),
    (nn.ReLU6(), F.relu6, "ReLU6()"),
    (nn.LeakyReLU(0.2), lambda x: F.leaky_relu(x, 0.2), "LeakyReLU(negative_slope=0.2)"),
    (nn.ELU(0.5), lambda x: F.elu(x, 0.5), "ELU(alpha=0.5)"),
    (nn.CELU(), F.celu, "CELU(alpha=1.0)"),
    (nn.SELU(), F.selu, "SELU(scale=1.0507009873554805, alpha=1.6732632423543772)"),
    (nn.GELU(True), lambda x: F.gelu(x, True), "GELU(approximate=True)"),
    (nn.SiLU(), F.silu, "Silu(inplace=False)"),  # as Paddle prints it
    (nn.Swish(), F.swish, "Swish()"),
    (nn.Sigmoid(), F.sigmoid, "Sigmoid()"),
    (nn.LogSigmoid(), F.log_sigmoid, "LogSigmoid()"),
    (nn.Hardsigmoid(), F.hardsigmoid, "Hardsigmoid()"),
    (nn.Hardswish(), F.hardswish, "Hardswish()"),
    (nn.Hardtanh(-2.0, 2.0), lambda x: F.hardtanh(x, -2.0, 2.0), "Hardtanh(min=-2.0, max=2.0)"),
    (nn.Hardshrink(), F.hardshrink, "Hardshrink(threshold=0.5)"),
    (nn.Softshrink(0.3), lambda x: F.softshrink(x, 0.3), "Softshrink(threshold=0.3)"),
    (nn.ThresholdedReLU(), F.thresholded_relu, "ThresholdedReLU(threshold=1.0, value=0.0)"),
    (nn.Tanh(), F.tanh, "Tanh()"),
    (nn.Tanhshrink(), F.tanhshrink, "Tanhshrink()"),
    (nn.Softsign(), F.softsign, "Softsign()"),
    (nn.Softplus(), F.softplus, "Softplus(beta=1, threshold=20)"),
    (nn.Mish(), F.mish, "Mish()"),
    (nn.Softmax(axis=0), lambda x: F.softmax(x, 0), "Softmax(axis=0)"),
    (nn.LogSoftmax(), F.log_softmax, "LogSoftmax(axis=-1)"),
]


@pytest.mark.parametrize("layer, function, text", LAYERS, ids=[t for _, _, t in LAYERS])
def test_activation_layers_wrap_the_functional_form(layer, function, text):
    x = framework.to_tensor(away_from_kinks((3, 5), seed=7).astype(np.float32))
    np.testing.assert_array_equal(layer(x).numpy(), function(x).numpy())
    assert repr(layer) == text
    assert layer.parameters() == []


def test_relu_backward_does_not_record_when_not_creating_a_graph():
    x = framework.to_tensor(np.array([-1.0, 2.0], np.float32), stop_gradient=False)
    y = F.relu(x)
    (gx,) = framework.grad(y, x, framework.to_tensor(np.ones(2, np.float32)))
    assert gx.stop_gradient and gx.grad_fn is None
    np.testing.assert_array_equal(gx.numpy(), [0.0, 1.0])


@pytest.mark.parametrize(
    "inplace, function",
    [
        (F.relu_, F.relu),
        (F.elu_, F.elu),
        (lambda x: F.leaky_relu_(x, 0.2), lambda x: F.leaky_relu(x, 0.2)),
        (F.hardtanh_, F.hardtanh),
        (F.thresholded_relu_, F.thresholded_relu),
        (F.softmax_, F.softmax),
    ],
    ids=["relu_", "elu_", "leaky_relu_", "hardtanh_", "thresholded_relu_", "softmax_"],
)
def test_inplace_activations_rebind_the_tensor_and_keep_gradients(inplace, function):
    x = away_from_kinks((3, 4), seed=8)
    leaf = framework.to_tensor(x, stop_gradient=False)
    hidden = leaf * 1.0
    assert inplace(hidden) is hidden
    np.testing.assert_allclose(hidden.numpy(), function(framework.to_tensor(x)).numpy())
    hidden.backward(framework.to_tensor(np.ones((3, 4))))
    reference = framework.to_tensor(x, stop_gradient=False)
    function(reference).backward(framework.to_tensor(np.ones((3, 4))))
    np.testing.assert_allclose(leaf.grad.numpy(), reference.grad.numpy())
    with pytest.raises(RuntimeError, match="leaf Tensor"):
        inplace(framework.to_tensor(x, stop_gradient=False))


@pytest.mark.parametrize("name", sorted(CASES))
def test_float16_stays_float16_forward_and_backward(name):
    function, reference, _ = CASES[name]
    x = away_from_kinks((3, 4), scale=1.5, seed=9).astype(np.float16)
    ours = framework.to_tensor(x, stop_gradient=False)
    out = function(ours)
    out.backward(framework.to_tensor(np.ones((3, 4), np.float16)))
    assert out.dtype == np.float16 and ours.grad.dtype == np.float16
    np.testing.assert_allclose(out.numpy(), reference(x.astype(np.float64)), rtol=5e-3, atol=5e-3)


def test_glu_matches_pytorch_and_checks_the_axis():
    torch = pytest.importorskip("torch")
    x = away_from_kinks((3, 6), seed=10).astype(np.float32)
    ours = framework.to_tensor(x, stop_gradient=False)
    theirs = torch.tensor(x, requires_grad=True)
    out, expected = F.glu(ours, axis=-1), torch.nn.functional.glu(theirs, dim=-1)
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-5, atol=1e-7)
    out.backward(framework.to_tensor(np.ones((3, 3), np.float32)))
    expected.backward(torch.ones(3, 3))
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-5, atol=1e-7)
    check_double_backward(lambda a: F.glu(a, axis=0), [away_from_kinks((4, 3), seed=11)])
    np.testing.assert_array_equal(nn.GLU()(ours).numpy(), F.glu(ours).numpy())
    with pytest.raises(ValueError, match="even size"):
        F.glu(framework.to_tensor(np.zeros((2, 3), np.float32)))


@pytest.mark.parametrize("axis", [1, -1])
def test_maxout_takes_the_max_of_consecutive_channels(axis):
    x = away_from_kinks((2, 6, 3, 3), seed=12)
    if axis == -1:
        x = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    out = F.maxout(framework.to_tensor(x), groups=3, axis=axis).numpy()
    if axis == 1:
        expected = x.reshape(2, 2, 3, 3, 3).max(axis=2)
    else:
        expected = x.reshape(2, 3, 3, 2, 3).max(axis=-1)
    np.testing.assert_array_equal(out, expected)
    check_backward(lambda a: F.maxout(a, groups=3, axis=axis), [x])
    assert nn.Maxout(3, axis=axis)(framework.to_tensor(x)).shape == list(expected.shape)
    with pytest.raises(ValueError, match="divisible"):
        F.maxout(framework.to_tensor(x), groups=4, axis=axis)


def test_rrelu_draws_slopes_in_training_and_fixes_them_in_eval():
    x = -np.abs(away_from_kinks((50, 40), seed=13)).astype(np.float32)
    framework.seed(5)
    out = F.rrelu(framework.to_tensor(x), 0.1, 0.3).numpy()
    slopes = out / x
    assert slopes.min() >= 0.1 - 1e-6 and slopes.max() <= 0.3 + 1e-6 and slopes.std() > 0.03
    framework.seed(5)
    np.testing.assert_array_equal(F.rrelu(framework.to_tensor(x), 0.1, 0.3).numpy(), out)
    layer = nn.RReLU(0.1, 0.3)
    layer.eval()
    np.testing.assert_allclose(layer(framework.to_tensor(x)).numpy(), 0.2 * x, rtol=1e-6)
    positive = framework.to_tensor(np.abs(x), stop_gradient=False)
    F.rrelu(positive).backward(framework.to_tensor(np.ones_like(x)))
    np.testing.assert_array_equal(positive.grad.numpy(), np.ones_like(x))
    with pytest.raises(ValueError, match="upper"):
        F.rrelu(framework.to_tensor(x), 0.3, 0.1)
