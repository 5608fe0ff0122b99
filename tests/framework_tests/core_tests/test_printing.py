"""Tensors print exactly as Paddle 3 prints them (issue 24), checked against real Paddle on a few
hundred generated cases: every dtype (complex64/128 included), 0-d to 4-d, empty, summarised,
inf/nan, values that need many digits, and each `set_printoptions` option; plus `Size`,
Parameters and `__format__`."""

from __future__ import annotations

import json
import zlib

import numpy as np
import pytest

import framework
from framework.core.printing import _reset_printoptions

DTYPES = [
    "float16",
    "float32",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "bool",
    "complex64",
    "complex128",
]
SHAPES = [
    (),
    (0,),
    (1,),
    (5,),
    (7,),
    (2, 3),
    (0, 3),
    (3, 0),
    (2, 0, 2),
    (2, 3, 4),
    (1, 2, 3, 4),
    (10, 20),
    (2000,),
    (3, 400),
    (2, 3, 200),
    (7, 1, 9, 2),
]
KINDS = ["normal", "integers", "special", "wide", "negative"]
OPTIONS = [
    {},
    {"precision": 3},
    {"precision": 0},
    {"sci_mode": True},
    {"sci_mode": True, "precision": 2},
    {"threshold": 10, "edgeitems": 2},
    {"threshold": 10, "edgeitems": 0},
    {"linewidth": 40},
    {"linewidth": 1},
    {"edgeitems": 1},
]


