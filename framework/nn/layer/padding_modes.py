"""Fixed-mode padding layers, as in `paddle.nn`: ConstantPad, ReplicationPad, ReflectionPad and
CircularPad in 1-D, 2-D and 3-D, and ZeroPad1D. Each is Pad1D/2D/3D with its mode set, so the
forward, gradients and `extra_repr` are those of `F.pad`."""

from __future__ import annotations

from collections.abc import Sequence

from framework.nn.layer.common.padding import Pad1D, Pad2D
from framework.nn.layer.padding3d import Pad3D


class ConstantPad1D(Pad1D):
    """Constant padding of 1-D inputs, as `paddle.nn.ConstantPad1D`.

    Pad a 3-D `[N, C, L]` (or NLC) input with the constant `value`.

    `padding` is an int (every side) or `[left, right]`;
    the output keeps the input's dtype.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right]`.
        value (float): the constant padded in.
        data_format (str, optional): the input's layout. Default: 'NCL'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, L]` ('NCL') or `[N, L, C]` ('NLC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[1.0, 2.0, 3.0]]])
        >>> print(paddle.nn.ConstantPad1D([1, 2], 9.0)(x))
        Tensor(shape=[1, 1, 6], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[9., 1., 2., 3., 9., 9.]]])
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
    """Constant padding of 2-D inputs, as `paddle.nn.ConstantPad2D`.

    Pad a 4-D `[N, C, H, W]` (or NHWC) input with the constant `value`.

    `padding` is an int (every side) or `[left, right, top, bottom]`;
    the output keeps the input's dtype.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right, top, bottom]`.
        value (float): the constant padded in.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]` ('NCHW') or `[N, H, W, C]` ('NHWC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> print(paddle.nn.ConstantPad2D([1, 0, 1, 0], 9.0)(x))
        Tensor(shape=[1, 1, 3, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[9., 9., 9.],
                  [9., 1., 2.],
                  [9., 3., 4.]]]])
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
    """Constant padding of 3-D inputs, as `paddle.nn.ConstantPad3D`.

    Pad a 5-D `[N, C, D, H, W]` (or NDHWC) input with the constant `value`.

    `padding` is an int (every side) or `[left, right, top, bottom, front, back]`;
    the output keeps the input's dtype.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right, top, bottom,
            front, back]`.
        value (float): the constant padded in.
        data_format (str, optional): the input's layout. Default: 'NCDHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, D, H, W]` ('NCDHW') or `[N, D, H, W, C]` ('NDHWC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[[[1.0, 2.0]]]]])
        >>> print(paddle.nn.ConstantPad3D([1, 0, 0, 0, 0, 0], 9.0)(x))
        Tensor(shape=[1, 1, 1, 1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[[9., 1., 2.]]]]])
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
    """Replication padding of 1-D inputs, as `paddle.nn.ReplicationPad1D`.

    Pad a 3-D `[N, C, L]` (or NLC) input by repeating the edge values.

    `padding` is an int (every side) or `[left, right]`;
    the output keeps the input's dtype.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right]`.
        data_format (str, optional): the input's layout. Default: 'NCL'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, L]` ('NCL') or `[N, L, C]` ('NLC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[1.0, 2.0, 3.0]]])
        >>> print(paddle.nn.ReplicationPad1D([1, 2])(x))
        Tensor(shape=[1, 1, 6], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[1., 1., 2., 3., 3., 3.]]])
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCL",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "replicate", 0.0, data_format, name)


class ReplicationPad2D(Pad2D):
    """Replication padding of 2-D inputs, as `paddle.nn.ReplicationPad2D`.

    Pad a 4-D `[N, C, H, W]` (or NHWC) input by repeating the edge values.

    `padding` is an int (every side) or `[left, right, top, bottom]`;
    the output keeps the input's dtype.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right, top, bottom]`.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]` ('NCHW') or `[N, H, W, C]` ('NHWC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> print(paddle.nn.ReplicationPad2D([1, 0, 1, 0])(x))
        Tensor(shape=[1, 1, 3, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[1., 1., 2.],
                  [1., 1., 2.],
                  [3., 3., 4.]]]])
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "replicate", 0.0, data_format, name)


class ReplicationPad3D(Pad3D):
    """Replication padding of 3-D inputs, as `paddle.nn.ReplicationPad3D`.

    Pad a 5-D `[N, C, D, H, W]` (or NDHWC) input by repeating the edge values.

    `padding` is an int (every side) or `[left, right, top, bottom, front, back]`;
    the output keeps the input's dtype.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right, top, bottom,
            front, back]`.
        data_format (str, optional): the input's layout. Default: 'NCDHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, D, H, W]` ('NCDHW') or `[N, D, H, W, C]` ('NDHWC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[[[1.0, 2.0]]]]])
        >>> print(paddle.nn.ReplicationPad3D([1, 0, 0, 0, 0, 0])(x))
        Tensor(shape=[1, 1, 1, 1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[[1., 1., 2.]]]]])
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCDHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "replicate", 0.0, data_format, name)


