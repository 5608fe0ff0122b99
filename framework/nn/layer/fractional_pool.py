"""FractionalMaxPool2D and FractionalMaxPool3D, as in `paddle.nn`; they call
`F.fractional_max_pool2d` / `F.fractional_max_pool3d`."""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.layers import Layer

Size = int | Sequence[int | None]


class _FractionalMaxPoolNd(Layer):
    _functional = staticmethod(F.fractional_max_pool2d)

    def __init__(
        self,
        output_size: Size,
        kernel_size: int | Sequence[int] | None = None,
        random_u: float | None = None,
        return_mask: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self._output_size = output_size
        self._kernel_size = kernel_size
        self._random_u = random_u
        self._return_mask = return_mask
        self._name = name

    def forward(self, x: Tensor) -> Tensor | tuple[Tensor, Tensor]:
        return self._functional(
            x, self._output_size, self._kernel_size, self._random_u, self._return_mask
        )

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


class FractionalMaxPool2D(_FractionalMaxPoolNd):
    """2-D fractional max pooling, as `paddle.nn.FractionalMaxPool2D`.

    Fractional max pooling of `[N, C, H, W]` to `[N, C, *output_size]` (see
    `F.fractional_max_pool2d`); a fixed `random_u` in (0, 1) fixes the windows.

    Args:
        output_size (int|list|tuple): the output's spatial size; None keeps a size.
        kernel_size (int|list|tuple, optional): overlapping windows of this size; None draws
            disjoint ones. Default: None.
        random_u (float, optional): in (0, 1), fixes the window offsets. Default: None.
        return_mask (bool, optional): also return the int32 flat index of each maximum. Default:
            False.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]`; float32 or float64.
        - output: `[N, C, *output_size]`; with `return_mask`, `(out, mask)`.

    Examples:
        >>> import framework as paddle
        >>> pool = paddle.nn.FractionalMaxPool2D(output_size=[2, 3], random_u=0.3)
        >>> print(pool(paddle.arange(16, dtype='float32').reshape([1, 1, 4, 4])))
        Tensor(shape=[1, 1, 2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[4. , 6. , 7. ],
                  [12., 14., 15.]]]])
    """

    _functional = staticmethod(F.fractional_max_pool2d)


class FractionalMaxPool3D(_FractionalMaxPoolNd):
    """3-D fractional max pooling, as `paddle.nn.FractionalMaxPool3D`.

    Fractional max pooling of `[N, C, D, H, W]` to `[N, C, *output_size]` (see
    `F.fractional_max_pool3d`).

    Args:
        output_size (int|list|tuple): the output's spatial size; None keeps a size.
        kernel_size (int|list|tuple, optional): overlapping windows of this size; None draws
            disjoint ones. Default: None.
        random_u (float, optional): in (0, 1), fixes the window offsets. Default: None.
        return_mask (bool, optional): also return the int32 flat index of each maximum. Default:
            False.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, D, H, W]`; float32 or float64.
        - output: `[N, C, *output_size]`; with `return_mask`, `(out, mask)`.

    Examples:
        >>> import framework as paddle
        >>> pool = paddle.nn.FractionalMaxPool3D(output_size=3, random_u=0.5)
        >>> pool(paddle.ones([1, 2, 5, 6, 7])).shape
        paddle.Size([1, 2, 3, 3, 3])
    """

    _functional = staticmethod(F.fractional_max_pool3d)
