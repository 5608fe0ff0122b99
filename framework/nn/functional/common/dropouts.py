"""Dropouts: `dropout`, `dropout1d`/`2d`/`3d`, `alpha_dropout` and `feature_alpha_dropout`, as
in `paddle.nn.functional`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from framework.core.backend import get_array_module
from framework.core.random import get_rng
from framework.core.tensor import Tensor
from framework.ops.nn.dropout import MaskedScale


def _keep_mask(x: Tensor, p: float, shape: tuple[int, ...]):
    """Booleans on x's device, True with probability 1 - p (drawn from the framework RNG)."""
    keep = get_rng().random(shape, dtype=np.float32) >= p
    return get_array_module(x._data).asarray(keep)


def _check_p(op: str, p: float) -> float:
    if isinstance(p, bool) or not 0.0 <= float(p) <= 1.0:
        raise ValueError(f"{op}: p must be a probability in [0, 1], got {p!r}")
    return float(p)


def dropout(
    x: Tensor,
    p: float = 0.5,
    axis: int | Sequence[int] | None = None,
    training: bool = True,
    mode: str = "upscale_in_train",
    inplace: bool = False,
    name: str | None = None,
) -> Tensor:
    """Dropout, as `paddle.nn.functional.dropout`.

    Zero each element with probability `p`.

    `mode='upscale_in_train'` (default) scales kept elements by `1/(1-p)` in training and is
    the identity otherwise; `'downscale_in_infer'` keeps training values as they are and
    multiplies by `1-p` at inference. `axis` shares one draw along the other axes.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        p (float, optional): the probability of zeroing an element, in [0, 1]. Default: 0.5.
        axis (int|list|tuple, optional): axes that get their own draws; the others share one.
            Default: None.
        training (bool, optional): drop only when True; False is the identity. Default: True.
        mode (str, optional): 'upscale_in_train' or 'downscale_in_infer'. Default:
            'upscale_in_train'.
        inplace (bool, optional): write the result into `x`. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.ones([2, 4])
        >>> _ = paddle.seed(1)
        >>> print(F.dropout(x, p=0.5))
        Tensor(shape=[2, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[0., 2., 2., 2.],
                [0., 0., 2., 2.]])
        >>> print(F.dropout(x, p=0.5, training=False))
        Tensor(shape=[2, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[1., 1., 1., 1.],
                [1., 1., 1., 1.]])
    """
    p = _check_p("dropout", p)
    if mode not in ("upscale_in_train", "downscale_in_infer"):
        raise ValueError(f"dropout: mode must be upscale_in_train or downscale_in_infer: {mode!r}")
    dtype = x._data.dtype
    if not training:
        if mode == "downscale_in_infer":
            return MaskedScale(dtype.type(1.0 - p)).apply(x)
        return x
    if p == 0.0:
        return x
    shape = x._data.shape
    if axis is not None:
        axes = [a % x.ndim for a in ([axis] if isinstance(axis, int) else axis)]
        shape = tuple(n if i in axes else 1 for i, n in enumerate(shape))
    keep = _keep_mask(x, p, shape)
    scale = 1.0 / (1.0 - p) if mode == "upscale_in_train" and p < 1.0 else 1.0
    mask = keep.astype(dtype)
    if scale != 1.0:
        mask *= dtype.type(scale)
    return MaskedScale(mask).apply(x)


def _feature_dropout(op: str, x: Tensor, p, training, data_format, formats) -> Tensor:
    if data_format not in formats:
        raise ValueError(f"{op}: data_format must be one of {formats}, got {data_format!r}")
    if x.ndim != len(formats[0]):
        raise ValueError(f"{op}: expected a {len(formats[0])}-D input, got shape {x.shape}")
    channel = 1 if data_format == formats[0] else x.ndim - 1
    return dropout(x, p, axis=[0, channel], training=training)


def dropout1d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    """Channel dropout for 1-D inputs, as `paddle.nn.functional.dropout1d`.

    Zero whole channels of a `[N, C, L]` (or unbatched `[C, L]`) input with probability `p`,
    kept ones scaled by 1/(1-p). As in Paddle (`dropout(axis=1)`), one draw per channel is
    shared by the whole batch. `inplace` is accepted and ignored, as in Paddle.

    Args:
        input (Tensor): `[N, C, L]` or `[C, L]`; float16, float32 or float64.
        p (float, optional): the probability of zeroing a channel. Default: 0.5.
        training (bool, optional): drop only when True; False is the identity. Default: True.
        inplace (bool, optional): accepted and ignored, as in Paddle. Default: False.

    Returns:
        Tensor: the shape and dtype of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> _ = paddle.seed(1)
        >>> print(F.dropout1d(paddle.ones([1, 4, 3])))
        Tensor(shape=[1, 4, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[0., 0., 0.],
                 [2., 2., 2.],
                 [2., 2., 2.],
                 [2., 2., 2.]]])
    """
    if input.ndim not in (2, 3):
        raise ValueError(f"dropout1d: expects a 2-D or 3-D input, got shape {input.shape}")
    batched = input if input.ndim == 3 else input.unsqueeze(0)
    out = dropout(batched, p, axis=1, training=training)
    return out if input.ndim == 3 else out.squeeze(0)


