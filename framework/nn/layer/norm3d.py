"""BatchNorm3D and InstanceNorm3D, as in `paddle.nn`: the shared normalization layers over
5-D inputs (`framework.nn.functional.batch_norm` / `instance_norm` reduce over any rank)."""

from __future__ import annotations

from framework.nn.layer.norm import _BatchNormBase, _InstanceNormBase


class BatchNorm3D(_BatchNormBase):
    """Batch normalization of NCDHW (or NDHWC) inputs: per-channel batch statistics in
    training, running ones (`_mean`, `_variance`) in eval.

        bn = framework.nn.BatchNorm3D(8)
        bn(framework.randn([2, 8, 4, 16, 16])).shape   # [2, 8, 4, 16, 16]
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
    """Instance normalization of NCDHW inputs: each (sample, channel) volume on its own.

    norm = framework.nn.InstanceNorm3D(8)
    norm(framework.randn([2, 8, 4, 16, 16])).shape   # [2, 8, 4, 16, 16]
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
