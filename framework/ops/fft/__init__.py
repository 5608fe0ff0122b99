"""Discrete Fourier transforms (`paddle.fft`): the 1-d, 2-d and n-d transforms, and the
frequency helpers. `framework.fft` is the namespace Paddle code imports."""

from framework.ops.fft.frequencies import fftfreq, fftshift, ifftshift, rfftfreq
from framework.ops.fft.multi_dim import (
    fft2,
    fftn,
    hfft2,
    hfftn,
    ifft2,
    ifftn,
    ihfft2,
    ihfftn,
    irfft2,
    irfftn,
    rfft2,
    rfftn,
)
from framework.ops.fft.one_dim import fft, hfft, ifft, ihfft, irfft, rfft

__all__ = [
    "fft",
    "ifft",
    "rfft",
    "irfft",
    "hfft",
    "ihfft",
    "fft2",
    "ifft2",
    "rfft2",
    "irfft2",
    "hfft2",
    "ihfft2",
    "fftn",
    "ifftn",
    "rfftn",
    "irfftn",
    "hfftn",
    "ihfftn",
    "fftfreq",
    "rfftfreq",
    "fftshift",
    "ifftshift",
]
