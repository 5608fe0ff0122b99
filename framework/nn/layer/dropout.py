"""Dropout layers: Dropout, Dropout2D, Dropout3D and AlphaDropout, as in `paddle.nn`.

Each is active only in training mode (`layer.train()`); in eval mode it passes its input on
(scaled by `1 - p` for Dropout's 'downscale_in_infer' mode).
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.layers import Layer


def _check_p(p: float) -> float:
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p argument should between 0 and 1, got {p}")
    return p


class Dropout(Layer):
    """Zero each element with probability `p` in training, as `paddle.nn.Dropout`.

    With `mode='upscale_in_train'` (the default) the kept elements are scaled by `1 / (1 - p)`
    in training and the layer is the identity in eval; 'downscale_in_infer' scales by `1 - p` in
    eval instead. `axis` drops whole slices along the given axes.

    Args:
        p (float, optional): probability of zeroing an element. Default: 0.5.
        axis (int|list, optional): axes along which one mask is shared. Default: None.
        mode (str, optional): 'upscale_in_train' or 'downscale_in_infer'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: any shape, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> drop = paddle.nn.Dropout(p=0.5)
        >>> x = paddle.ones([2, 3])
        >>> drop(x).shape
        paddle.Size([2, 3])
        >>> _ = drop.eval()
        >>> drop(x)
        Tensor(shape=[2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[1., 1., 1.],
                [1., 1., 1.]])
    """

    def __init__(
        self,
        p: float = 0.5,
        inplace: bool = False,
        axis: int | Sequence[int] | None = None,
        mode: str = "upscale_in_train",
        name: str | None = None,
    ) -> None:
        super().__init__()
        _check_p(p)
        if mode not in ("upscale_in_train", "downscale_in_infer"):
            raise ValueError(
                f"mode should be 'upscale_in_train' or 'downscale_in_infer', got {mode!r}"
            )
        self.p = p
        self.inplace = inplace
        self.axis = axis
        self.mode = mode
        self.name = name

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, p=self.p, axis=self.axis, training=self.training, mode=self.mode)

    def extra_repr(self) -> str:
        name = f", name={self.name}" if self.name else ""
        return f"p={self.p}, axis={self.axis}, mode={self.mode}{name}, inplace={self.inplace}"


class Dropout2D(Layer):
    """Zero whole channels of an NCHW (or NHWC) input with probability `p`, as
    `paddle.nn.Dropout2D`; kept channels are scaled by `1 / (1 - p)` in training.

    Args:
        p (float, optional): probability of zeroing a channel. Default: 0.5.
        data_format (str, optional): 'NCHW' or 'NHWC'. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]`, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> drop = paddle.nn.Dropout2D(p=0.5)
        >>> drop(paddle.ones([2, 4, 3, 3])).shape
        paddle.Size([2, 4, 3, 3])
    """

    def __init__(self, p: float = 0.5, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        self.p = _check_p(p)
        self.data_format = data_format
        self.name = name

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout2d(input, p=self.p, training=self.training, data_format=self.data_format)

    def extra_repr(self) -> str:
        name = f", name={self.name}" if self.name else ""
        return f"p={self.p}, data_format={self.data_format}{name}"


class Dropout3D(Layer):
    """Channel dropout of 5-D inputs, as `paddle.nn.Dropout3D`.

    Zero whole channels of an NCDHW (or NDHWC) input with probability `p` in training.

    Args:
        p (float, optional): the probability of zeroing a channel. Default: 0.5.
        data_format (str, optional): 'NCDHW' or 'NDHWC'. Default: 'NCDHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, D, H, W]` (or NDHWC); float16, float32 or float64.
        - output: the shape and dtype of `x`; kept channels scaled by `1 / (1 - p)`.

    Examples:
        >>> import framework as paddle
        >>> _ = paddle.seed(1)
        >>> y = paddle.nn.Dropout3D(p=0.5)(paddle.ones([1, 4, 2, 2, 2]))
        >>> print(y[0, :, 0, 0, 0])
        Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0., 2., 2., 2.])
    """

    def __init__(self, p: float = 0.5, data_format: str = "NCDHW", name: str | None = None) -> None:
        super().__init__()
        self.p = _check_p(p)
        self.data_format = data_format
        self.name = name

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout3d(input, p=self.p, training=self.training, data_format=self.data_format)

    def extra_repr(self) -> str:
        name = f", name={self.name}" if self.name else ""
        return f"p={self.p}, data_format={self.data_format}{name}"


class AlphaDropout(Layer):
    """Alpha dropout, as `paddle.nn.AlphaDropout`.

    Dropout that keeps a SELU network's mean and variance (for self-normalizing nets).

    Args:
        p (float, optional): the probability of dropping an element. Default: 0.5.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: any shape; float32 or float64.
        - output: the shape and dtype of `x`; `x` itself in eval mode.

    Examples:
        >>> import framework as paddle
        >>> _ = paddle.seed(1)
        >>> drop = paddle.nn.AlphaDropout(p=0.5)
        >>> x = paddle.to_tensor([[-1.0, 1.0, 0.5, 2.0]])
        >>> print(drop(x))
        Tensor(shape=[1, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[-0.77919394,  1.66559887,  1.22239637,  2.55200362]])
        >>> _ = drop.eval()
        >>> print(drop(x))
        Tensor(shape=[1, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[-1.       ,  1.       , 0.50000000,  2.       ]])
    """

    def __init__(self, p: float = 0.5, name: str | None = None) -> None:
        super().__init__()
        self.p = _check_p(p)
        self.name = name

    def forward(self, input: Tensor) -> Tensor:
        return F.alpha_dropout(input, p=self.p, training=self.training)

    def extra_repr(self) -> str:
        name = f", name={self.name}" if self.name else ""
        return f"p={self.p}{name}"


class FeatureAlphaDropout(Layer):
    """Channel-wise alpha dropout, as `paddle.nn.FeatureAlphaDropout`.

    Alpha dropout of whole channels of an `[N, C, *]` input in training (see
    `F.feature_alpha_dropout`); the identity in eval mode.

    Args:
        p (float, optional): the probability of dropping a channel. Default: 0.5.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, *]`; float32 or float64.
        - output: the shape and dtype of `x`; `x` itself in eval mode.

    Examples:
        >>> import framework as paddle
        >>> _ = paddle.seed(1)
        >>> print(paddle.nn.FeatureAlphaDropout(p=0.5)(paddle.ones([1, 4, 1])))
        Tensor(shape=[1, 4, 1], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[-0.77919394],
                 [ 1.66559887],
                 [ 1.66559887],
                 [ 1.66559887]]])
    """

    def __init__(self, p: float = 0.5, name: str | None = None) -> None:
        super().__init__()
        self.p = _check_p(p)
        self.name = name

    def forward(self, input: Tensor) -> Tensor:
        return F.feature_alpha_dropout(input, p=self.p, training=self.training)

    def extra_repr(self) -> str:
        name = f", name={self.name}" if self.name else ""
        return f"p={self.p}{name}"
