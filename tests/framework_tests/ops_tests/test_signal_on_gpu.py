"""paddle.signal on a GPU gives what it gives on the CPU, forward and gradients. Run by
`make gpu-check`; skipped where no CUDA GPU is usable."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.signal as S

pytestmark = pytest.mark.gpu

SIGNAL = np.random.default_rng(2).standard_normal((2, 50))
WINDOW = np.hanning(16) * 0.9 + 0.1


def _run(device: str):
    x = framework.to_tensor(SIGNAL, place=device, stop_gradient=False)
    w = framework.to_tensor(WINDOW, place=device, stop_gradient=False)
    spectrum = S.stft(x, 16, hop_length=4, window=w)
    back = S.istft(spectrum * 2.0, 16, hop_length=4, window=w, length=48)
    loss = (spectrum.abs() ** 2).sum() + (back * back).sum()
    gx, gw = framework.grad(loss, [x, w])
    return [t.numpy() for t in (spectrum, back, gx, gw)], back.place


def test_stft_and_istft_on_gpu_match_cpu():
    framework.set_device("gpu")
    try:
        gpu, place = _run("gpu")
    finally:
        framework.set_device("cpu")
    cpu, _ = _run("cpu")
    assert place.is_gpu_place()
    for a, b in zip(gpu, cpu, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-7, atol=1e-9)
