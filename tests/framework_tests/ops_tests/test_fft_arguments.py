"""`paddle.fft` argument errors: the same exception and message as real Paddle for bad norm,
n, s, axis and axes, and clear errors where Paddle 3.3 aborts the process (a repeated axis, no
axes, a 0-d input) or has no kernel (bool, float16, integers into irfft)."""

from __future__ import annotations

import numpy as np
import pytest

import framework

paddle = pytest.importorskip("paddle")

DATA = np.random.default_rng(5).normal(size=(3, 4, 5))

BAD_CALLS = [
    ("fft", {"norm": "xx"}),
    ("ifft", {"norm": None}),
    ("rfft", {"n": 0}),
    ("irfft", {"n": -1}),
    ("hfft", {"n": 2.0}),
    ("ihfft", {"n": np.int64(3)}),
    ("fft", {"axis": 3}),
    ("ifft", {"axis": -4}),
    ("rfft", {"axis": 1.0}),
    ("irfft", {"axis": [1]}),
    ("fftn", {"s": 3}),
    ("ifftn", {"s": [2, 2, 2, 2]}),
    ("rfftn", {"s": [2, 0]}),
    ("irfftn", {"s": [2, 3], "axes": [0]}),
    ("hfftn", {"axes": 1}),
    ("ihfftn", {"axes": [0, 5]}),
    ("fftn", {"axes": [0, 1, 2, 0]}),
    ("fft2", {"s": [1, 2, 3]}),
    ("ifft2", {"axes": [1]}),
    ("rfft2", {"axes": 1}),
    ("irfft2", {"s": [3]}),
    ("hfft2", {"norm": "Ortho"}),
    ("ihfft2", {"axes": (0, 3)}),
]


def _error_of(function, *args, **kwargs) -> Exception:
    try:
        function(*args, **kwargs)
    except Exception as error:  # whatever each side raises is compared by the caller
        return error
    raise AssertionError(f"{function.__name__}{args} {kwargs} raised nothing")


@pytest.mark.parametrize(("name", "kwargs"), BAD_CALLS)
def test_bad_arguments_raise_what_paddle_raises(name, kwargs):
    data = DATA + 1j * DATA if name in ("irfft", "hfft", "irfftn", "hfftn") else DATA
    theirs = _error_of(getattr(paddle.fft, name), paddle.to_tensor(data), **kwargs)
    ours = _error_of(getattr(framework.fft, name), framework.to_tensor(data), **kwargs)
    assert type(ours) is type(theirs) is ValueError
    # Paddle's message for a non-sequence `s` prints a literal "{}" (a missing f-string prefix);
    # ours names the value.
    assert str(ours) == str(theirs).replace("s({})", f"s({kwargs.get('s')})")


def test_two_dim_transforms_need_two_dims_as_in_paddle():
    for name in ("fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2"):
        theirs = _error_of(getattr(paddle.fft, name), paddle.to_tensor([1.0, 2.0]))
        ours = _error_of(getattr(framework.fft, name), framework.to_tensor([1.0, 2.0]))
        assert type(ours) is type(theirs) is ValueError and str(ours) == str(theirs)


def test_frequencies_refuse_zero_as_paddle_does():
    for name in ("fftfreq", "rfftfreq"):
        for args in ((0,), (5, 0.0)):
            theirs = _error_of(getattr(paddle.fft, name), *args)
            ours = _error_of(getattr(framework.fft, name), *args)
            assert type(ours) is type(theirs) is ValueError and str(ours) == str(theirs)


# Paddle 3.3 aborts or segfaults the whole process on these; the framework raises instead.
def test_a_repeated_axis_is_a_clear_error():
    with pytest.raises(ValueError, match=r"FFT axes \[1, -2\] contains a repeated axis"):
        framework.fft.fftn(framework.to_tensor(DATA), axes=[1, -2])


def test_no_axes_to_transform_is_a_clear_error():
    x = framework.to_tensor(DATA)
    for call in (
        lambda: framework.fft.fftn(x, axes=[]),
        lambda: framework.fft.rfftn(x, s=[]),
        lambda: framework.fft.fftn(framework.to_tensor(1.0)),
    ):
        with pytest.raises(ValueError, match="at least one axis"):
            call()
    with pytest.raises(ValueError, match=r"Invalid FFT axis \(-1\)"):
        framework.fft.fft(framework.to_tensor(1.0))


def test_an_empty_axis_or_an_empty_output_is_a_clear_error():
    with pytest.raises(ValueError, match="fft: axis 1 has no points"):
        framework.fft.fft(framework.zeros([3, 0]))
    with pytest.raises(ValueError, match="irfft: a half spectrum of 1 bin.*pass n"):
        framework.fft.irfft(framework.to_tensor([[1 + 0j]]))
    one = framework.fft.irfft(framework.to_tensor([[2 + 0j]]), n=1)
    np.testing.assert_allclose(one.numpy(), [[2.0]])


@pytest.mark.parametrize("dtype", ["bool", "float16"])
def test_dtypes_without_a_kernel_are_refused(dtype):
    for name in ("fft", "rfft", "irfft", "fftn", "ihfftn", "hfft2"):
        x = framework.to_tensor(np.ones((2, 4)).astype(dtype))
        with pytest.raises(RuntimeError, match="not registered"):  # Paddle has no kernel
            getattr(paddle.fft, name)(paddle.to_tensor(np.ones((2, 4)).astype(dtype)))
        with pytest.raises(TypeError, match=f"{name}: {dtype} input is not supported"):
            getattr(framework.fft, name)(x)


def test_complex_into_a_real_transform_and_integers_into_irfft_are_refused():
    z = framework.to_tensor(DATA + 1j)
    for name in ("rfft", "ihfft", "rfftn", "ihfftn", "rfft2", "ihfft2"):
        with pytest.raises(TypeError, match=f"{name}: expects a real .* got complex128"):
            getattr(framework.fft, name)(z)
    ints = framework.to_tensor(np.arange(12).reshape(3, 4))
    for name in ("irfft", "hfft", "irfftn", "hfftn", "irfft2", "hfft2"):
        with pytest.raises(TypeError, match=f"{name}: expects a complex or float .* got int64"):
            getattr(framework.fft, name)(ints)


def test_a_refused_call_leaves_the_input_as_it_was():
    x = framework.to_tensor(DATA, stop_gradient=False)
    with pytest.raises(ValueError):
        framework.fft.rfftn(x, s=[2, 0])
    np.testing.assert_array_equal(x.numpy(), DATA)
    assert x.grad is None
