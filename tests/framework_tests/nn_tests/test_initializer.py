"""Initializers: Paddle's defaults, fan computation, distributions, ParamAttr, seeding."""

from __future__ import annotations

import math

import numpy as np
import pytest

import framework
from framework import nn
from framework.nn import initializer as init


def draw(initializer, shape, dtype="float32"):
    return framework.create_parameter(shape, dtype, default_initializer=initializer).numpy()


@pytest.mark.parametrize(
    "shape, fans",
    [
        ([], (1, 1)),
        ([7], (7, 7)),
        ([20, 30], (20, 30)),
        ([8, 4, 3, 3], (36, 72)),
        ([6, 2, 5], (10, 30)),
    ],
)
def test_fans_follow_paddle(shape, fans):
    assert init.compute_fans(shape) == fans


def test_constant_and_assign():
    np.testing.assert_array_equal(draw(init.Constant(2.5), [2, 3]), np.full([2, 3], 2.5))
    value = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(draw(init.Assign(value), [2, 3]), value)
    np.testing.assert_array_equal(draw(init.Assign(framework.to_tensor(value)), [2, 3]), value)
    np.testing.assert_array_equal(draw(init.Assign(value.tolist()), [3, 2]), value.reshape(3, 2))
    with pytest.raises(ValueError, match=r"shape \[2, 3\].*\[4\]"):
        draw(init.Assign(value), [4])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_normal_and_uniform_statistics(dtype):
    normal = draw(init.Normal(mean=1.0, std=2.0), [200, 200], dtype)
    assert normal.dtype == np.dtype(dtype)
    assert abs(normal.mean() - 1.0) < 0.03 and abs(normal.std() - 2.0) < 0.03
    uniform = draw(init.Uniform(low=-0.5, high=1.5), [200, 200], dtype)
    assert uniform.min() >= -0.5 and uniform.max() < 1.5
    assert abs(uniform.mean() - 0.5) < 0.01


def test_truncated_normal_uses_absolute_bounds():
    values = draw(init.TruncatedNormal(mean=1.0, std=2.0, a=-1.0, b=0.5), [100, 100])
    assert values.min() >= -1.0 and values.max() <= 0.5
    standard = draw(init.TruncatedNormal(), [200, 200])
    assert standard.min() >= -2.0 and standard.max() <= 2.0
    # The std of N(0, 1) truncated to [-2, 2] is 0.8796.
    assert abs(standard.std() - 0.8796) < 0.01


@pytest.mark.parametrize(
    "initializer, shape, bound",
    [
        (init.XavierUniform(), [30, 50], math.sqrt(6.0 / 80)),
        (init.XavierUniform(gain=2.0), [30, 50], 2.0 * math.sqrt(6.0 / 80)),
        (init.XavierUniform(fan_in=10, fan_out=10), [30, 50], math.sqrt(6.0 / 20)),
        (init.KaimingUniform(), [16, 8, 3, 3], math.sqrt(2.0) * math.sqrt(3.0 / 72)),
        (init.KaimingUniform(mode="fan_out"), [16, 8, 3, 3], math.sqrt(2.0) * math.sqrt(3.0 / 144)),
        (
            init.KaimingUniform(negative_slope=0.2, nonlinearity="leaky_relu"),
            [40, 60],
            math.sqrt(2.0 / 1.04) * math.sqrt(3.0 / 40),
        ),
    ],
)
def test_uniform_families_fill_their_whole_range(initializer, shape, bound):
    values = draw(initializer, shape)
    assert np.abs(values).max() <= bound
    assert np.abs(values).max() > 0.97 * bound


@pytest.mark.parametrize(
    "initializer, shape, std",
    [
        (init.XavierNormal(), [300, 200], math.sqrt(2.0 / 500)),
        (init.KaimingNormal(), [64, 32, 3, 3], math.sqrt(2.0) / math.sqrt(288)),
        (init.KaimingNormal(fan_in=50), [300, 100], math.sqrt(2.0) / math.sqrt(50)),
        (init.KaimingNormal(nonlinearity="tanh"), [400, 100], (5.0 / 3) / math.sqrt(400)),
    ],
)
def test_normal_families_have_the_right_std(initializer, shape, std):
    values = draw(initializer, shape)
    assert abs(values.std() / std - 1.0) < 0.03
    assert abs(values.mean()) < 0.05 * std


def test_kaiming_rejects_bad_modes():
    with pytest.raises(ValueError, match="fan_in' or 'fan_out"):
        init.KaimingNormal(mode="both")
    with pytest.raises(ValueError, match="Please set fan_in to None"):
        init.KaimingUniform(fan_in=3, mode="fan_out")