def dropout2d(
    x: Tensor,
    p: float = 0.5,
    training: bool = True,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    """Channel dropout for 2-D inputs, as `paddle.nn.functional.dropout2d`.

    Zero whole channels of a `[N, C, H, W]` input with probability `p` (scaled by 1/(1-p)).

    Args:
        x (Tensor): `[N, C, H, W]` ('NCHW') or `[N, H, W, C]`; float16, float32 or float64.
        p (float, optional): the probability of zeroing a channel. Default: 0.5.
        training (bool, optional): drop only when True; False is the identity. Default: True.
        data_format (str, optional): 'NCHW' or 'NHWC'. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> _ = paddle.seed(1)
        >>> y = F.dropout2d(paddle.ones([1, 4, 2, 2]))
        >>> print(y[0, :, 0, 0])
        Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0., 2., 2., 2.])
        >>> F.dropout2d(paddle.ones([1, 4, 2, 2]), training=False).sum().item()
        16.0
    """
    return _feature_dropout("dropout2d", x, p, training, data_format, ("NCHW", "NHWC"))


def dropout3d(
    x: Tensor,
    p: float = 0.5,
    training: bool = True,
    data_format: str = "NCDHW",
    name: str | None = None,
) -> Tensor:
    """Channel dropout for 3-D inputs, as `paddle.nn.functional.dropout3d`.

    Zero whole channels of a `[N, C, D, H, W]` input with probability `p`.

    Args:
        x (Tensor): `[N, C, D, H, W]` ('NCDHW') or `[N, D, H, W, C]`; float16, float32 or float64.
        p (float, optional): the probability of zeroing a channel. Default: 0.5.
        training (bool, optional): drop only when True; False is the identity. Default: True.
        data_format (str, optional): 'NCDHW' or 'NDHWC'. Default: 'NCDHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> _ = paddle.seed(1)
        >>> y = F.dropout3d(paddle.ones([1, 4, 2, 2, 2]))
        >>> print(y[0, :, 0, 0, 0])
        Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0., 2., 2., 2.])
    """
    return _feature_dropout("dropout3d", x, p, training, data_format, ("NCDHW", "NDHWC"))


def _alpha_dropout(op: str, x: Tensor, p: float, training: bool, shape: tuple[int, ...]):
    p = _check_p(op, p)
    if not training or p == 0.0:
        return x
    dtype = x._data.dtype
    if p == 1.0:  # every element dropped: zeros, as in Paddle (the affine map is undefined)
        return MaskedScale(dtype.type(0.0)).apply(x)
    alpha_p = -1.6732632423543772 * 1.0507009873554805
    a = ((1.0 - p) * (1.0 + p * alpha_p**2)) ** -0.5
    keep = _keep_mask(x, p, shape).astype(dtype)
    offset = (1.0 - keep) * dtype.type(a * alpha_p) + dtype.type(-a * alpha_p * p)
    return MaskedScale(keep * dtype.type(a), offset).apply(x)


def alpha_dropout(
    x: Tensor, p: float = 0.5, training: bool = True, name: str | None = None
) -> Tensor:
    """Alpha dropout, as `paddle.nn.functional.alpha_dropout`.

    Dropout that keeps SELU's self-normalizing mean and variance: dropped elements take
    SELU's negative saturation value, then an affine map restores the statistics.

    Args:
        x (Tensor): the input, any shape; float32 or float64.
        p (float, optional): the probability of dropping an element. Default: 0.5.
        training (bool, optional): drop only when True; False is the identity. Default: True.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[-1.0, 1.0, 0.5, 2.0]])
        >>> _ = paddle.seed(1)
        >>> print(F.alpha_dropout(x, p=0.5))
        Tensor(shape=[1, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[-0.77919394,  1.66559887,  1.22239637,  2.55200362]])
        >>> print(F.alpha_dropout(x, p=0.5, training=False))
        Tensor(shape=[1, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[-1.       ,  1.       , 0.50000000,  2.       ]])
    """
    return _alpha_dropout("alpha_dropout", x, p, training, x._data.shape)


def feature_alpha_dropout(
    x: Tensor, p: float = 0.5, training: bool = True, name: str | None = None
) -> Tensor:
    """Channel-wise alpha dropout, as `paddle.nn.functional.feature_alpha_dropout`.

    Alpha dropout of whole channels: one draw per `[N, C]` pair of an input of at least 2-D
    (`[N, C, *]`), so a dropped channel becomes SELU's saturation value everywhere, then the
    affine map that keeps a zero-mean, unit-variance input so. Same shape and dtype as x; the
    identity when `training` is False.

    Args:
        x (Tensor): `[N, C, *]`, at least 2-D; float32 or float64.
        p (float, optional): the probability of dropping a channel. Default: 0.5.
        training (bool, optional): drop only when True; False is the identity. Default: True.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> _ = paddle.seed(1)
        >>> print(F.feature_alpha_dropout(paddle.ones([1, 4, 2]), p=0.5))
        Tensor(shape=[1, 4, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[-0.77919394, -0.77919394],
                 [ 1.66559887,  1.66559887],
                 [ 1.66559887,  1.66559887],
                 [ 1.66559887,  1.66559887]]])
    """
    if x.ndim < 2:
        raise ValueError(
            f"feature_alpha_dropout: needs an input of at least 2-D [N, C, ...], got {x.shape}"
        )
    shape = tuple(x.shape[:2]) + (1,) * (x.ndim - 2)
    return _alpha_dropout("feature_alpha_dropout", x, p, training, shape)
