"""`paddle.fft` gradients: central differences on real and imaginary parts for every transform
(real and complex inputs, n/s cropping and padding, each norm), double backward, and parity
with the gradients of real Paddle and PyTorch."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

RNG = np.random.default_rng(11)
REAL = RNG.normal(size=(2, 3, 4))
COMPLEX = REAL + 1j * RNG.normal(size=(2, 3, 4))
REAL_ONLY = {"rfft", "ihfft", "rfftn", "ihfftn", "rfft2", "ihfft2"}
NORMS = ("backward", "forward", "ortho")


def _inputs(name: str) -> list[np.ndarray]:
    return [REAL] if name in REAL_ONLY else [COMPLEX, REAL]


# n: None keeps the length, 2 crops, 6 pads to an even length, 7 to an odd one.
ONE_DIM_CASES = [
    (name, n, axis, norm)
    for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
    for n, axis, norm in (
        (None, -1, "backward"),
        (2, 1, "forward"),
        (6, -1, "ortho"),
        (7, 0, "backward"),
        (5, 2, "forward"),
    )
]
MULTI_DIM_CASES = [
    (name, s, axes, norm)
    for name in ("fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn")
    for (s, axes), norm in zip(
        (
            (None, None),
            ([2, 5], None),
            (None, [2, 0]),
            ([5, 2], [1, 0]),
            ([3, 2, 3], None),
            ([4], [1]),
        ),
        NORMS * 2,
        strict=True,
    )
]


@pytest.mark.parametrize(("name", "n", "axis", "norm"), ONE_DIM_CASES)
def test_one_dim_gradients_match_central_differences(name, n, axis, norm):
    transform = getattr(framework.fft, name)
    for data in _inputs(name):
        check_backward(lambda x: transform(x, n=n, axis=axis, norm=norm), [data])


@pytest.mark.parametrize(("name", "s", "axes", "norm"), MULTI_DIM_CASES)
def test_multi_dim_gradients_match_central_differences(name, s, axes, norm):
    transform = getattr(framework.fft, name)
    for data in _inputs(name):
        check_backward(lambda x: transform(x, s=s, axes=axes, norm=norm), [data])


@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2"])
def test_two_dim_gradients_match_central_differences(name):
    transform = getattr(framework.fft, name)
    for data in _inputs(name):
        check_backward(lambda x: transform(x, s=[3, 5], axes=(2, 0), norm="ortho"), [data])


def test_real_inputs_get_real_gradients_and_complex_inputs_complex_ones():
    for name in ("fft", "rfft", "ihfft", "fftn", "rfftn"):
        x = framework.to_tensor(REAL.astype("float32"), stop_gradient=False)
        getattr(framework.fft, name)(x).abs().sum().backward()
        assert x.grad.dtype == framework.float32, name
    for name in ("fft", "irfft", "hfft", "ifftn", "irfftn"):
        z = framework.to_tensor(COMPLEX.astype("complex64"), stop_gradient=False)
        getattr(framework.fft, name)(z).abs().sum().backward()
        assert z.grad.dtype == framework.complex64, name


def test_shifts_are_differentiable():
    check_backward(lambda x: framework.fft.fftshift(x, axes=[0, 2]) * (1 + 2j), [COMPLEX])
    check_backward(lambda x: framework.fft.ifftshift(x) * np.arange(24.0).reshape(2, 3, 4), [REAL])


@pytest.mark.parametrize(
    ("name", "kwargs", "data"),
    [
        ("fft", {"n": 6, "norm": "ortho"}, COMPLEX[0]),
        ("rfft", {"n": 5}, REAL[0]),
        ("irfft", {"n": 6, "norm": "forward"}, COMPLEX[0]),
        ("hfft", {"n": 5}, COMPLEX[0]),
        ("ihfftn", {"s": [2, 5]}, REAL[0]),
        ("irfftn", {"axes": [1, 0]}, COMPLEX[0]),
    ],
)
def test_double_backward_matches_central_differences(name, kwargs, data):
    transform = getattr(framework.fft, name)
    # |F x|^2 makes the first-order gradient depend on x, so the second order is not zero.
    check_double_backward(lambda x: transform(x, **kwargs).abs() ** 2, [data])


# --- parity with Paddle's and PyTorch's autograd -----------------------------------------------

AUTOGRAD_CASES = [
    ("fft", {"n": 6, "norm": "ortho"}, COMPLEX),
    ("fft", {"n": 3, "axis": 1}, REAL),
    ("rfft", {"n": 7}, REAL),
    ("irfft", {"n": 5, "axis": 1}, COMPLEX),
    ("irfft", {"n": 8}, COMPLEX),
    ("hfft", {"n": 6, "norm": "forward"}, COMPLEX),
    ("ihfft", {"n": 5}, REAL),
    ("fftn", {"s": [2, 5], "axes": [2, 0]}, COMPLEX),
    ("rfftn", {"s": [3, 6]}, REAL),
    ("irfftn", {"s": [4, 5], "norm": "ortho"}, COMPLEX),
    ("hfftn", {"axes": [0, 2]}, COMPLEX),
    ("ihfftn", {"s": [3, 3]}, REAL),
]


def _loss_weights(shape) -> np.ndarray:
    return np.random.default_rng(3).normal(size=shape)


def _ours(name, kwargs, data):
    x = framework.to_tensor(data, stop_gradient=False)
    out = getattr(framework.fft, name)(x, **kwargs)
    weights = framework.to_tensor(_loss_weights(out.shape))
    loss = (out.real() if out.is_complex() else out) * weights
    if out.is_complex():
        loss = loss + out.imag() * weights * 0.5
    loss.sum().backward()
    return x.grad.numpy()


@pytest.mark.parametrize(("name", "kwargs", "data"), AUTOGRAD_CASES)
def test_gradients_match_paddle(name, kwargs, data):
    paddle = pytest.importorskip("paddle")
    x = paddle.to_tensor(data, stop_gradient=False)
    out = getattr(paddle.fft, name)(x, **kwargs)
    weights = paddle.to_tensor(_loss_weights(out.shape))
    loss = (out.real() if out.is_complex() else out) * weights
    if out.is_complex():
        loss = loss + out.imag() * weights * 0.5
    loss.sum().backward()
    np.testing.assert_allclose(_ours(name, kwargs, data), x.grad.numpy(), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize(("name", "kwargs", "data"), AUTOGRAD_CASES)
def test_gradients_match_pytorch(name, kwargs, data):
    torch = pytest.importorskip("torch")
    renamed = {"n": "n", "s": "s", "axis": "dim", "axes": "dim", "norm": "norm"}
    x = torch.tensor(data, requires_grad=True)
    out = getattr(torch.fft, name)(x, **{renamed[k]: v for k, v in kwargs.items()})
    weights = torch.tensor(_loss_weights(tuple(out.shape)))
    loss = (out.real if out.is_complex() else out) * weights
    if out.is_complex():
        loss = loss + out.imag * weights * 0.5
    loss.sum().backward()
    np.testing.assert_allclose(
        _ours(name, kwargs, data), x.grad.resolve_conj().numpy(), rtol=1e-9, atol=1e-9
    )
