"""`paddle.fft` on a GPU (cupy.fft, cuFFT) gives what it gives on the CPU: values, dtypes,
places and gradients. Run by `make gpu-check`; skipped where no CUDA GPU is usable."""

from __future__ import annotations

import numpy as np
import pytest

import framework

pytestmark = pytest.mark.gpu

CASES = [
    ("fft", {"n": 7, "axis": 1, "norm": "ortho"}, "complex"),
    ("ifft", {"n": 3}, "real"),
    ("rfft", {"n": 9}, "real"),
    ("irfft", {"n": 6, "norm": "forward"}, "complex"),
    ("hfft", {"n": 5}, "complex"),
    ("ihfft", {"axis": 0}, "real"),
    ("fftn", {"s": [2, 6], "axes": [2, 0]}, "complex"),
    ("ifftn", {"norm": "forward"}, "real"),
    ("rfftn", {"s": [3, 4, 6]}, "real"),
    ("irfftn", {"s": [5, 7], "axes": [1, 0]}, "complex"),
    ("hfftn", {"axes": [0, 2], "norm": "ortho"}, "complex"),
    ("ihfftn", {"s": [4, 4]}, "real"),
    ("fft2", {}, "complex"),
    ("irfft2", {"s": [4, 6]}, "complex"),
]


def _run(name, kwargs, data, device):
    x = framework.to_tensor(data, place=device, stop_gradient=False)
    out = getattr(framework.fft, name)(x, **kwargs)
    weights = np.random.default_rng(1).normal(size=out.shape)
    loss = out.abs() if out.is_complex() else out
    (loss * framework.to_tensor(weights, dtype=loss.dtype, place=device)).sum().backward()
    return out, x.grad


@pytest.mark.parametrize(("name", "kwargs", "kind"), CASES)
@pytest.mark.parametrize("precision", ["single", "double"])
def test_transform_on_gpu_matches_cpu(name, kwargs, kind, precision):
    rng = np.random.default_rng(0)
    data = rng.normal(size=(3, 4, 5))
    if kind == "complex":
        data = data + 1j * rng.normal(size=(3, 4, 5))
    single = precision == "single"
    data = data.astype({"real": "float32", "complex": "complex64"}[kind] if single else data.dtype)
    cpu_out, cpu_grad = _run(name, kwargs, data, "cpu")
    gpu_out, gpu_grad = _run(name, kwargs, data, "gpu")
    assert gpu_out.place.is_gpu_place() and gpu_grad.place.is_gpu_place()
    assert gpu_out.dtype == cpu_out.dtype and gpu_grad.dtype == cpu_grad.dtype
    tolerance = 1e-4 if single else 1e-10
    np.testing.assert_allclose(gpu_out.numpy(), cpu_out.numpy(), rtol=tolerance, atol=tolerance)
    np.testing.assert_allclose(gpu_grad.numpy(), cpu_grad.numpy(), rtol=tolerance, atol=tolerance)


def test_frequencies_and_shifts_follow_the_current_device():
    framework.set_device("gpu")
    try:
        freqs = framework.fft.fftfreq(6, d=0.5)
        shifted = framework.fft.fftshift(freqs)
        assert freqs.place.is_gpu_place() and shifted.place.is_gpu_place()
        assert framework.fft.rfftfreq(6).place.is_gpu_place()
    finally:
        framework.set_device("cpu")
    np.testing.assert_allclose(shifted.numpy(), np.fft.fftshift(np.fft.fftfreq(6, d=0.5)))
