"""MaxUnPool1D, MaxUnPool2D and MaxUnPool3D, as in `paddle.nn`: layers over
`F.max_unpool1d/2d/3d` that take the pooled values and the mask from `max_pool*d`."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.layers import Layer

Size = int | Sequence[int]


class _MaxUnPoolNd(Layer):
    _functional = staticmethod(F.max_unpool2d)

    def __init__(
        self,
        kernel_size: Size,
        stride: Size | None,
        padding: Size,
        data_format: str,
        output_size: Sequence[int] | None,
        name: str | None,
    ) -> None:
        super().__init__()
        self.ksize = kernel_size
        self.stride = stride
        self.padding = padding
        self.data_format = data_format
        self.output_size = output_size
        self.name = name

    def forward(
        self, x: Tensor, indices: Tensor, output_size: Sequence[int] | None = None
    ) -> Tensor:
        if output_size:
            warnings.warn(
                "output_size in forward overrides output_size in __init__",
                stacklevel=2,
            )
        return self._functional(
            x,
            indices,
            self.ksize,
            self.stride,
            self.padding,
            self.data_format,
            output_size or self.output_size,
        )

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class MaxUnPool1D(_MaxUnPoolNd):
    """The partial inverse of 1-D max pooling, as `paddle.nn.MaxUnPool1D`.

    Undo a `MaxPool1D(return_mask=True)`: `[N, C, L]` values + int32 indices ->
    `[N, C, L_out]`, zeros off the maxima; `L_out = (L - 1) * stride + kernel_size - 2 *
    padding` unless `output_size` (here or in forward) says otherwise.

    Args:
        kernel_size (int|list|tuple): the pooling window it undoes.
        stride (int|list|tuple, optional): None is `kernel_size`. Default: None.
        padding (int|list|tuple, optional): Default: 0.
        data_format (str, optional): 'NCL'. Default: 'NCL'.
        output_size (list|tuple, optional): the output's size. Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, L]` pooled values; float32 or float64.
        - indices: int32 positions of the maxima, the shape of `x`.
        - output: `[N, C, L_out]`, zeros off the maxima.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[1.0, 3.0, 2.0, 5.0]]])
        >>> y, idx = paddle.nn.MaxPool1D(2, return_mask=True)(x)
        >>> print(paddle.nn.MaxUnPool1D(2)(y, idx))
        Tensor(shape=[1, 1, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[0., 3., 0., 5.]]])
    """

    _functional = staticmethod(F.max_unpool1d)

    def __init__(
        self,
        kernel_size: Size,
        stride: Size | None = None,
        padding: Size = 0,
        data_format: str = "NCL",
        output_size: Sequence[int] | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(kernel_size, stride, padding, data_format, output_size, name)


class MaxUnPool2D(_MaxUnPoolNd):
    """The partial inverse of 2-D max pooling, as `paddle.nn.MaxUnPool2D`.

    Undo a `MaxPool2D(return_mask=True)`: `[N, C, H, W]` values + indices (flat positions
    in each H_out * W_out plane) -> `[N, C, H_out, W_out]`.

    Args:
        kernel_size (int|list|tuple): the pooling window it undoes.
        stride (int|list|tuple, optional): None is `kernel_size`. Default: None.
        padding (int|list|tuple, optional): Default: 0.
        data_format (str, optional): 'NCHW'. Default: 'NCHW'.
        output_size (list|tuple, optional): the output's size. Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]` pooled values; float32 or float64.
        - indices: int32 flat positions in each output plane, the shape of `x`.
        - output: `[N, C, H_out, W_out]`, zeros off the maxima.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.arange(16, dtype='float32').reshape([1, 1, 4, 4])
        >>> y, idx = paddle.nn.MaxPool2D(2, return_mask=True)(x)
        >>> print(paddle.nn.MaxUnPool2D(2)(y, idx))
        Tensor(shape=[1, 1, 4, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[0. , 0. , 0. , 0. ],
                  [0. , 5. , 0. , 7. ],
                  [0. , 0. , 0. , 0. ],
                  [0. , 13., 0. , 15.]]]])
    """

    _functional = staticmethod(F.max_unpool2d)

    def __init__(
        self,
        kernel_size: Size,
        stride: Size | None = None,
        padding: Size = 0,
        data_format: str = "NCHW",
        output_size: Sequence[int] | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(kernel_size, stride, padding, data_format, output_size, name)


class MaxUnPool3D(_MaxUnPoolNd):
    """The partial inverse of 3-D max pooling, as `paddle.nn.MaxUnPool3D`.

    Undo a `MaxPool3D(return_mask=True)`: `[N, C, D, H, W]` values + indices (flat
    positions in each output volume) -> `[N, C, D_out, H_out, W_out]`.

    Args:
        kernel_size (int|list|tuple): the pooling window it undoes.
        stride (int|list|tuple, optional): None is `kernel_size`. Default: None.
        padding (int|list|tuple, optional): Default: 0.
        data_format (str, optional): 'NCDHW'. Default: 'NCDHW'.
        output_size (list|tuple, optional): the output's size. Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, D, H, W]` pooled values; float32 or float64.
        - indices: int32 flat positions in each output volume, the shape of `x`.
        - output: `[N, C, D_out, H_out, W_out]`, zeros off the maxima.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.arange(8, dtype='float32').reshape([1, 1, 2, 2, 2])
        >>> y, idx = paddle.nn.MaxPool3D(2, return_mask=True)(x)
        >>> paddle.nn.MaxUnPool3D(2)(y, idx).flatten().tolist()
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 7.0]
    """

    _functional = staticmethod(F.max_unpool3d)

    def __init__(
        self,
        kernel_size: Size,
        stride: Size | None = None,
        padding: Size = 0,
        data_format: str = "NCDHW",
        output_size: Sequence[int] | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(kernel_size, stride, padding, data_format, output_size, name)