class ReflectionPad1D(Pad1D):
    """Reflection padding of 1-D inputs, as `paddle.nn.ReflectionPad1D`.

    Pad a 3-D `[N, C, L]` (or NLC) input by mirroring it about its edges
    (each width below that axis's size).

    `padding` is an int (every side) or `[left, right]`;
    the output keeps the input's dtype.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right]`.
        data_format (str, optional): the input's layout. Default: 'NCL'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, L]` ('NCL') or `[N, L, C]` ('NLC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[1.0, 2.0, 3.0]]])
        >>> print(paddle.nn.ReflectionPad1D([1, 2])(x))
        Tensor(shape=[1, 1, 6], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[2., 1., 2., 3., 2., 1.]]])
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCL",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "reflect", 0.0, data_format, name)


class ReflectionPad2D(Pad2D):
    """Reflection padding of 2-D inputs, as `paddle.nn.ReflectionPad2D`.

    Pad a 4-D `[N, C, H, W]` (or NHWC) input by mirroring it about its edges
    (each width below that axis's size).

    `padding` is an int (every side) or `[left, right, top, bottom]`;
    the output keeps the input's dtype.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right, top, bottom]`.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]` ('NCHW') or `[N, H, W, C]` ('NHWC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> print(paddle.nn.ReflectionPad2D([1, 0, 1, 0])(x))
        Tensor(shape=[1, 1, 3, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[4., 3., 4.],
                  [2., 1., 2.],
                  [4., 3., 4.]]]])
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "reflect", 0.0, data_format, name)


class ReflectionPad3D(Pad3D):
    """Reflection padding of 3-D inputs, as `paddle.nn.ReflectionPad3D`.

    Pad a 5-D `[N, C, D, H, W]` (or NDHWC) input by mirroring it about its edges
    (each width below that axis's size).

    `padding` is an int (every side) or `[left, right, top, bottom, front, back]`;
    the output keeps the input's dtype.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right, top, bottom,
            front, back]`.
        data_format (str, optional): the input's layout. Default: 'NCDHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, D, H, W]` ('NCDHW') or `[N, D, H, W, C]` ('NDHWC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[[[1.0, 2.0]]]]])
        >>> print(paddle.nn.ReflectionPad3D([1, 0, 0, 0, 0, 0])(x))
        Tensor(shape=[1, 1, 1, 1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[[2., 1., 2.]]]]])
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCDHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "reflect", 0.0, data_format, name)


class CircularPad1D(Pad1D):
    """Circular padding of 1-D inputs, as `paddle.nn.CircularPad1D`.

    Pad a 3-D `[N, C, L]` (or NLC) input by wrapping the input around (periodic).

    `padding` is an int (every side) or `[left, right]`;
    the output keeps the input's dtype.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right]`.
        data_format (str, optional): the input's layout. Default: 'NCL'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, L]` ('NCL') or `[N, L, C]` ('NLC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[1.0, 2.0, 3.0]]])
        >>> print(paddle.nn.CircularPad1D([1, 2])(x))
        Tensor(shape=[1, 1, 6], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[3., 1., 2., 3., 1., 2.]]])
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCL",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "circular", 0.0, data_format, name)


class CircularPad2D(Pad2D):
    """Circular padding of 2-D inputs, as `paddle.nn.CircularPad2D`.

    Pad a 4-D `[N, C, H, W]` (or NHWC) input by wrapping the input around (periodic).

    `padding` is an int (every side) or `[left, right, top, bottom]`;
    the output keeps the input's dtype.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right, top, bottom]`.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]` ('NCHW') or `[N, H, W, C]` ('NHWC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> print(paddle.nn.CircularPad2D([1, 0, 1, 0])(x))
        Tensor(shape=[1, 1, 3, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[4., 3., 4.],
                  [2., 1., 2.],
                  [4., 3., 4.]]]])
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "circular", 0.0, data_format, name)


class CircularPad3D(Pad3D):
    """Circular padding of 3-D inputs, as `paddle.nn.CircularPad3D`.

    Pad a 5-D `[N, C, D, H, W]` (or NDHWC) input by wrapping the input around (periodic).

    `padding` is an int (every side) or `[left, right, top, bottom, front, back]`;
    the output keeps the input's dtype.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right, top, bottom,
            front, back]`.
        data_format (str, optional): the input's layout. Default: 'NCDHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, D, H, W]` ('NCDHW') or `[N, D, H, W, C]` ('NDHWC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[[[1.0, 2.0]]]]])
        >>> print(paddle.nn.CircularPad3D([1, 0, 0, 0, 0, 0])(x))
        Tensor(shape=[1, 1, 1, 1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[[2., 1., 2.]]]]])
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        data_format: str = "NCDHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, "circular", 0.0, data_format, name)


class ZeroPad1D(Pad1D):
    """Zero padding of 1-D inputs, as `paddle.nn.ZeroPad1D`.

    Pad a 3-D `[N, C, L]` (or NLC) input with zeros by `padding` (an int or
    `[left, right]`).

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right]`.
        data_format (str, optional): the input's layout. Default: 'NCL'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, L]` ('NCL') or `[N, L, C]` ('NLC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[1.0, 2.0, 3.0]]])
        >>> print(paddle.nn.ZeroPad1D([1, 2])(x))
        Tensor(shape=[1, 1, 6], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[0., 1., 2., 3., 0., 0.]]])
    """

    def __init__(
        self, padding: int | Sequence[int], data_format: str = "NCL", name: str | None = None
    ) -> None:
        super().__init__(padding, "constant", 0.0, data_format, name)