def _values(dtype: str, shape: tuple, kind: str, seed: int) -> np.ndarray:
    """Data of `kind`: `special` mixes inf/nan/-0 into floats, `wide` spans magnitudes from
    1e-12 to 1e12 (floats) or the dtype's whole range (ints)."""
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) > 0.5
    if dtype.startswith("complex"):
        # Parts drawn as floats of the same kind; `negative` makes both parts negative, and
        # `special` puts inf/nan/-0 in either part (Paddle writes a nan imaginary part `nanj`).
        part = "float32" if dtype == "complex64" else "float64"
        values = np.empty(shape, dtype)
        # Assigned part by part: `re + 1j * inf` would turn the real part into nan.
        values.real = _values(part, shape, kind, seed)
        values.imag = _values(part, shape, kind, seed + 1)
        return values
    if dtype.startswith("float"):
        values = {
            "normal": rng.standard_normal(shape),
            "integers": rng.integers(-50, 50, shape).astype(float),
            "wide": rng.standard_normal(shape) * 10.0 ** rng.integers(-12, 12, shape),
            "negative": -rng.random(shape) - 0.5,
            "special": rng.standard_normal(shape),
        }[kind]
        if kind == "special" and values.size:
            flat = values.reshape(-1)
            flat[rng.integers(0, flat.size, max(1, flat.size // 3))] = rng.choice(
                [np.inf, -np.inf, np.nan, -0.0, 0.0, 1e20]
            )
        with np.errstate(over="ignore"):
            return values.astype(dtype)
    info = np.iinfo(dtype)
    low, high = {
        "wide": (info.min, info.max),
        "negative": (max(info.min, -1000), 0) if info.min < 0 else (0, 10),
    }.get(kind, (max(info.min, -20), min(info.max, 20)))
    return rng.integers(low, high, shape, dtype=dtype, endpoint=True)


def _cases() -> list:
    cases = []
    for i, dtype in enumerate(DTYPES):
        for j, shape in enumerate(SHAPES):
            kind = KINDS[(i + j) % len(KINDS)]
            cases.append(pytest.param(dtype, shape, kind, {}, id=f"{dtype}-{shape}-{kind}"))
    # Every option against every dtype, on shapes where wrapping and summarising show.
    for k, options in enumerate(OPTIONS[1:]):
        for i, dtype in enumerate(DTYPES):
            for shape in [(), (7,), (4, 9), (2, 3, 30)]:
                kind = KINDS[(i + k) % len(KINDS)]
                name = f"{dtype}-{shape}-{kind}-" + ",".join(f"{a}={b}" for a, b in options.items())
                cases.append(pytest.param(dtype, shape, kind, options, id=name))
    return cases


@pytest.fixture
def paddle():
    paddle = pytest.importorskip("paddle")
    yield paddle
    paddle.set_printoptions(precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80)


@pytest.fixture(autouse=True)
def _default_printoptions():
    yield
    _reset_printoptions()


@pytest.mark.parametrize(("dtype", "shape", "kind", "options"), _cases())
def test_it_prints_like_paddle(paddle, dtype, shape, kind, options):
    # An array even when 0-d: a NumPy float64 scalar is a Python float, which the framework
    # (unlike Paddle) reads as the default dtype; that is to_tensor's business, not printing's.
    values = np.asarray(
        _values(dtype, shape, kind, seed=zlib.crc32(f"{dtype}{shape}{kind}".encode()))
    )
    paddle.set_printoptions(**options)
    framework.set_printoptions(**options)
    theirs, ours = paddle.to_tensor(values), framework.to_tensor(values)
    assert str(ours) == str(theirs)
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("stop_gradient", [True, False])
def test_it_prints_stop_gradient_and_parameters_like_paddle(paddle, stop_gradient):
    values = np.array([[0.5, -1.25], [3.0, 1e-3]], dtype=np.float32)
    theirs = paddle.to_tensor(values, stop_gradient=stop_gradient)
    ours = framework.to_tensor(values, stop_gradient=stop_gradient)
    assert str(ours) == str(theirs)
    their_parameter = paddle.create_parameter(
        [2, 2], "float32", default_initializer=paddle.nn.initializer.Assign(values)
    )
    our_parameter = framework.create_parameter(
        [2, 2], "float32", default_initializer=framework.nn.initializer.Assign(values)
    )
    assert str(our_parameter) == str(their_parameter)
    assert str(our_parameter).startswith("Parameter containing:\nTensor(shape=[2, 2]")


def test_a_list_of_tensors_prints_like_paddle(paddle):
    values = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert str(list(framework.to_tensor(values))) == str(list(paddle.to_tensor(values)))


def test_the_place_is_in_the_header():
    text = repr(framework.ones([1]))
    assert text.startswith("Tensor(shape=[1], dtype=float32, place=Place(cpu), stop_gradient=True")


@pytest.mark.gpu
def test_a_gpu_tensor_names_its_device():
    assert "place=Place(gpu:0)" in repr(framework.ones([2]).cuda())


def test_defaults_are_paddles():
    x = framework.to_tensor([0.123456789, 2.0, -1.0], dtype="float64")
    # The widest element fills its width exactly, so it gets no sign space (Paddle's rule).
    assert repr(x).endswith("[0.12345679,  2.       , -1.       ])")
    assert "..." in repr(framework.zeros([1001])) and "..." not in repr(framework.zeros([1000]))


def test_options_change_and_keep_until_changed():
    x = framework.to_tensor([1.23456789], dtype="float64")
    framework.set_printoptions(precision=2)
    framework.set_printoptions(linewidth=50)  # None keeps the precision set before
    assert repr(x).endswith("[1.23])")
    framework.set_printoptions(sci_mode=True)
    assert repr(x).endswith("[1.23e+00])")


@pytest.mark.parametrize(
    "options",
    [{"precision": 2.0}, {"threshold": "10"}, {"edgeitems": 1.5}, {"sci_mode": 1}],
)
def test_it_rejects_options_of_the_wrong_type(options):
    with pytest.raises(TypeError, match=next(iter(options))):
        framework.set_printoptions(**options)
    assert repr(framework.to_tensor([0.5])).endswith("[0.50000000])")  # nothing changed


def test_shape_is_a_size_that_still_behaves_as_a_list(paddle):
    x = framework.ones([2, 3])
    their_shape = paddle.ones([2, 3]).shape
    assert repr(x.shape) == str(x.shape) == repr(their_shape) == "paddle.Size([2, 3])"
    assert isinstance(x.shape, list) and isinstance(their_shape, list)
    assert x.shape == [2, 3] == their_shape and x.shape == (2, 3) == their_shape
    assert x.shape != [3, 2] and x.shape != (2, 3, 1)
    assert x.shape[0] == 2 and list(x.shape) == [2, 3] and tuple(x.shape) == (2, 3)
    assert json.dumps(x.shape) == "[2, 3]"
    assert repr(x.shape + [4]) == repr(their_shape + [4]) == "paddle.Size([2, 3, 4])"
    assert repr([1] + x.shape) == repr([1] + their_shape)
    assert x.shape.numel() == 6 and framework.to_tensor(1.0).shape.numel() == 1
    assert repr(framework.to_tensor(1.0).shape) == "paddle.Size([])"
    grown = x.shape
    grown.append(4)
    assert x.shape == [2, 3]  # each read is a fresh Size: mutating one leaves the tensor alone
    with pytest.raises(TypeError):
        hash(x.shape)


def test_a_0d_tensor_formats_as_its_number(paddle):
    for spec in ("", ".3f", ">8.2e"):
        assert format(framework.to_tensor(0.5), spec) == format(paddle.to_tensor(0.5), spec)
    assert f"{framework.to_tensor([1, 2])}" == str(framework.to_tensor([1, 2]))
    with pytest.raises(TypeError):
        format(framework.to_tensor([1.0, 2.0]), ".3f")
