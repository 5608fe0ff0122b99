"""Normalization: `batch_norm`, `layer_norm`, `group_norm`, `instance_norm`, `normalize`,
`rms_norm`.

Paddle's conventions: `momentum=0.9` means `running = 0.9 * running + 0.1 * batch`, and the
running variance tracks the biased batch variance (as Paddle 3 does; PyTorch tracks the
unbiased one). Running statistics are updated in place.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from framework.amp.auto_cast import amp_cast
from framework.core.tensor import Tensor
from framework.ops.linalg.norm import vector_norm
from framework.ops.math.arithmetic import divide
from framework.ops.math.extrema import maximum
from framework.ops.nn.normalization import Normalize, NormPlan

_BATCH_NORM_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


def _apply(
    op: str, plan: NormPlan, x: Tensor, weight: Tensor | None, bias: Tensor | None
) -> Tensor:
    inputs = [x] + [p for p in (weight, bias) if p is not None]
    # Normalisation is on auto_cast's black list: statistics in float16 lose too much.
    return Normalize(plan, weight is not None, bias is not None).apply(*amp_cast(op, *inputs))


def _check_param(op: str, name: str, param: Tensor | None, size: int) -> None:
    if param is not None and param.size != size:
        raise ValueError(f"{op}: {name} must have {size} elements, got shape {param.shape}")


def _running_update(running_mean: Tensor, running_var: Tensor, momentum: float):
    def update(mean, var, count: int) -> None:
        for running, batch in ((running_mean, mean), (running_var, var)):
            data = running._data
            data *= momentum
            data += (1.0 - momentum) * batch.astype(data.dtype, copy=False)

    return update


def batch_norm(
    x: Tensor,
    running_mean: Tensor,
    running_var: Tensor,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.9,
    epsilon: float = 1e-05,
    data_format: str = "NCHW",
    use_global_stats: bool | None = None,
    name: str | None = None,
) -> Tensor:
    """Batch normalisation, as `paddle.nn.functional.batch_norm`.

    Batch normalization over every axis but the channel axis.

    Training (or `use_global_stats=False`) normalizes with the batch statistics and updates
    `running_mean`/`running_var` in place with `running = momentum * running + (1 - momentum)
    * batch`; otherwise the running statistics are used.

    Args:
        x (Tensor): `[N, C]`, `[N, C, L]`, `[N, C, H, W]` or `[N, C, D, H, W]` (channels first by
            default); float32 or float64.
        running_mean (Tensor): `[C]`, updated in place in training.
        running_var (Tensor): `[C]`, updated in place in training.
        weight (Tensor, optional): `[C]`, the scale per channel. Default: None.
        bias (Tensor, optional): `[C]`, the shift per channel. Default: None.
        training (bool, optional): use and update batch statistics. Default: False.
        momentum (float, optional): the running statistics' decay. Default: 0.9.
        epsilon (float, optional): added to the variance. Default: 1e-05.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        use_global_stats (bool, optional): force running (True) or batch (False) statistics.
            Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 6.0]])
        >>> mean, var = paddle.zeros([2]), paddle.ones([2])
        >>> print(F.batch_norm(x, mean, var, training=True))
        Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[-0.99999499, -0.99999881],
                [ 0.99999499,  0.99999881]])
        >>> print(mean)
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0.20000000, 0.40000001])
    """
    if data_format not in _BATCH_NORM_FORMATS:
        raise ValueError(f"batch_norm: data_format must be one of {_BATCH_NORM_FORMATS}")
    if x.ndim < 2:
        raise ValueError(f"batch_norm: expected an input with at least 2 dims, got {x.shape}")
    channel_axis = x.ndim - 1 if data_format[1] != "C" else 1
    channels = x.shape[channel_axis]
    for label, t in (("running_mean", running_mean), ("running_var", running_var)):
        _check_param("batch_norm", label, t, channels)
    _check_param("batch_norm", "weight", weight, channels)
    _check_param("batch_norm", "bias", bias, channels)
    global_stats = (not training) if use_global_stats is None else use_global_stats
    plan = NormPlan(
        epsilon,
        (channels,),
        channel_axis=channel_axis,
        fixed_stats=(running_mean._data, running_var._data) if global_stats else None,
        on_stats=None if global_stats else _running_update(running_mean, running_var, momentum),
    )
    return _apply("batch_norm", plan, x, weight, bias)


def layer_norm(
    x: Tensor,
    normalized_shape: int | Sequence[int],
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    epsilon: float = 1e-05,
    name: str | None = None,
) -> Tensor:
    """Layer normalisation, as `paddle.nn.functional.layer_norm`.

    Normalize over the trailing `normalized_shape` dims of each sample.

    Args:
        x (Tensor): `[*, *normalized_shape]`; float32 or float64.
        normalized_shape (int|list|tuple): the trailing axes normalised.
        weight (Tensor, optional): the scale, shaped `normalized_shape`. Default: None.
        bias (Tensor, optional): the shift, shaped `normalized_shape`. Default: None.
        epsilon (float, optional): added to the variance. Default: 1e-05.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[1.0, 2.0, 3.0], [2.0, 2.0, 8.0]])
        >>> print(F.layer_norm(x, 3))
        Tensor(shape=[2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[-1.22473562,  0.        ,  1.22473562],
                [-0.70710635, -0.70710635,  1.41421270]])
    """
    shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    if list(x.shape[x.ndim - len(shape) :]) != shape:
        raise ValueError(
            f"layer_norm: normalized_shape {shape} does not match the input's trailing dims "
            f"(input shape {x.shape})"
        )
    size = math.prod(shape)
    _check_param("layer_norm", "weight", weight, size)
    _check_param("layer_norm", "bias", bias, size)
    rows = math.prod(x.shape[: x.ndim - len(shape)])
    given = weight if weight is not None else bias
    param_shape = tuple(given.shape) if given is not None else tuple(shape)
    plan = NormPlan(epsilon, param_shape, axes=(2,), param_axes=(0, 1), view_shape=(rows, 1, size))
    return _apply("layer_norm", plan, x, weight, bias)


def group_norm(
    x: Tensor,
    num_groups: int,
    epsilon: float = 1e-05,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    """Group normalisation, as `paddle.nn.functional.group_norm`.

    Normalize each sample over groups of `C / num_groups` channels (and all positions).

    Args:
        x (Tensor): `[N, C, *]` ('NCHW') or channels last; float32 or float64.
        num_groups (int): divides C.
        epsilon (float, optional): added to the variance. Default: 1e-05.
        weight (Tensor, optional): `[C]`, the scale per channel. Default: None.
        bias (Tensor, optional): `[C]`, the shift per channel. Default: None.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> print(F.group_norm(paddle.to_tensor([[[1.0], [3.0], [5.0], [5.0]]]), num_groups=2))
        Tensor(shape=[1, 4, 1], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[-0.99999499],
                 [ 0.99999499],
                 [ 0.        ],
                 [ 0.        ]]])
    """
    if x.ndim < 2:
        raise ValueError(f"group_norm: expected an input with at least 2 dims, got {x.shape}")
    channel_last = data_format in ("NLC", "NHWC", "NDHWC")
    channels = x.shape[-1 if channel_last else 1]
    if num_groups < 1 or channels % num_groups:
        raise ValueError(f"group_norm: num_groups={num_groups} must divide {channels} channels")
    _check_param("group_norm", "weight", weight, channels)
    _check_param("group_norm", "bias", bias, channels)
    positions = math.prod(x.shape) // max(1, x.shape[0] * channels)
    plan = NormPlan(
        epsilon,
        (channels,),
        axes=(2, 3),
        param_axes=(0, 3),
        view_shape=(x.shape[0], num_groups, channels // num_groups, positions),
        move_axis=x.ndim - 1 if channel_last else None,
    )
    return _apply("group_norm", plan, x, weight, bias)


def instance_norm(
    x: Tensor,
    running_mean: Tensor | None = None,
    running_var: Tensor | None = None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    use_input_stats: bool = True,
    momentum: float = 0.9,
    eps: float = 1e-05,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    """Instance normalisation, as `paddle.nn.functional.instance_norm`.

    Normalize each (sample, channel) plane over its positions.

    With `use_input_stats=False` the given running statistics are used instead, per channel.

    Args:
        x (Tensor): `[N, C, *]`; float32 or float64.
        running_mean (Tensor, optional): `[C]`, used with `use_input_stats=False`. Default: None.
        running_var (Tensor, optional): `[C]`, used with `use_input_stats=False`. Default: None.
        weight (Tensor, optional): `[C]`, the scale per channel. Default: None.
        bias (Tensor, optional): `[C]`, the shift per channel. Default: None.
        use_input_stats (bool, optional): normalise with each plane's own statistics. Default: True.
        momentum (float, optional): accepted for Paddle's signature. Default: 0.9.
        eps (float, optional): added to the variance. Default: 1e-05.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[[1.0, 3.0]], [[2.0, 6.0]]])
        >>> x.shape
        paddle.Size([2, 1, 2])
        >>> print(F.instance_norm(x))
        Tensor(shape=[2, 1, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[-0.99999499,  0.99999499]],
        <BLANKLINE>
                [[-0.99999881,  0.99999881]]])
    """
    if x.ndim < 3:
        raise ValueError(f"instance_norm: expected an input with at least 3 dims, got {x.shape}")
    channel_last = data_format in ("NLC", "NHWC", "NDHWC")
    channels = x.shape[-1 if channel_last else 1]
    _check_param("instance_norm", "weight", weight, channels)
    _check_param("instance_norm", "bias", bias, channels)
    if not use_input_stats:
        if running_mean is None or running_var is None:
            raise ValueError("instance_norm: use_input_stats=False needs running_mean/var")
        plan = NormPlan(
            eps,
            (channels,),
            channel_axis=x.ndim - 1 if channel_last else 1,
            fixed_stats=(running_mean._data, running_var._data),
        )
        return _apply("instance_norm", plan, x, weight, bias)
    positions = math.prod(x.shape) // max(1, x.shape[0] * channels)
    plan = NormPlan(
        eps,
        (channels,),
        axes=(2,),
        param_axes=(0, 2),
        view_shape=(x.shape[0], channels, positions),
        move_axis=x.ndim - 1 if channel_last else None,
    )
    return _apply("instance_norm", plan, x, weight, bias)


def normalize(
    x: Tensor, p: float = 2, axis: int = 1, epsilon: float = 1e-12, name: str | None = None
) -> Tensor:
    """Divide by the p-norm along an axis, as `paddle.nn.functional.normalize`.

    `x / max(||x||_p, epsilon)` along `axis` (L2 by default).

    Args:
        x (Tensor): any shape; float32 or float64.
        p (float, optional): the norm's order. Default: 2.
        axis (int, optional): the axis normalised. Default: 1.
        epsilon (float, optional): the smallest norm divided by. Default: 1e-12.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> print(F.normalize(paddle.to_tensor([[3.0, 4.0], [1.0, 0.0]])))
        Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[0.60000002, 0.80000001],
                [1.        , 0.        ]])
        >>> print(F.normalize(paddle.to_tensor([[3.0, 4.0]]), p=1))
        Tensor(shape=[1, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[0.42857143, 0.57142860]])
    """
    norm = vector_norm(x, p=p, axis=axis, keepdim=True)
    return divide(x, maximum(norm, float(epsilon)))


def rms_norm(
    input: Tensor,  # noqa: A002 - Paddle's argument name
    normalized_shape: int | Sequence[int],
    weight: Tensor | None = None,
    eps: float = 1e-5,
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """Root-mean-square normalisation, as `paddle.nn.functional.rms_norm`.

    Root-mean-square layer normalisation over the trailing `normalized_shape` dims.

    Returns `(out, invvar)` as Paddle 3.3 does: `invvar = 1 / sqrt(mean(input**2) + eps)` per
    row, shaped like the leading (not normalised) dims, and `out = input * invvar * weight`,
    shaped like `input`. Float dtypes; `weight` has shape `normalized_shape`. Composed from
    differentiable ops, so gradients of any order reach `input` and `weight`.

    Args:
        input (Tensor): `[*, *normalized_shape]`; float32 or float64.
        normalized_shape (int|list|tuple): the trailing axes normalised.
        weight (Tensor, optional): shaped `normalized_shape`. Default: None.
        eps (float, optional): added to the mean square. Default: 1e-05.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        tuple: `(out, invvar)`, `out` shaped like `input` and `invvar` like its leading axes.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> out, invvar = F.rms_norm(paddle.to_tensor([[3.0, 4.0]]), [2], paddle.ones([2]))
        >>> print(out)
        Tensor(shape=[1, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[0.84852779, 1.13137043]])
        >>> print(invvar)
        Tensor(shape=[1], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0.28284261])
    """
    shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    if not shape or list(input.shape[input.ndim - len(shape) :]) != shape:
        raise ValueError(
            f"rms_norm: normalized_shape {shape} does not match the input's trailing dims "
            f"(input shape {input.shape})"
        )
    if weight is not None and list(weight.shape) != shape:
        raise ValueError(f"rms_norm: weight must have shape {shape}, got {weight.shape}")
    axes = list(range(input.ndim - len(shape), input.ndim))
    invvar = ((input * input).mean(axis=axes, keepdim=True) + float(eps)).rsqrt()
    out = input * invvar
    if weight is not None:
        out = out * weight
    return out, invvar.reshape(input.shape[: input.ndim - len(shape)])
