"""Batch normalization: BatchNorm1D, BatchNorm2D and the older BatchNorm, over one base that
keeps the running statistics, as in `paddle.nn`.
"""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.initializer import Constant
from framework.nn.layer.checks import array_of, check_channels, check_dtype_and_device
from framework.nn.layer.layers import Layer, default_dtype
from framework.nn.param_attr import ParamAttr


def _float_dtype() -> str:
    """Norm layers keep float32 statistics when the default dtype is float16 (as Paddle)."""
    dtype = default_dtype()
    return "float32" if dtype == "float16" else dtype


class _BatchNormBase(Layer):
    _dims: tuple[int, ...] = (4,)
    _layouts = ("NCHW", "NHWC")

    def __init__(
        self,
        num_features: int,
        momentum: float = 0.9,
        epsilon: float = 1e-05,
        weight_attr: object = None,
        bias_attr: object = None,
        data_format: str = "NCHW",
        use_global_stats: bool | None = None,
        name: str | None = None,
        dtype: object = None,
    ) -> None:
        super().__init__()
        if data_format not in self._layouts:
            raise ValueError(f"data_format must be one of {self._layouts}, got {data_format!r}")
        self._num_features = num_features
        self._momentum = momentum
        self._epsilon = epsilon
        self._data_format = data_format
        self._use_global_stats = use_global_stats
        self._name = name
        self._dtype = dtype if dtype is not None else _float_dtype()
        shape = [num_features]
        self.weight = None
        self.bias = None
        if weight_attr is not False:
            self.weight = self.create_parameter(
                shape, attr=weight_attr, default_initializer=Constant(1.0)
            )
        if bias_attr is not False:
            self.bias = self.create_parameter(shape, attr=bias_attr, is_bias=True)
        mean_name = f"{name}_mean" if name else None
        variance_name = f"{name}_variance" if name else None
        self._mean = self.create_parameter(
            shape, attr=ParamAttr(name=mean_name, initializer=Constant(0.0), trainable=False)
        )
        self._variance = self.create_parameter(
            shape, attr=ParamAttr(name=variance_name, initializer=Constant(1.0), trainable=False)
        )

    def _check(self, x: Tensor, layout: str) -> None:
        shape = array_of(self, x).shape
        channel_last = layout[-1] == "C" and layout != "NC"
        if len(shape) not in self._dims:
            dims = " or ".join(f"{d}-D" for d in self._dims)
            raise ValueError(
                f"{self._short()} expects a {dims} input ({layout}), got input of shape "
                f"{list(shape)}"
            )
        check_channels(self, x, self._num_features, len(shape), channel_last, layout)
        if x._data.dtype != self._mean._data.dtype or type(x._data) is not type(self._mean._data):
            check_dtype_and_device(self, x, self._mean)

    def _short(self) -> str:
        return f"{type(self).__name__}(num_features={self._num_features})"

    def forward(self, input: Tensor) -> Tensor:
        self._check(input, self._data_format)
        return F.batch_norm(
            input,
            self._mean,
            self._variance,
            weight=self.weight,
            bias=self.bias,
            training=self.training,
            momentum=self._momentum,
            epsilon=self._epsilon,
            data_format=self._data_format,
            use_global_stats=self._use_global_stats,
        )

    def extra_repr(self) -> str:
        text = (
            f"num_features={self._num_features}, momentum={self._momentum}, epsilon={self._epsilon}"
        )
        if self._data_format != "NCHW":
            text += f", data_format={self._data_format}"
        if self._name:
            text += f", name={self._name}"
        return text


