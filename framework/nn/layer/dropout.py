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
    """Zero whole channels of an NCDHW (or NDHWC) input with probability `p` in training."""

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
    """Dropout that keeps a SELU network's mean and variance (for self-normalizing nets)."""

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
    """Alpha dropout of whole channels of an `[N, C, *]` input in training (see
    `F.feature_alpha_dropout`); the identity in eval mode.

        drop = framework.nn.FeatureAlphaDropout(p=0.2)
        drop(framework.randn([2, 4, 3, 3])).shape   # [2, 4, 3, 3]
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
