"""Fixed-mode padding layers (ConstantPad, ReplicationPad, ReflectionPad, CircularPad in 1-3 D,
ZeroPad1D/2D/3D) and their lowercase-d aliases: NumPy reference, gradients, and real Paddle
parity of outputs, dtypes and reprs."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn
from framework.testing import check_backward, check_double_backward

NUMPY_MODES = {"Constant": "constant", "Replication": "edge", "Reflection": "reflect"}
NUMPY_MODES["Circular"] = "wrap"
PADS = {1: [1, 2], 2: [2, 1, 0, 2], 3: [1, 0, 2, 1, 1, 2]}
SHAPES = {1: (2, 3, 4), 2: (1, 2, 3, 4), 3: (1, 2, 3, 3, 4)}
CASES = [(prefix, dims) for prefix in NUMPY_MODES for dims in (1, 2, 3)]


def _layer(module, prefix: str, dims: int, **kwargs):
    cls = getattr(module, f"{prefix}Pad{dims}D")
    if prefix == "Constant":
        return cls(PADS[dims], 0.5, **kwargs)
    return cls(PADS[dims], **kwargs)


def _numpy_pad(x: np.ndarray, prefix: str, dims: int) -> np.ndarray:
    pads = PADS[dims]
    # Paddle's order is last axis first: [left, right, top, bottom, front, back]
    widths = [(0, 0), (0, 0)] + [(pads[2 * i], pads[2 * i + 1]) for i in range(dims)][::-1]
    if prefix == "Constant":
        return np.pad(x, widths, mode="constant", constant_values=0.5)
    return np.pad(x, widths, mode=NUMPY_MODES[prefix])


def _input(dims: int, dtype=np.float32) -> np.ndarray:
    return np.random.default_rng(dims).standard_normal(SHAPES[dims]).astype(dtype)


@pytest.mark.parametrize("prefix, dims", CASES)
def test_it_matches_numpy_and_has_gradients(prefix, dims):
    x = _input(dims)
    layer = _layer(nn, prefix, dims)
    np.testing.assert_array_equal(
        layer(framework.to_tensor(x)).numpy(), _numpy_pad(x, prefix, dims)
    )
    check_backward(layer, [x.astype(np.float64)])
    if dims == 1:
        check_double_backward(lambda t: layer(t * t), [x.astype(np.float64)])


@pytest.mark.parametrize("prefix, dims", CASES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_it_matches_paddle(prefix, dims, dtype):
    paddle = pytest.importorskip("paddle")
    x = _input(dims, dtype)
    ours, theirs = _layer(nn, prefix, dims), _layer(paddle.nn, prefix, dims)
    got, want = ours(framework.to_tensor(x)), theirs(paddle.to_tensor(x))
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1] == dtype
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_zero_pad_matches_paddle_in_channel_last_layout(dims):
    paddle = pytest.importorskip("paddle")
    fmt = {1: "NLC", 2: "NHWC", 3: "NDHWC"}[dims]
    x = _input(dims)
    ours = getattr(nn, f"ZeroPad{dims}D")(PADS[dims], data_format=fmt)
    theirs = getattr(paddle.nn, f"ZeroPad{dims}D")(PADS[dims], data_format=fmt)
    np.testing.assert_array_equal(
        ours(framework.to_tensor(x)).numpy(), theirs(paddle.to_tensor(x)).numpy()
    )
    assert repr(ours) == repr(theirs)


def test_an_int_padding_pads_every_side_and_a_name_shows_in_the_repr():
    layer = nn.ReplicationPad2D(1, name="edge")
    assert layer.padding == [1, 1, 1, 1]
    assert layer(framework.ones([1, 1, 2, 2])).shape == [1, 1, 4, 4]
    assert "name=edge" in repr(layer)


def test_lowercase_aliases_are_the_same_classes():
    for prefix in ("Constant", "Replication", "Reflection", "Circular", "Zero"):
        for dims in (1, 2, 3):
            assert getattr(nn, f"{prefix}Pad{dims}d") is getattr(nn, f"{prefix}Pad{dims}D")


@pytest.mark.parametrize("fmt", ["NCHW", "NHWC"])
def test_functional_zeropad2d_matches_paddle_and_has_gradients(fmt):
    paddle = pytest.importorskip("paddle")
    x = _input(2)
    ours = framework.nn.functional.zeropad2d(framework.to_tensor(x), PADS[2], fmt)
    theirs = paddle.nn.functional.zeropad2d(paddle.to_tensor(x), PADS[2], fmt)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    assert framework.nn.functional.zeropad2d(framework.to_tensor(x), 1).shape == [1, 2, 5, 6]
    check_backward(lambda t: framework.nn.functional.zeropad2d(t, PADS[2], fmt), [x])
