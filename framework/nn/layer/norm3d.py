"""BatchNorm3D and InstanceNorm3D, as in `paddle.nn`: the shared normalization layers over
5-D inputs (`framework.nn.functional.batch_norm` / `instance_norm` reduce over any rank)."""

from __future__ import annotations

from framework.nn.layer.norm.batch_statistics import _BatchNormBase
from framework.nn.layer.norm.sample_statistics import _InstanceNormBase


class BatchNorm3D(_BatchNormBase):
    """Batch normalization of NCDHW (or NDHWC) inputs, as `paddle.nn.BatchNorm3D`.

    Per-channel batch statistics in training, running statistics in eval.

    Args:
        num_features (int): channels `C` of the input.
        momentum (float, optional): running stats update as
            `running = momentum * running + (1 - momentum) * batch`. Default: 0.9.
        epsilon (float, optional): added to the variance before the square root. Default: 1e-05.
        weight_attr (ParamAttr|bool, optional): the scale's attribute (starts at one); False
            freezes it.
        bias_attr (ParamAttr|bool, optional): the shift's attribute (starts at zero); False
            freezes it.
        data_format (str, optional): channels first by default, or channels last.
        use_global_stats (bool, optional): use the running stats in training too. Default: None
            (batch stats in training, running stats in eval).
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, D, H, W]` ('NCDHW') or `[N, D, H, W, C]` ('NDHWC'), float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> bn = paddle.nn.BatchNorm3D(2)
        >>> bn(paddle.randn([2, 2, 3, 3, 3])).shape
        paddle.Size([2, 2, 3, 3, 3])
    """

    _dims = (5,)
    _layouts = ("NCDHW", "NDHWC")

    def __init__(
        self,
        num_features: int,
        momentum: float = 0.9,
        epsilon: float = 1e-05,
        weight_attr: object = None,
        bias_attr: object = None,
        data_format: str = "NCDHW",
        use_global_stats: bool | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            num_features,
            momentum,
            epsilon,
            weight_attr,
            bias_attr,
            data_format,
            use_global_stats,
            name,
        )


class InstanceNorm3D(_InstanceNormBase):
    """Instance normalization of NCDHW inputs: each (sample, channel) volume on its own, as
    `paddle.nn.InstanceNorm3D`.

    Args:
        num_features (int): channels `C` of the input.
        epsilon (float, optional): added to the variance before the square root. Default: 1e-05.
        momentum (float, optional): accepted for Paddle's signature; no running stats are kept.
        weight_attr (ParamAttr|bool, optional): the scale's attribute; False drops it.
        bias_attr (ParamAttr|bool, optional): the shift's attribute; False drops it.
        data_format (str, optional): channels first by default.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, D, H, W]`, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> norm = paddle.nn.InstanceNorm3D(2)
        >>> norm(paddle.randn([1, 2, 3, 3, 3])).shape
        paddle.Size([1, 2, 3, 3, 3])
    """

    _dims = 5

    def __init__(
        self,
        num_features: int,
        epsilon: float = 1e-05,
        momentum: float = 0.9,
        weight_attr: object = None,
        bias_attr: object = None,
        data_format: str = "NCDHW",
        name: str | None = None,
    ) -> None:
        if data_format != "NCDHW":
            raise ValueError(f"InstanceNorm3D supports data_format NCDHW, got {data_format!r}")
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format)
