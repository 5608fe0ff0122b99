"""Paddle's top-level odds and ends: dtype objects and aliases, iinfo/finfo, constants, the
typed tensor constructors, Size, Generator/manual_seed, flags, LazyGuard, set_printoptions,
check_shape, disable_signal_handler and the functional aliases, each against real Paddle."""

from __future__ import annotations

import math

import numpy as np
import pytest

import framework


@pytest.fixture
def paddle():
    return pytest.importorskip("paddle")


def _name(dtype) -> str:
    return str(dtype).replace("paddle.", "")


def test_dtype_aliases_and_new_integer_dtypes(paddle):
    for name in ("float", "double", "half", "uint32", "uint64"):
        assert _name(getattr(framework, name)) == _name(getattr(paddle, name)), name
    assert isinstance(framework.float32, framework.dtype)
    assert framework.to_tensor([1], dtype="uint32").dtype == framework.uint32
    assert framework.to_tensor([1.0], dtype=framework.double).dtype == np.float64


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8"])
def test_iinfo_matches_paddle(paddle, dtype):
    ours, theirs = framework.iinfo(getattr(framework, dtype)), paddle.iinfo(getattr(paddle, dtype))
    assert (ours.min, ours.max, ours.bits, ours.dtype) == (
        theirs.min, theirs.max, theirs.bits, str(theirs.dtype))  # fmt: skip


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_finfo_matches_paddle(paddle, dtype):
    ours, theirs = framework.finfo(dtype), paddle.finfo(getattr(paddle, dtype))
    for field in ("min", "max", "eps", "resolution", "smallest_normal", "tiny", "bits"):
        assert getattr(ours, field) == pytest.approx(getattr(theirs, field)), field
    assert ours.dtype == str(theirs.dtype)
    assert "eps=" in repr(ours)


def test_constants(paddle):
    assert framework.pi == paddle.pi == math.pi and framework.e == paddle.e
    assert framework.inf == paddle.inf and math.isnan(framework.nan)
    assert framework.newaxis is None
    x = framework.ones([2, 3])
    assert x[:, framework.newaxis].shape == [2, 1, 3]


@pytest.mark.parametrize(
    "name",
    [
        "FloatTensor",
        "DoubleTensor",
        "HalfTensor",
        "ByteTensor",
        "CharTensor",
        "ShortTensor",
        "IntTensor",
        "LongTensor",
        "BoolTensor",
    ],  # fmt: skip
)
def test_typed_tensor_constructors_match_paddle(paddle, name):
    ours, theirs = getattr(framework, name)([1, 0, 2]), getattr(paddle, name)([1, 0, 2])
    assert _name(ours.dtype) == _name(theirs.dtype)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    assert getattr(framework, name)(2, 3).shape == [2, 3]
    assert getattr(framework, name)().shape == [0]


def test_size_is_a_list_with_numel(paddle):
    size = framework.Size([2, 3, 4])
    assert size == [2, 3, 4] and size.numel() == 24 == paddle.Size([2, 3, 4]).numel()
    assert repr(size) == "paddle.Size([2, 3, 4])"


def test_manual_seed_drives_the_global_generator():
    generator = framework.manual_seed(5)
    assert generator.initial_seed() == 5
    a = framework.rand([3])
    framework.manual_seed(5)
    np.testing.assert_array_equal(a.numpy(), framework.rand([3]).numpy())
    state = generator.get_state()
    b = framework.rand([3])
    generator.set_state(state)
    np.testing.assert_array_equal(b.numpy(), framework.rand([3]).numpy())


def test_a_new_generator_is_an_independent_stream():
    g = framework.Generator().manual_seed(7)
    assert g.initial_seed() == 7
    first = g.rng.random(3)
    g.manual_seed(7)
    np.testing.assert_array_equal(first, g.rng.random(3))
    fresh = g.seed()
    assert g.initial_seed() == fresh


def test_flags_round_trip_and_reject_unknown_names(paddle):
    assert framework.get_flags("FLAGS_check_nan_inf") == paddle.get_flags("FLAGS_check_nan_inf")
    framework.set_flags({"FLAGS_cudnn_deterministic": True})
    assert framework.get_flags(["FLAGS_cudnn_deterministic"]) == {"FLAGS_cudnn_deterministic": True}
    framework.set_flags({"FLAGS_cudnn_deterministic": False})
    with pytest.raises(ValueError):
        framework.get_flags("FLAGS_no_such_flag")
    with pytest.raises(ValueError):
        framework.set_flags({"check_nan_inf": True})


def test_lazy_guard_check_shape_and_signal_handler():
    with framework.LazyGuard():
        layer = framework.nn.Linear(2, 3)
    assert layer.weight.shape == [2, 3]
    assert framework.check_shape([2, 3], "zeros") is None
    assert framework.disable_signal_handler() is None


def test_set_printoptions_changes_the_repr():
    x = framework.to_tensor([1.23456789])
    try:
        framework.set_printoptions(precision=2)
        assert "1.23]" in repr(x)
        framework.set_printoptions(sci_mode=True)
        assert "e+00" in repr(x)
    finally:
        framework.core.printing._reset_printoptions()
    assert "1.23456788" in repr(x)


def test_functional_aliases_are_the_functional_ops():
    functional = framework.nn.functional
    for name in ("conv1d", "conv2d", "conv3d", "group_norm", "layer_norm",
                 "adaptive_avg_pool1d"):  # fmt: skip
        assert getattr(framework, name) is getattr(functional, name)
    # paddle.softmax is Paddle's PyTorch-style softmax(input, dim), not F.softmax(x, axis).
    assert framework.softmax is framework.tensor.compat_softmax.softmax


def test_batch_groups_a_reader_like_paddle(paddle):
    def reader():
        yield from range(5)

    for drop_last in (False, True):
        ours = list(framework.batch(reader, 2, drop_last)())
        assert ours == list(paddle.batch(reader, 2, drop_last)())
    assert list(framework.batch(reader, 2)()) == [[0, 1], [2, 3], [4]]
    with pytest.raises(ValueError):
        framework.batch(reader, 0)


def test_cuda_rng_state_round_trip(paddle):
    states = framework.get_cuda_rng_state()
    assert len(states) == framework.device_count()
    if not states:
        assert paddle.get_cuda_rng_state() == [] or framework.is_compiled_with_cuda()
    framework.set_cuda_rng_state(states)
    with pytest.raises(ValueError):
        framework.set_cuda_rng_state(states + [{}])


def test_restoring_the_cuda_rng_state_repeats_the_draws(monkeypatch):
    from framework.core import backend

    monkeypatch.setattr(backend, "device_count", lambda: 1)  # as on a one-GPU machine
    states = framework.get_cuda_rng_state()
    first = framework.nn.functional.dropout(framework.ones([64]), 0.5).numpy()
    framework.set_cuda_rng_state(states)
    np.testing.assert_array_equal(
        framework.nn.functional.dropout(framework.ones([64]), 0.5).numpy(), first
    )


def test_pinned_places_need_their_devices():
    with pytest.raises(RuntimeError, match="XPUPinnedPlace"):
        framework.XPUPinnedPlace()
    if not framework.is_compiled_with_cuda():
        with pytest.raises(RuntimeError, match="CUDAPinnedPlace"):
            framework.CUDAPinnedPlace()
        return
    place = framework.CUDAPinnedPlace()
    assert place.is_cpu_place() and repr(place) == "Place(gpu_pinned)"
    assert framework.to_tensor([1.0], place=place).place.is_cpu_place()
