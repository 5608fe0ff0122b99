"""paddle.signal.stft / istft: a NumPy reference, gradients of two orders, parity with Paddle
(values, dtypes, error messages) and with torch.stft / torch.istft."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.signal as S
from framework.testing import check_backward, check_double_backward


def _signal(shape, dtype="float32", seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _numpy_stft(x, n_fft, hop, win, window=None, center=True, mode="reflect", onesided=True):
    """The textbook STFT of a 1-D signal, frame by frame."""
    window = np.ones(win) if window is None else window
    left = (n_fft - win) // 2
    window = np.pad(window, (left, n_fft - win - left))
    if center:
        x = np.pad(x, n_fft // 2, mode=mode)
    n_frames = 1 + (len(x) - n_fft) // hop
    frames = np.stack([x[t * hop : t * hop + n_fft] * window for t in range(n_frames)])
    spectrum = np.fft.rfft(frames) if onesided else np.fft.fft(frames)
    return spectrum.T


@pytest.mark.parametrize(
    "kwargs",
    [
        {"n_fft": 16},
        {"n_fft": 16, "hop_length": 5, "win_length": 10},
        {"n_fft": 15, "center": False},
        {"n_fft": 16, "pad_mode": "constant", "onesided": False},
    ],
)
def test_it_matches_a_numpy_reference(kwargs):
    x = _signal(50, "float64")
    hop = kwargs.get("hop_length", kwargs["n_fft"] // 4)
    win = kwargs.get("win_length", kwargs["n_fft"])
    expected = _numpy_stft(
        x,
        kwargs["n_fft"],
        hop,
        win,
        center=kwargs.get("center", True),
        mode=kwargs.get("pad_mode", "reflect"),
        onesided=kwargs.get("onesided", True),
    )
    got = S.stft(framework.to_tensor(x), **kwargs)
    assert got.dtype == np.complex128
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12, atol=1e-12)


STFT_CASES = [
    ("float32", {"n_fft": 16}),
    ("float64", {"n_fft": 16, "hop_length": 5, "win_length": 10}),
    ("float32", {"n_fft": 15, "center": False}),
    ("float64", {"n_fft": 16, "pad_mode": "constant", "normalized": True}),
    ("float32", {"n_fft": 16, "onesided": False}),
    ("complex64", {"n_fft": 16, "onesided": False}),
    ("complex128", {"n_fft": 12, "hop_length": 3, "center": False, "onesided": False}),
]


@pytest.mark.parametrize("dtype,kwargs", STFT_CASES)
@pytest.mark.parametrize("shape", [(64,), (2, 64)])
def test_stft_matches_paddle(dtype, kwargs, shape):
    paddle = pytest.importorskip("paddle")
    x = _signal(shape, dtype)
    window = np.hanning(kwargs.get("win_length", kwargs["n_fft"])).astype(
        dtype.replace("complex64", "float32").replace("complex128", "float64")
    )
    ours = S.stft(framework.to_tensor(x), window=framework.to_tensor(window), **kwargs)
    theirs = paddle.signal.stft(paddle.to_tensor(x), window=paddle.to_tensor(window), **kwargs)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    assert list(ours.shape) == list(theirs.shape)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kwargs", [{}, {"center": False}, {"normalized": True}, {"hop_length": 3}])
def test_stft_and_istft_match_torch(kwargs):
    torch = pytest.importorskip("torch")
    x = _signal((2, 40), "float64")
    window = np.hanning(16) * 0.9 + 0.1  # no zeros: center=False needs its ends
    ours = S.stft(framework.to_tensor(x), 16, window=framework.to_tensor(window), **kwargs)
    theirs = torch.stft(
        torch.tensor(x), 16, window=torch.tensor(window), return_complex=True, **kwargs
    )
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-10, atol=1e-10)
    for length in (None, 33):
        back = S.istft(ours, 16, window=framework.to_tensor(window), length=length, **kwargs)
        back_t = torch.istft(theirs, 16, window=torch.tensor(window), length=length, **kwargs)
        np.testing.assert_allclose(back.numpy(), back_t.numpy(), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("n_fft", [16, 15])
def test_istft_inverts_stft(n_fft):
    # Odd n_fft too, which Paddle 3.3's istft cannot run (its window does not broadcast).
    x = _signal((3, 70), "float32")
    y = S.stft(framework.to_tensor(x), n_fft)
    back = S.istft(y, n_fft, length=70)
    assert back.dtype == np.float32 and list(back.shape) == [3, 70]
    np.testing.assert_allclose(back.numpy(), x, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"length": 50},
        {"center": False},
        {"hop_length": 2, "win_length": 12},
        {"onesided": False},
        {"onesided": False, "return_complex": True},
    ],
)
def test_istft_matches_paddle(kwargs):
    paddle = pytest.importorskip("paddle")
    onesided = kwargs.get("onesided", True)
    dtype = "complex128" if kwargs.get("return_complex") else "float64"
    x = _signal((2, 64), dtype)
    spectra = [
        m.signal.stft(
            m.to_tensor(x),
            16,
            hop_length=kwargs.get("hop_length"),
            win_length=kwargs.get("win_length"),
            center=kwargs.get("center", True),
            onesided=onesided,
        )
        for m in (framework, paddle)
    ]
    ours = S.istft(spectra[0], 16, **kwargs)
    theirs = paddle.signal.istft(spectra[1], 16, **kwargs)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    assert list(ours.shape) == list(theirs.shape)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-10, atol=1e-10)


def test_stft_gradients_match_central_differences():
    x = _signal(20, "float64")
    w = np.hanning(8) + 0.1
    check_backward(lambda t, win: S.stft(t, 8, hop_length=3, window=win), [x, w])
    check_double_backward(lambda t, win: S.stft(t * win.sum(), 8, window=win * win), [x, w])
    check_backward(lambda t: S.stft(t, 8, center=False, pad_mode="constant"), [x])
    z = _signal(20, "complex128")
    check_backward(lambda t: S.stft(t, 8, onesided=False), [z])


def test_istft_gradients_match_central_differences():
    y = S.stft(framework.to_tensor(_signal(20, "float64")), 8).numpy()
    w = np.hanning(8) + 0.5
    check_backward(lambda t: S.istft(t, 8), [y])
    check_backward(lambda t, win: S.istft(t, 8, window=win, length=15), [y, w])
    check_double_backward(lambda t: S.istft(t * t, 8), [y])
    full = S.stft(framework.to_tensor(_signal(20, "complex128")), 8, onesided=False).numpy()
    check_backward(lambda t: S.istft(t, 8, onesided=False, return_complex=True), [full])


def test_the_methods_and_the_module_path():
    x = framework.to_tensor(_signal(32, "float32"))
    np.testing.assert_array_equal(x.stft(8).numpy(), S.stft(x, 8).numpy())
    np.testing.assert_array_equal(x.stft(8).istft(8).numpy(), S.istft(S.stft(x, 8), 8).numpy())
    from framework.signal import istft, stft

    assert (stft, istft) == (framework.ops.signal.stft, framework.ops.signal.istft)


X = np.ones((2, 64), np.float32)
STFT_ERRORS = [
    (lambda m: m.signal.stft(m.to_tensor(np.ones((2, 2, 64))), 16), "rank of x is 3"),
    (lambda m: m.signal.stft(m.to_tensor(X), 100), r"n_fft should be in \(0, seq_length\(64\)\]"),
    (lambda m: m.signal.stft(m.to_tensor(X), 16, hop_length=0), "hop_length should be > 0"),
    (lambda m: m.signal.stft(m.to_tensor(X), 16, win_length=20), "win_length should be in"),
    (lambda m: m.signal.stft(m.to_tensor(X), 16, window=m.ones([8])), "expected a 1D window"),
    (lambda m: m.signal.stft(m.to_tensor(X), 16, pad_mode="circular"), "pad_mode should be"),
    (
        lambda m: m.signal.stft(m.to_tensor(X.astype("complex64")), 16, onesided=True),
        "onesided should be False when input or window is a complex Tensor",
    ),
]


def _spectrum(m, onesided=True):
    return m.signal.stft(m.to_tensor(X), 16, onesided=onesided)


ISTFT_ERRORS = [
    (lambda m: m.signal.istft(_spectrum(m), 16, hop_length=20), "hop_length should be in"),
    (lambda m: m.signal.istft(_spectrum(m), 18), r"n_fft // 2 \+ 1\(10\) when onesided is True"),
    (lambda m: m.signal.istft(_spectrum(m), 16, onesided=False), r"equal to n_fft\(16\)"),
    (lambda m: m.signal.istft(_spectrum(m), 16, return_complex=True), "onesided should be False"),
    (lambda m: m.signal.istft(_spectrum(m), 16, window=m.zeros([16])), "NOLA"),
    (lambda m: m.signal.istft(_spectrum(m)[0, 0], 16), "rank of x is 1"),
]


@pytest.mark.parametrize("call,message", STFT_ERRORS + ISTFT_ERRORS)
def test_bad_arguments_raise_paddles_errors(call, message):
    paddle = pytest.importorskip("paddle")
    with pytest.raises((AssertionError, ValueError), match=message):
        call(paddle)
    with pytest.raises((AssertionError, ValueError), match=message) as caught:
        call(framework)
    assert isinstance(caught.value, ValueError)


def test_istft_refuses_a_real_spectrum():
    with pytest.raises(TypeError, match="must be \\['complex64', 'complex128'\\]"):
        S.istft(framework.to_tensor(np.ones((9, 5))), 16)
