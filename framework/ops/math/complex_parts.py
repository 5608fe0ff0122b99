"""Complex numbers: complex, real, imag, conj, angle, as_complex, as_real, and `conj_grad`.

Gradients follow the convention of Paddle and PyTorch: for a real loss `L` of a complex `z`,
`z.grad` is `dL/dRe(z) + 1j * dL/dIm(z)` (the conjugate Wirtinger derivative, times 2). So a
holomorphic op `w = f(z)` passes back `gw * conj(f'(z))`; `conj_grad` is that conjugation, and
every elementwise backward that multiplies by a derivative applies it (a no-op on real data).

    z = framework.to_tensor([1 + 2j], stop_gradient=False)
    (z * framework.conj(z)).real().sum().backward()
    z.grad   # [2.+4.j]  (2 * z)
"""

from __future__ import annotations

from framework.core import dtype as dtypes
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.operands import as_operands
from framework.core.tensor import Tensor
from framework.ops.manipulation.broadcast import sum_to


def reject_complex(x: Tensor, op: str) -> None:
    """Raise the error Paddle users should see where an op has no complex kernel in Paddle
    (ordering, clipping, activations): a TypeError naming the op and the dtype."""
    if x._data.dtype.kind == "c":
        raise TypeError(f"{op}: complex tensors are not supported, got {x._data.dtype.name}")


def _require_complex(x: Tensor, op: str) -> None:
    if x._data.dtype.kind != "c":
        raise TypeError(f"{op}: expects a complex64 or complex128 tensor, got {x._data.dtype.name}")


class Conj(Function):
    def forward(self, x):
        return get_array_module(x).conj(x)

    def backward(self, gy: Tensor) -> Tensor:
        return Conj().apply(gy)


class Real(Function):
    def forward(self, x):
        self.complex_dtype = x.dtype
        return x.real.copy()

    def backward(self, gy: Tensor) -> Tensor:
        # L depends on Re(z) only: dL/dRe + 1j * 0.
        return _as_complex_part(gy, None, self.complex_dtype)


class Imag(Function):
    def forward(self, x):
        self.complex_dtype = x.dtype
        return x.imag.copy()

    def backward(self, gy: Tensor) -> Tensor:
        return _as_complex_part(None, gy, self.complex_dtype)


class Complex(Function):
    """`real + 1j * imag` from two real tensors of one dtype, with broadcasting."""

    def forward(self, re, im):
        self.shapes = (re.shape, im.shape)
        xp = get_array_module(re)
        out = xp.empty(xp.broadcast_shapes(re.shape, im.shape), dtypes.complex_dtype_of(re.dtype))
        out.real = re
        out.imag = im
        return out

    def backward(self, gz: Tensor):
        re_shape, im_shape = self.shapes
        g_re = sum_to(Real().apply(gz), re_shape) if self.needs_input_grad[0] else None
        g_im = sum_to(Imag().apply(gz), im_shape) if self.needs_input_grad[1] else None
        return g_re, g_im


class AsComplex(Function):
    """`[..., 2]` real pairs to `[...]` complex."""

    def forward(self, x):
        xp = get_array_module(x)
        out = xp.empty(x.shape[:-1], dtypes.complex_dtype_of(x.dtype))
        out.real = x[..., 0]
        out.imag = x[..., 1]
        return out

    def backward(self, gz: Tensor) -> Tensor:
        return AsReal().apply(gz)


class AsReal(Function):
    """`[...]` complex to `[..., 2]` real pairs (real, imaginary)."""

    def forward(self, z):
        xp = get_array_module(z)
        return xp.stack([z.real, z.imag], axis=-1)

    def backward(self, gx: Tensor) -> Tensor:
        return AsComplex().apply(gx)


class Angle(Function):
    def forward(self, x):
        self.retain_inputs(0)
        xp = get_array_module(x)
        return xp.angle(x).astype(dtypes.real_dtype_of(x.dtype))

    def backward(self, gy: Tensor) -> Tensor:
        (z,) = self.saved_inputs()
        if z._data.dtype.kind != "c":
            # The angle of a real number is 0 or pi: piecewise constant.
            return gy * 0.0
        # angle = atan2(Im, Re): dL/dRe + 1j dL/dIm = gy * (-Im + 1j Re) / |z|^2 = gy * 1j z / |z|^2
        from framework.ops.math.arithmetic import Abs

        return _as_complex_part(gy, None, z._data.dtype) * z * 1j / _nonzero(Abs().apply(z) ** 2)


def _nonzero(t: Tensor) -> Tensor:
    """`t` with its zeros replaced by ones (a constant shift), so x / |x| is 0 at x == 0, as
    Paddle and PyTorch take the gradient of abs and angle there."""
    zeros = t._data == 0
    if not zeros.any():
        return t
    return t + Tensor._wrap(zeros.astype(t._data.dtype))


def complex_sign(z: Tensor) -> Tensor:
    """`z / |z|` (0 at 0), differentiable: the derivative of `abs` for complex inputs."""
    from framework.ops.math.arithmetic import Abs

    return z / _as_complex_part(_nonzero(Abs().apply(z)), None, z._data.dtype)


