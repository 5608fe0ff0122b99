"""`paddle.fft`: the discrete Fourier transforms Paddle code imports (`paddle.fft.rfft`,
`from paddle.fft import fftshift`). The ops live in `framework.ops.fft`.

    import framework as paddle

    x = paddle.to_tensor([0.0, 1.0, 0.0, 0.0], stop_gradient=False)
    spectrum = paddle.fft.rfft(x)          # [1.+0.j, 0.-1.j, -1.+0.j] complex64
    paddle.fft.irfft(spectrum).numpy()     # [0., 1., 0., 0.] float32
    spectrum.abs().sum().backward()        # every transform is differentiable
"""

from framework.ops.fft import (
    fft,
    fft2,
    fftfreq,
    fftn,
    fftshift,
    hfft,
    hfft2,
    hfftn,
    ifft,
    ifft2,
    ifftn,
    ifftshift,
    ihfft,
    ihfft2,
    ihfftn,
    irfft,
    irfft2,
    irfftn,
    rfft,
    rfft2,
    rfftfreq,
    rfftn,
)

# Paddle's own order (`paddle.fft.__all__`).
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