class BatchNorm1D(_BatchNormBase):
    """Batch normalization of `[N, C]` or `[N, C, L]` inputs, as `paddle.nn.BatchNorm1D`.

    Each channel is normalized with the batch's mean and variance in training (updating running
    stats) and with the running stats in eval, then scaled and shifted.

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
        - x: `[N, C]` or `[N, C, L]` ('NCL'; 'NLC' for channels last), float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> bn = paddle.nn.BatchNorm1D(2)
        >>> bn(paddle.to_tensor([[1.0, 10.0], [3.0, 30.0]])).numpy().round(3)
        array([[-1., -1.],
               [ 1.,  1.]], dtype=float32)
    """

    _dims = (2, 3)
    _layouts = ("NC", "NCL", "NLC")

    def __init__(
        self,
        num_features: int,
        momentum: float = 0.9,
        epsilon: float = 1e-05,
        weight_attr: object = None,
        bias_attr: object = None,
        data_format: str = "NCL",
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


class BatchNorm2D(_BatchNormBase):
    """Batch normalization of NCHW (or NHWC) inputs, as `paddle.nn.BatchNorm2D`.

    Each channel is normalized over `N, H, W` with the batch's statistics in training (updating
    the running mean and variance) and with the running statistics in eval.

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

        dtype (str, optional): dtype of the parameters. Default: the default dtype.

    Shape:
        - x: `[N, C, H, W]` ('NCHW') or `[N, H, W, C]` ('NHWC'), float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> bn = paddle.nn.BatchNorm2D(3)
        >>> y = bn(paddle.randn([4, 3, 5, 5]))
        >>> y.shape, bn._mean.shape
        (paddle.Size([4, 3, 5, 5]), paddle.Size([3]))
    """


class BatchNorm(_BatchNormBase):
    """Paddle's older batch normalisation layer, as `paddle.nn.BatchNorm`.

    Paddle's older BatchNorm: any input rank from 2 to 5, an optional activation `act`
    applied after normalising, and `is_test=True` to start in evaluation mode.

    Args:
        num_channels (int): C.
        act (str, optional): an activation applied after normalising, e.g. 'relu'. Default: None.
        is_test (bool, optional): start in evaluation mode. Default: False.
        momentum (float, optional): the running statistics' decay. Default: 0.9.
        epsilon (float, optional): added to the variance. Default: 1e-05.
        param_attr (ParamAttr, optional): the scale's attribute. Default: None.
        bias_attr (ParamAttr, optional): the shift's attribute. Default: None.
        dtype (str, optional): the parameters' dtype. Default: 'float32'.
        data_layout (str, optional): 'NCHW' or 'NHWC'. Default: 'NCHW'.
        in_place, moving_mean_name, moving_variance_name, do_model_average_for_mean_and_var,
        use_global_stats, trainable_statistics: as in Paddle's BatchNorm.

    Shape:
        - x: `[N, C]` to `[N, C, D, H, W]`; float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> bn = paddle.nn.BatchNorm(2, act='relu')
        >>> print(bn(paddle.to_tensor([[1.0, 2.0], [3.0, 6.0]])))
        Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=False,
               [[0.        , 0.        ],
                [0.99999499, 0.99999881]])
    """

    _dims = (2, 3, 4, 5)
    _layouts = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")

    def __init__(
        self,
        num_channels: int,
        act: str | None = None,
        is_test: bool = False,
        momentum: float = 0.9,
        epsilon: float = 1e-05,
        param_attr: object = None,
        bias_attr: object = None,
        dtype: object = "float32",
        data_layout: str = "NCHW",
        in_place: bool = False,
        moving_mean_name: str | None = None,
        moving_variance_name: str | None = None,
        do_model_average_for_mean_and_var: bool = True,
        use_global_stats: bool = False,
        trainable_statistics: bool = False,
    ) -> None:
        dtype = "float32" if dtype == "float16" else dtype
        super().__init__(
            num_channels,
            momentum,
            epsilon,
            param_attr,
            bias_attr,
            data_layout,
            use_global_stats,
            None,
            dtype,
        )
        if moving_mean_name:
            self._mean.name = moving_mean_name
        if moving_variance_name:
            self._variance.name = moving_variance_name
        self._act = act
        self._trainable_statistics = trainable_statistics
        self.training = not is_test

    def _layout(self, ndim: int) -> str:
        if self._data_format[-1] == "C" and ndim > 2:
            return {3: "NLC", 4: "NHWC", 5: "NDHWC"}[ndim]
        return {2: "NC", 3: "NCL", 4: "NCHW", 5: "NCDHW"}.get(ndim, self._data_format)

    def forward(self, input: Tensor) -> Tensor:
        layout = self._layout(input.ndim)
        self._check(input, layout)
        # This layer's use_global_stats=False means "the usual": batch statistics in training,
        # running ones in eval, which the functional form spells None.
        global_stats = True if self._use_global_stats else None
        if self._trainable_statistics and not self._use_global_stats:
            global_stats = False
        out = F.batch_norm(
            input,
            self._mean,
            self._variance,
            weight=self.weight,
            bias=self.bias,
            training=self.training,
            momentum=self._momentum,
            epsilon=self._epsilon,
            data_format=layout,
            use_global_stats=global_stats,
        )
        return out if self._act is None else getattr(F, self._act)(out)
