"""SyncBatchNorm, as in `paddle.nn`: batch normalization whose statistics would be reduced over
every process of a data-parallel job. The framework runs one process, so they are this
process's batch statistics: SyncBatchNorm is then exactly BatchNorm over 2- to 5-D inputs,
which lets Paddle models that use it (detection and segmentation nets) train and load as they
are. Real Paddle registers its kernel for GPUs only."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.layers import Layer
from framework.nn.layer.norm.batch_statistics import BatchNorm, _BatchNormBase

_CHANNEL_FIRST = {2: "NC", 3: "NCL", 4: "NCHW", 5: "NCDHW"}
_CHANNEL_LAST = {3: "NLC", 4: "NHWC", 5: "NDHWC"}


class SyncBatchNorm(_BatchNormBase):
    """Batch normalization whose statistics would be shared across devices, as
    `paddle.nn.SyncBatchNorm`; on one process it is `BatchNorm1D/2D/3D` by rank.

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
        - x: `[N, C]`, `[N, C, L]`, `[N, C, H, W]` or `[N, C, D, H, W]`, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> bn = paddle.nn.SyncBatchNorm(3)
        >>> bn(paddle.randn([2, 3, 4, 4])).shape
        paddle.Size([2, 3, 4, 4])
    """

    _dims = (2, 3, 4, 5)
    _layouts = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")

    def __init__(
        self,
        num_features: int,
        momentum: float = 0.9,
        epsilon: float = 1e-05,
        weight_attr: object = None,
        bias_attr: object = None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(
            num_features,
            momentum,
            epsilon,
            None if weight_attr is False else weight_attr,
            None if bias_attr is False else bias_attr,
            data_format,
            None,
            name,
        )
        if weight_attr is False:
            self.weight.stop_gradient = True
        if bias_attr is False:
            self.bias.stop_gradient = True

    def forward(self, x: Tensor) -> Tensor:
        channel_last = self._data_format in _CHANNEL_LAST.values()
        layout = (_CHANNEL_LAST if channel_last else _CHANNEL_FIRST).get(x.ndim, self._data_format)
        self._check(x, layout)
        return F.batch_norm(
            x,
            self._mean,
            self._variance,
            weight=self.weight,
            bias=self.bias,
            training=self.training,
            momentum=self._momentum,
            epsilon=self._epsilon,
            data_format=layout,
        )

    @classmethod
    def convert_sync_batchnorm(cls, layer: Layer) -> Layer:
        """`layer` with every BatchNorm1D/2D/3D in it (itself included) replaced by a
        SyncBatchNorm sharing its parameters and running statistics (as in Paddle, the older
        `BatchNorm`, with its activation, is left alone).

            model = framework.nn.SyncBatchNorm.convert_sync_batchnorm(model)
        """
        converted = layer
        if isinstance(layer, _BatchNormBase) and not isinstance(layer, SyncBatchNorm | BatchNorm):
            converted = cls(
                layer._num_features,
                layer._momentum,
                layer._epsilon,
                weight_attr=None if layer.weight is not None else False,
                bias_attr=None if layer.bias is not None else False,
                data_format=layer._data_format,
                name=layer._name,
            )
            for attr in ("weight", "bias", "_mean", "_variance"):
                if getattr(layer, attr) is not None:
                    setattr(converted, attr, getattr(layer, attr))
        for child_name, child in layer.named_children():
            converted.add_sublayer(child_name, cls.convert_sync_batchnorm(child))
        return converted