def _as_complex_part(re: Tensor | None, im: Tensor | None, dtype) -> Tensor:
    """A complex tensor of `dtype` from a real part and/or an imaginary part (None is 0)."""
    from framework.ops.manipulation.cast import cast

    if im is None:
        return cast(re, dtype)
    if re is None:
        return cast(im, dtype) * 1j
    return Complex().apply(re, im)


def conj_grad(derivative: Tensor) -> Tensor:
    """`conj(derivative)` for complex data and `derivative` itself otherwise: what a backward
    multiplies the incoming gradient by under the conjugate Wirtinger convention."""
    if derivative._data.dtype.kind != "c":
        return derivative
    return Conj().apply(derivative)


def complex(real: Tensor, imag: Tensor, name: str | None = None) -> Tensor:  # noqa: A001
    """The complex tensor `real + 1j * imag`.

    `real`, `imag`: float32 or float64 tensors of one dtype, broadcast against each other. The
    result is complex64 for float32 parts and complex128 for float64 ones.

        framework.complex(framework.to_tensor([1.0]), framework.to_tensor([2.0]))  # [1.+2.j]
    """
    real, imag = as_operands(real, imag)
    for part in (real, imag):
        if part._data.dtype.kind != "f":
            raise TypeError(
                f"complex: real and imag must be float32 or float64, got {part._data.dtype.name}"
            )
    if real._data.dtype != imag._data.dtype:
        raise TypeError(
            "complex: real and imag need the same dtype, got "
            f"{real._data.dtype.name} and {imag._data.dtype.name}"
        )
    return Complex().apply(real, imag)


def real(x: Tensor, name: str | None = None) -> Tensor:
    """The real part of a complex tensor, in the matching real dtype (complex64 -> float32).

    framework.real(framework.to_tensor([1 + 2j]))   # [1.] float32
    """
    _require_complex(x, "real")
    return Real().apply(x)


def imag(x: Tensor, name: str | None = None) -> Tensor:
    """The imaginary part of a complex tensor, in the matching real dtype.

    framework.imag(framework.to_tensor([1 + 2j]))   # [2.] float32
    """
    _require_complex(x, "imag")
    return Imag().apply(x)


def conj(x: Tensor, name: str | None = None) -> Tensor:
    """The complex conjugate, elementwise; a real tensor comes back as a copy of itself.

    framework.conj(framework.to_tensor([1 + 2j]))   # [1.-2.j]
    """
    return Conj().apply(x)


def angle(x: Tensor, name: str | None = None) -> Tensor:
    """The argument of each element in radians, (-pi, pi], in the real dtype of `x`
    (complex64 -> float32; a real input gives 0 or pi). Integer inputs give the default float.

        framework.angle(framework.to_tensor([1j, -1.0 + 0j]))   # [1.5707964, 3.1415927]
    """
    from framework.ops.math.promotion import as_float

    return Angle().apply(as_float(x))


def as_complex(x: Tensor, name: str | None = None) -> Tensor:
    """`[..., 2]` float32/float64 pairs (real, imaginary) as a `[...]` complex tensor.

    framework.as_complex(framework.to_tensor([[1.0, 2.0]]))   # [1.+2.j] complex64
    """
    if x._data.dtype.kind != "f" or x._data.ndim == 0 or x._data.shape[-1] != 2:
        raise ValueError(
            "as_complex: expects a float tensor whose last axis has size 2, got "
            f"{x._data.dtype.name} of shape {x.shape}"
        )
    return AsComplex().apply(x)


def as_real(x: Tensor, name: str | None = None) -> Tensor:
    """A `[...]` complex tensor as `[..., 2]` pairs (real, imaginary) of its real dtype.

    framework.as_real(framework.to_tensor([1 + 2j]))   # [[1., 2.]] float32
    """
    _require_complex(x, "as_real")
    return AsReal().apply(x)


def view_as_complex(x: Tensor, name: str | None = None) -> Tensor:
    """Paddle's `view_as_complex`: `as_complex` (a copy here, not a view).

    framework.view_as_complex(framework.to_tensor([[1.0, 2.0]]))   # [1.+2.j] complex64
    """
    return as_complex(x)


def view_as_real(x: Tensor, name: str | None = None) -> Tensor:
    """Paddle's `view_as_real`: `as_real` (a copy here, not a view).

    framework.view_as_real(framework.to_tensor([1 + 2j]))   # [[1., 2.]] float32
    """
    return as_real(x)


def polar(abs: Tensor, angle: Tensor, name: str | None = None) -> Tensor:  # noqa: A002
    """The complex tensor `abs * (cos(angle) + 1j * sin(angle))` from polar coordinates.

    `abs`, `angle`: float32 or float64 tensors of one dtype, broadcast against each other; the
    result is complex64 or complex128. Differentiable in both.

        framework.polar(framework.to_tensor([2.0]), framework.to_tensor([0.0]))   # [2.+0.j]
    """
    from framework.ops.math.trigonometric import cos, sin

    abs, angle = as_operands(abs, angle)
    return complex(abs * cos(angle), abs * sin(angle))
