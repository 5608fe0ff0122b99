"""Fixed-mode padding layers, as in `paddle.nn`: ConstantPad, ReplicationPad, ReflectionPad and
CircularPad in 1-D, 2-D and 3-D, and ZeroPad1D. Each is Pad1D/2D/3D with its mode set, so the
forward, gradients and `extra_repr` are those of `F.pad`."""

from __future__ import annotations

from collections.abc import Sequence

from framework.nn.layer.common import Pad1D, Pad2D
from framework.nn.layer.padding3d import Pad3D


class ConstantPad1D(Pad1D):
    """Pad a 3-D `[N, C, L]` (or NLC) input with the constant `value`.

    `padding` is an int (every side) or `[left, right]`;
    the output keeps the input's dtype.

        pad = framework.nn.ConstantPad1D([1, 2], 0.5)
        pad(framework.ones([1, 2, 3])).shape   # [1, 2, 6]
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        value: float,
        data_format: str = "NCL",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "constant", value, data_format, name)


class ConstantPad2D(Pad2D):
    """Pad a 4-D `[N, C, H, W]` (or NHWC) input with the constant `value`.

    `padding` is an int (every side) or `[left, right, top, bottom]`;
    the output keeps the input's dtype.

        pad = framework.nn.ConstantPad2D([1, 2, 1, 2], 0.5)
        pad(framework.ones([1, 1, 3, 3])).shape   # [1, 1, 6, 6]
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        value: float,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "constant", value, data_format, name)


class ConstantPad3D(Pad3D):
    """Pad a 5-D `[N, C, D, H, W]` (or NDHWC) input with the constant `value`.

    `padding` is an int (every side) or `[left, right, top, bottom, front, back]`;
    the output keeps the input's dtype.

        pad = framework.nn.ConstantPad3D([1, 2, 1, 2, 1, 1], 0.5)
        pad(framework.ones([1, 1, 3, 3, 3])).shape   # [1, 1, 5, 6, 6]
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        value: float,
        data_format: str = "NCDHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "constant", value, data_format, name)


class ReplicationPad1D(Pad1D):
    """Pad a 3-D `[N, C, L]` (or NLC) input by repeating the edge values.

    `padding` is an int (every side) or `[left, right]`;
    the output keeps the input's dtype.

        pad = framework.nn.ReplicationPad1D([1, 2])
        pad(framework.ones([1, 2, 3])).shape   # [1, 2, 6]
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCL",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "replicate", 0.0, data_format, name)


class ReplicationPad2D(Pad2D):
    """Pad a 4-D `[N, C, H, W]` (or NHWC) input by repeating the edge values.

    `padding` is an int (every side) or `[left, right, top, bottom]`;
    the output keeps the input's dtype.

        pad = framework.nn.ReplicationPad2D([1, 2, 1, 2])
        pad(framework.ones([1, 1, 3, 3])).shape   # [1, 1, 6, 6]
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "replicate", 0.0, data_format, name)


class ReplicationPad3D(Pad3D):
    """Pad a 5-D `[N, C, D, H, W]` (or NDHWC) input by repeating the edge values.

    `padding` is an int (every side) or `[left, right, top, bottom, front, back]`;
    the output keeps the input's dtype.

        pad = framework.nn.ReplicationPad3D([1, 2, 1, 2, 1, 1])
        pad(framework.ones([1, 1, 3, 3, 3])).shape   # [1, 1, 5, 6, 6]
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCDHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "replicate", 0.0, data_format, name)


class ReflectionPad1D(Pad1D):
    """Pad a 3-D `[N, C, L]` (or NLC) input by mirroring it about its edges
    (each width below that axis's size).

    `padding` is an int (every side) or `[left, right]`;
    the output keeps the input's dtype.

        pad = framework.nn.ReflectionPad1D([1, 2])
        pad(framework.ones([1, 2, 3])).shape   # [1, 2, 6]
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCL",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "reflect", 0.0, data_format, name)


class ReflectionPad2D(Pad2D):
    """Pad a 4-D `[N, C, H, W]` (or NHWC) input by mirroring it about its edges
    (each width below that axis's size).

    `padding` is an int (every side) or `[left, right, top, bottom]`;
    the output keeps the input's dtype.

        pad = framework.nn.ReflectionPad2D([1, 2, 1, 2])
        pad(framework.ones([1, 1, 3, 3])).shape   # [1, 1, 6, 6]
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "reflect", 0.0, data_format, name)


class ReflectionPad3D(Pad3D):
    """Pad a 5-D `[N, C, D, H, W]` (or NDHWC) input by mirroring it about its edges
    (each width below that axis's size).

    `padding` is an int (every side) or `[left, right, top, bottom, front, back]`;
    the output keeps the input's dtype.

        pad = framework.nn.ReflectionPad3D([1, 2, 1, 2, 1, 1])
        pad(framework.ones([1, 1, 3, 3, 3])).shape   # [1, 1, 5, 6, 6]
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCDHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "reflect", 0.0, data_format, name)


class CircularPad1D(Pad1D):
    """Pad a 3-D `[N, C, L]` (or NLC) input by wrapping the input around (periodic).

    `padding` is an int (every side) or `[left, right]`;
    the output keeps the input's dtype.

        pad = framework.nn.CircularPad1D([1, 2])
        pad(framework.ones([1, 2, 3])).shape   # [1, 2, 6]
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCL",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "circular", 0.0, data_format, name)


class CircularPad2D(Pad2D):
    """Pad a 4-D `[N, C, H, W]` (or NHWC) input by wrapping the input around (periodic).

    `padding` is an int (every side) or `[left, right, top, bottom]`;
    the output keeps the input's dtype.

        pad = framework.nn.CircularPad2D([1, 2, 1, 2])
        pad(framework.ones([1, 1, 3, 3])).shape   # [1, 1, 6, 6]
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "circular", 0.0, data_format, name)


class CircularPad3D(Pad3D):
    """Pad a 5-D `[N, C, D, H, W]` (or NDHWC) input by wrapping the input around (periodic).

    `padding` is an int (every side) or `[left, right, top, bottom, front, back]`;
    the output keeps the input's dtype.

        pad = framework.nn.CircularPad3D([1, 2, 1, 2, 1, 1])
        pad(framework.ones([1, 1, 3, 3, 3])).shape   # [1, 1, 5, 6, 6]
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCDHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "circular", 0.0, data_format, name)


class ZeroPad1D(Pad1D):
    """Pad a 3-D `[N, C, L]` (or NLC) input with zeros by `padding` (an int or
    `[left, right]`).

        framework.nn.ZeroPad1D([1, 2])(framework.ones([1, 2, 3])).shape   # [1, 2, 6]
    """

    def __init__(
        self, padding: int | Sequence[int], data_format: str = "NCL", name: str | None = None
    ) -> None:
        super().__init__(padding, "constant", 0.0, data_format, name)
