"""The differentiable kernels behind `paddle.fft`: C2C, R2C, C2R and Resize.

Every transform is linear, so its gradient is its adjoint, which is again a transform: the
opposite direction with the dual normalisation ('backward' <-> 'forward', 'ortho' stays). With
the conjugate Wirtinger convention (see `framework.ops.math.complex_parts`):

- C2C:  `grad = C2C(g, opposite direction, dual norm)`.
- R2C:  the one-sided output is the first `n//2 + 1` bins of the full transform, so the adjoint
  pads `g` with zeros back to `n` bins, runs the adjoint C2C and keeps the real part (the input
  was real, so its gradient is real).
- C2R:  `y = Re(A x)` over the half spectrum, where each bin other than 0 (and `n/2` for an
  even `n`) stands for itself and its mirror image; the adjoint is the R2C of the real `g`,
  with those bins weighted by 2.

Backward is written with these Functions, so double backward comes for free. `xp.fft` is NumPy's
pocketfft on CPU and cuFFT through `cupy.fft` on GPU.
"""

from __future__ import annotations

from framework.core import dtype as dtypes
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.math.complex_parts import Real

DUAL_NORM = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


class Resize(Function):
    """Crop or zero-pad `x` to `sizes` along `axes` (Paddle's `n`/`s`), keeping the start of
    each axis. Cropping and zero-padding are each other's adjoint."""

    def __init__(self, axes: list[int], sizes: list[int]) -> None:
        self.axes = axes
        self.sizes = sizes

    def forward(self, x):
        self.input_sizes = [x.shape[a] for a in self.axes]
        xp = get_array_module(x)
        shape = list(x.shape)
        for axis, size in zip(self.axes, self.sizes, strict=True):
            shape[axis] = size
        out = xp.zeros(shape, x.dtype)
        kept = [slice(None)] * x.ndim
        for axis, size in zip(self.axes, self.sizes, strict=True):
            kept[axis] = slice(0, min(size, x.shape[axis]))
        kept = tuple(kept)
        out[kept] = x[kept]
        return out

    def backward(self, gy: Tensor) -> Tensor:
        return Resize(self.axes, self.input_sizes).apply(gy)


def resize(x: Tensor, axes: list[int], sizes: list[int] | None) -> Tensor:
    """`x` cropped or zero-padded to `sizes` along `axes`; `x` itself when nothing changes."""
    if sizes is None or all(x._data.shape[a] == n for a, n in zip(axes, sizes, strict=True)):
        return x
    return Resize(list(axes), list(sizes)).apply(x)


class C2C(Function):
    """The complex transform over `axes`: `fftn` when `forward`, `ifftn` otherwise."""

    def __init__(self, axes: list[int], norm: str, forward: bool) -> None:
        self.axes = axes
        self.norm = norm
        self.forward_direction = forward

    def forward(self, x):
        xp = get_array_module(x)
        transform = xp.fft.fftn if self.forward_direction else xp.fft.ifftn
        return transform(x, axes=self.axes, norm=self.norm).astype(x.dtype, copy=False)

    def backward(self, gy: Tensor) -> Tensor:
        return C2C(self.axes, DUAL_NORM[self.norm], not self.forward_direction).apply(gy)


class R2C(Function):
    """A real input's transform over `axes`, complex out. `onesided` keeps the first
    `n//2 + 1` bins of the last axis in `axes` (rfftn when `forward`, ihfftn otherwise)."""

    def __init__(self, axes: list[int], norm: str, forward: bool, onesided: bool) -> None:
        self.axes = axes
        self.norm = norm
        self.forward_direction = forward
        self.onesided = onesided

    def forward(self, x):
        self.last_size = x.shape[self.axes[-1]]
        xp = get_array_module(x)
        out_dtype = dtypes.complex_dtype_of(x.dtype)
        if not self.onesided:
            transform = xp.fft.fftn if self.forward_direction else xp.fft.ifftn
            return transform(x, axes=self.axes, norm=self.norm).astype(out_dtype, copy=False)
        if self.forward_direction:
            return xp.fft.rfftn(x, axes=self.axes, norm=self.norm).astype(out_dtype, copy=False)
        # ihfftn: the inverse transform's first half, conj(rfftn) under the swapped scaling.
        half = xp.fft.rfftn(x, axes=self.axes, norm=DUAL_NORM[self.norm])
        return xp.conj(half).astype(out_dtype, copy=False)

    def backward(self, gy: Tensor) -> Tensor:
        if self.onesided:
            gy = Resize([self.axes[-1]], [self.last_size]).apply(gy)
        full = C2C(self.axes, DUAL_NORM[self.norm], not self.forward_direction).apply(gy)
        return Real().apply(full)


class C2R(Function):
    """A half spectrum (`n//2 + 1` bins on the last axis in `axes`) to a real signal with `n`
    points there: irfftn when not `forward`, hfftn when `forward`. The imaginary parts of bin
    0, and of bin `n/2` for an even `n`, do not reach the output."""

    def __init__(self, axes: list[int], norm: str, forward: bool, last_size: int) -> None:
        self.axes = axes
        self.norm = norm
        self.forward_direction = forward
        self.last_size = last_size

    def forward(self, x):
        xp = get_array_module(x)
        sizes = [x.shape[a] for a in self.axes[:-1]] + [self.last_size]
        out_dtype = dtypes.real_dtype_of(x.dtype)
        if self.forward_direction:
            # hfftn(x) = irfftn(conj(x)) under the swapped scaling, as NumPy and SciPy define it.
            out = xp.fft.irfftn(xp.conj(x), s=sizes, axes=self.axes, norm=DUAL_NORM[self.norm])
        else:
            out = xp.fft.irfftn(x, s=sizes, axes=self.axes, norm=self.norm)
        return out.astype(out_dtype, copy=False)

    def backward(self, gy: Tensor) -> Tensor:
        half = R2C(self.axes, DUAL_NORM[self.norm], not self.forward_direction, True).apply(gy)
        return half * Tensor._wrap(self._mirror_weights(half._data))

    def _mirror_weights(self, half):
        """2 for the bins that stand for a mirrored pair too, 1 for bin 0 and the Nyquist bin,
        shaped to broadcast along the half-spectrum axis."""
        xp = get_array_module(half)
        axis = self.axes[-1]
        bins = half.shape[axis]
        weights = xp.full(bins, 2.0, dtypes.real_dtype_of(half.dtype))
        weights[0] = 1.0
        if self.last_size % 2 == 0:
            weights[bins - 1] = 1.0
        shape = [1] * half.ndim
        shape[axis] = bins
        return weights.reshape(shape)
