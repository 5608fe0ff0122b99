"""`paddle.fft` values and dtypes: NumPy (SciPy for hfftn/ihfftn, which NumPy lacks) as the
reference, and real Paddle over a table of shapes, axes, n/s and norms."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.fft

import framework
import framework as paddle

paddle_ref = pytest.importorskip("paddle")

NORMS = ("backward", "forward", "ortho")
RNG = np.random.default_rng(24)
REAL = RNG.normal(size=(3, 4, 5))
COMPLEX = REAL + 1j * RNG.normal(size=(3, 4, 5))

ONE_DIM = {
    "fft": np.fft.fft,
    "ifft": np.fft.ifft,
    "rfft": np.fft.rfft,
    "irfft": np.fft.irfft,
    "hfft": np.fft.hfft,
    "ihfft": np.fft.ihfft,
}
MULTI_DIM = {
    "fftn": np.fft.fftn,
    "ifftn": np.fft.ifftn,
    "rfftn": np.fft.rfftn,
    "irfftn": np.fft.irfftn,
    "hfftn": scipy.fft.hfftn,
    "ihfftn": scipy.fft.ihfftn,
}
TWO_DIM = {
    "fft2": np.fft.fft2,
    "ifft2": np.fft.ifft2,
    "rfft2": np.fft.rfft2,
    "irfft2": np.fft.irfft2,
    "hfft2": scipy.fft.hfft2,
    "ihfft2": scipy.fft.ihfft2,
}
REAL_ONLY = {"rfft", "ihfft", "rfftn", "ihfftn", "rfft2", "ihfft2"}


def _inputs(name: str) -> list[np.ndarray]:
    return [REAL] if name in REAL_ONLY else [COMPLEX, REAL]


# n: None keeps the length, 3 crops, 8 pads (even), 7 pads (odd).
ONE_DIM_CASES = [
    (name, n, axis, norm)
    for name in ONE_DIM
    for n in (None, 3, 8, 7)
    for axis in (-1, 0, 1)
    for norm in NORMS
]
MULTI_DIM_CASES = [
    (name, s, axes, norm)
    for name in MULTI_DIM
    for s, axes in (
        (None, None),
        ([3, 6], None),
        (None, [0, 2]),
        ([6, 3], [2, 0]),
        ([2, 3, 8], None),
        ([5, 2], [1, 0]),
        (None, [-1]),
    )
    for norm in NORMS
]


@pytest.mark.parametrize(("name", "n", "axis", "norm"), ONE_DIM_CASES)
def test_one_dim_transforms_match_numpy(name, n, axis, norm):
    for data in _inputs(name):
        got = getattr(framework.fft, name)(framework.to_tensor(data), n=n, axis=axis, norm=norm)
        expected = ONE_DIM[name](data, n=n, axis=axis, norm=norm)
        assert got.shape == list(expected.shape)
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(("name", "s", "axes", "norm"), MULTI_DIM_CASES)
def test_multi_dim_transforms_match_numpy_and_scipy(name, s, axes, norm):
    for data in _inputs(name):
        got = getattr(framework.fft, name)(framework.to_tensor(data), s=s, axes=axes, norm=norm)
        # NumPy 2 wants explicit axes with s: the last len(s), as Paddle's default.
        reference_axes = list(range(-len(s), 0)) if axes is None and s is not None else axes
        expected = MULTI_DIM[name](data, s=s, axes=reference_axes, norm=norm)
        assert got.shape == list(expected.shape)
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", TWO_DIM)
@pytest.mark.parametrize(("s", "axes"), [(None, (-2, -1)), ([3, 6], (0, 2)), ([2, 7], (2, 1))])
def test_two_dim_transforms_match_numpy_and_scipy(name, s, axes):
    for data in _inputs(name):
        got = getattr(framework.fft, name)(framework.to_tensor(data), s=s, axes=axes)
        expected = TWO_DIM[name](data, s=s, axes=axes)
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-10, atol=1e-12)


# --- parity with Paddle ------------------------------------------------------------------------

PARITY_CASES = [
    ("fft", {"n": 7, "axis": 0, "norm": "ortho"}),
    ("ifft", {"n": 3, "norm": "forward"}),
    ("rfft", {"n": 8, "axis": 1}),
    ("irfft", {"n": 9, "norm": "ortho"}),
    ("irfft", {"axis": 0}),
    ("hfft", {"n": 6, "axis": 1, "norm": "forward"}),
    ("ihfft", {"n": 5, "norm": "ortho"}),
    ("fftn", {"s": [2, 6], "axes": [2, 0]}),
    ("ifftn", {"norm": "ortho"}),
    ("rfftn", {"s": [3, 4, 6], "norm": "forward"}),
    ("irfftn", {"s": [5, 7], "axes": [1, 0]}),
    ("hfftn", {"axes": [0, 2], "norm": "ortho"}),
    ("ihfftn", {"s": [4, 4]}),
    ("fft2", {"s": [3, 3]}),
    ("ifft2", {"axes": [0, 2], "norm": "forward"}),
    ("rfft2", {"norm": "ortho"}),
    ("irfft2", {"s": [4, 6]}),
    ("hfft2", {"axes": [2, 1]}),
    ("ihfft2", {"s": [2, 5], "norm": "forward"}),
]
PARITY_DTYPES = ("float32", "float64", "complex64", "complex128", "int64", "int32")


def _paddle_dtype_name(dtype) -> str:
    return str(dtype).replace("paddle.", "")


@pytest.mark.parametrize(("name", "kwargs"), PARITY_CASES)
@pytest.mark.parametrize("dtype", PARITY_DTYPES)
def test_values_and_dtypes_match_paddle(name, kwargs, dtype):
    data = (COMPLEX * 3).astype(dtype) if dtype.startswith("complex") else (REAL * 3)
    data = data.astype(dtype)
    try:
        theirs = getattr(paddle_ref.fft, name)(paddle_ref.to_tensor(data), **kwargs)
    except (RuntimeError, TypeError):
        # Paddle's kernels refuse this dtype (complex into rfft, integers into irfft): so do we.
        with pytest.raises(TypeError, match=name):
            getattr(paddle.fft, name)(paddle.to_tensor(data), **kwargs)
        return
    ours = getattr(paddle.fft, name)(paddle.to_tensor(data), **kwargs)
    assert ours.dtype.name == _paddle_dtype_name(theirs.dtype)
    assert ours.shape == list(theirs.shape)
    single = ours.dtype.name in ("float32", "complex64")
    np.testing.assert_allclose(
        ours.numpy(), theirs.numpy(), rtol=1e-4 if single else 1e-10, atol=1e-4 if single else 1e-10
    )


def test_the_default_dtype_decides_what_integers_become():
    framework.set_default_dtype("float64")
    try:
        assert framework.fft.fft(framework.to_tensor([1, 2, 3])).dtype == framework.complex128
        assert framework.fft.rfft(framework.to_tensor([1, 2, 3])).dtype == framework.complex128
    finally:
        framework.set_default_dtype("float32")
    assert framework.fft.fft(framework.to_tensor([1, 2, 3])).dtype == framework.complex64


# --- frequencies and shifts --------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 4, 5, 8])
@pytest.mark.parametrize("d", [1.0, 0.3, -2.0])
@pytest.mark.parametrize("dtype", [None, "float64"])
def test_frequencies_match_numpy_and_paddle(n, d, dtype):
    for ours_fn, numpy_fn, theirs_fn in (
        (paddle.fft.fftfreq, np.fft.fftfreq, paddle_ref.fft.fftfreq),
        (paddle.fft.rfftfreq, np.fft.rfftfreq, paddle_ref.fft.rfftfreq),
    ):
        ours = ours_fn(n, d=d, dtype=dtype)
        theirs = theirs_fn(n, d=d, dtype=dtype)
        assert ours.dtype.name == _paddle_dtype_name(theirs.dtype) == (dtype or "float32")
        np.testing.assert_allclose(ours.numpy(), numpy_fn(n, d=d), rtol=1e-6)
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


@pytest.mark.parametrize("axes", [None, [0], [1, 2], (2, 0)])
def test_shifts_match_numpy_and_paddle(axes):
    data = np.arange(3 * 4 * 5).reshape(3, 4, 5).astype("float32")
    for ours_fn, numpy_fn, theirs_fn in (
        (paddle.fft.fftshift, np.fft.fftshift, paddle_ref.fft.fftshift),
        (paddle.fft.ifftshift, np.fft.ifftshift, paddle_ref.fft.ifftshift),
    ):
        ours = ours_fn(paddle.to_tensor(data), axes=axes)
        np.testing.assert_array_equal(ours.numpy(), numpy_fn(data, axes=axes))
        if axes is None or len(axes) > 1:  # Paddle 3.3 fails on one axis (SystemError in roll)
            theirs = theirs_fn(paddle_ref.to_tensor(data), axes)
            np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    # An int axis, as Paddle documents (Paddle 3.3 itself fails on it too).
    np.testing.assert_array_equal(
        paddle.fft.ifftshift(paddle.to_tensor(data), axes=1).numpy(),
        np.fft.ifftshift(data, axes=1),
    )


def test_shifts_undo_each_other_and_centre_the_frequencies():
    freqs = paddle.fft.fftfreq(7)
    centred = paddle.fft.fftshift(freqs).numpy()
    assert np.all(np.diff(centred) > 0) and centred[3] == 0
    np.testing.assert_array_equal(paddle.fft.ifftshift(paddle.fft.fftshift(freqs)).numpy(), freqs)


def test_a_round_trip_gives_back_the_signal():
    x = framework.to_tensor(REAL)
    np.testing.assert_allclose(framework.fft.irfft(framework.fft.rfft(x), n=5).numpy(), REAL)
    np.testing.assert_allclose(framework.fft.ifftn(framework.fft.fftn(x)).numpy().real, REAL)
    np.testing.assert_allclose(framework.fft.hfft(framework.fft.ihfft(x), n=5).numpy(), REAL)
    np.testing.assert_allclose(
        framework.fft.irfftn(framework.fft.rfftn(x), s=[3, 4, 5]).numpy(), REAL, atol=1e-12
    )


def test_the_namespace_is_paddles():
    assert framework.fft.__all__ == paddle_ref.fft.__all__
    for name in framework.fft.__all__:
        assert callable(getattr(framework.fft, name))
    from framework.fft import rfft  # noqa: F401 - `from paddle.fft import ...` works