def test_calculate_gain_matches_paddle():
    assert init.calculate_gain("tanh") == pytest.approx(5.0 / 3)
    assert init.calculate_gain("relu") == pytest.approx(math.sqrt(2.0))
    assert init.calculate_gain("leaky_relu") == pytest.approx(math.sqrt(2.0 / (1 + 0.01**2)))
    assert init.calculate_gain("leaky_relu", 1.0) == pytest.approx(1.0)
    assert init.calculate_gain("conv2d") == 1.0
    with pytest.raises(ValueError, match="not supported"):
        init.calculate_gain("swishy")


def test_initializer_fills_an_existing_parameter_in_place():
    param = framework.create_parameter([3, 3], "float32")
    data_id = id(param)
    assert init.Constant(4.0)(param) is param and id(param) == data_id
    np.testing.assert_array_equal(param.numpy(), np.full([3, 3], 4.0))


def test_seed_reproduces_every_initializer_bit_for_bit():
    initializers = [
        init.Normal(),
        init.TruncatedNormal(),
        init.Uniform(),
        init.XavierNormal(),
        init.XavierUniform(),
        init.KaimingNormal(),
        init.KaimingUniform(),
    ]
    framework.seed(123)
    first = [draw(i, [5, 4, 3]) for i in initializers]
    framework.seed(123)
    second = [draw(i, [5, 4, 3]) for i in initializers]
    for a, b in zip(first, second, strict=True):
        assert a.tobytes() == b.tobytes()
    assert first[0].tobytes() != draw(initializers[0], [5, 4, 3]).tobytes()


def test_param_attr_forms_accepted_by_layers():
    layer = nn.Layer()
    by_name = layer.create_parameter([2], attr="my_weight")
    assert by_name.name == "my_weight"
    by_init = layer.create_parameter([2], attr=init.Constant(7.0))
    np.testing.assert_array_equal(by_init.numpy(), [7.0, 7.0])
    attr = framework.ParamAttr(initializer=init.Constant(1.0), regularizer="L2", need_clip=False)
    full = layer.create_parameter([2], attr=attr)
    assert full.regularizer == "L2" and full.need_clip is False
    with pytest.raises(TypeError, match="Initializer"):
        framework.ParamAttr(initializer="normal")


def test_param_attr_initializer_beats_the_layer_default():
    attr = framework.ParamAttr(initializer=init.Constant(0.5))
    value = framework.create_parameter([2], "float32", attr=attr, default_initializer=init.Normal())
    np.testing.assert_array_equal(value.numpy(), [0.5, 0.5])


def test_global_initializer_applies_until_reset():
    init.set_global_initializer(init.Constant(0.25), init.Constant(-1.0))
    try:
        layer = nn.Layer()
        np.testing.assert_array_equal(layer.create_parameter([2]).numpy(), [0.25, 0.25])
        np.testing.assert_array_equal(layer.create_parameter([2], is_bias=True).numpy(), [-1, -1])
        explicit = layer.create_parameter(
            [2], attr=framework.ParamAttr(initializer=init.Constant(3))
        )
        np.testing.assert_array_equal(explicit.numpy(), [3.0, 3.0])
    finally:
        init.set_global_initializer(None)
    assert np.abs(nn.Layer().create_parameter([50]).numpy()).max() != 0.25


def test_integer_parameters_need_an_explicit_initializer():
    with pytest.raises(TypeError, match="default initializer"):
        framework.create_parameter([2], "int64")
    ints = framework.create_parameter([2], "int64", default_initializer=init.Constant(3))
    assert ints.dtype == np.int64


@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (8, 2, 3, 3)], ids=str)
def test_orthogonal_rows_or_columns_are_orthonormal(shape):
    values = draw(init.Orthogonal(gain=2.0), list(shape), "float64")
    flat = values.reshape(shape[0], -1) / 2.0
    small = min(flat.shape)
    gram = flat @ flat.T if flat.shape[0] == small else flat.T @ flat
    np.testing.assert_allclose(gram, np.eye(small), atol=1e-10)
    with pytest.raises(ValueError, match="2 or more dimensions"):
        draw(init.Orthogonal(), [5])


def test_dirac_makes_a_convolution_start_as_the_identity():
    torch = pytest.importorskip("torch")
    weight = draw(init.Dirac(), [4, 4, 3, 3])
    x = np.random.default_rng(0).standard_normal((1, 4, 5, 5)).astype(np.float32)
    out = torch.nn.functional.conv2d(torch.tensor(x), torch.tensor(weight), padding=1)
    np.testing.assert_allclose(out.numpy(), x)
    grouped = draw(init.Dirac(groups=2), [4, 3, 3])
    assert grouped[0, 0, 1] == grouped[1, 1, 1] == grouped[2, 0, 1] == grouped[3, 1, 1] == 1
    assert grouped.sum() == 4
    with pytest.raises(ValueError, match="divisible by groups"):
        draw(init.Dirac(groups=3), [4, 3, 3])
