"""Normalization by each sample's own statistics: LayerNorm, GroupNorm and
InstanceNorm1D/2D, as in `paddle.nn`.
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.initializer import Constant
from framework.nn.layer.checks import array_of, check_channels, check_dtype_and_device
from framework.nn.layer.layers import Layer
from framework.nn.layer.norm.batch_statistics import _float_dtype
from framework.nn.param_attr import ParamAttr


class LayerNorm(Layer):
    """Normalize over the trailing `normalized_shape` axes, then scale and shift, as
    `paddle.nn.LayerNorm`.

    Args:
        normalized_shape (int|list|tuple): the trailing axes to normalize over; an int is one
            axis.
        epsilon (float, optional): added to the variance before the square root. Default: 1e-05.
        weight_attr (ParamAttr|bool, optional): the scale's attribute (starts at one); False drops
            it.
        bias_attr (ParamAttr|bool, optional): the shift's attribute (starts at zero); False drops
            it.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[*, *normalized_shape]`, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> ln = paddle.nn.LayerNorm(4)
        >>> ln(paddle.to_tensor([[1.0, 2.0, 3.0, 4.0]])).numpy().round(3)
        array([[-1.342, -0.447,  0.447,  1.342]], dtype=float32)
    """

    def __init__(
        self,
        normalized_shape: int | Sequence[int],
        epsilon: float = 1e-05,
        *,
        elementwise_affine: bool = True,
        bias: bool = True,
        device: object = None,
        dtype: object = None,
        weight_attr: object = None,
        bias_attr: object = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = [normalized_shape]
        self._normalized_shape = list(normalized_shape)
        self._epsilon = epsilon
        self._dtype = dtype if dtype is not None else _float_dtype()
        self.weight = None
        self.bias = None
        if elementwise_affine and weight_attr is not False:
            self.weight = self.create_parameter(
                self._normalized_shape,
                attr=weight_attr,
                default_initializer=Constant(1.0),
                device=device,
            )
        if elementwise_affine and bias and bias_attr is not False:
            self.bias = self.create_parameter(
                self._normalized_shape, attr=bias_attr, is_bias=True, device=device
            )

    def forward(self, input: Tensor) -> Tensor:
        shape = array_of(self, input).shape
        tail = list(shape[-len(self._normalized_shape) :])
        if tail != self._normalized_shape or input.ndim < len(self._normalized_shape):
            raise ValueError(
                f"LayerNorm(normalized_shape={self._normalized_shape}) expects the input to end "
                f"with {self._normalized_shape}, got input of shape {input.shape}"
            )
        if self.weight is not None and (
            input._data.dtype != self.weight._data.dtype
            or type(input._data) is not type(self.weight._data)
        ):
            check_dtype_and_device(self, input, self.weight)
        return F.layer_norm(
            input, self._normalized_shape, weight=self.weight, bias=self.bias, epsilon=self._epsilon
        )

    def extra_repr(self) -> str:
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class GroupNorm(Layer):
    """Normalize each of `num_groups` groups of channels, as `paddle.nn.GroupNorm`.

    Args:
        num_groups (int): number of groups; must divide `num_channels`.
        num_channels (int): channels `C` of the input.
        epsilon (float, optional): added to the variance before the square root. Default: 1e-05.
        weight_attr (ParamAttr|bool, optional): the per-channel scale's attribute; False drops it.
        bias_attr (ParamAttr|bool, optional): the per-channel shift's attribute; False drops it.
        data_format (str, optional): 'NCHW' (any `[N, C, ...]`) or 'NHWC'. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, *]`, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> gn = paddle.nn.GroupNorm(num_groups=2, num_channels=4)
        >>> gn(paddle.randn([2, 4, 3, 3])).shape
        paddle.Size([2, 4, 3, 3])
    """

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        epsilon: float = 1e-05,
        *,
        affine: bool = True,
        device: object = None,
        dtype: object = None,
        weight_attr: object = None,
        bias_attr: object = None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(
                f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})"
            )
        self._num_groups = num_groups
        self._num_channels = num_channels
        self._epsilon = epsilon
        self._data_format = data_format
        self._dtype = dtype if dtype is not None else _float_dtype()
        self.weight = None
        self.bias = None
        if affine:
            self.weight = self.create_parameter(
                [num_channels],
                attr=None if weight_attr is False else weight_attr,
                default_initializer=Constant(1.0),
                device=device,
            )
            self.weight.stop_gradient = weight_attr is False or _frozen(weight_attr)
            self.bias = self.create_parameter(
                [num_channels],
                attr=None if bias_attr is False else bias_attr,
                is_bias=True,
                device=device,
            )
            self.bias.stop_gradient = bias_attr is False or _frozen(bias_attr)

    def forward(self, input: Tensor) -> Tensor:
        channels = input.shape[-1] if self._data_format[-1] == "C" else input.shape[1]
        if input.ndim < 2 or channels != self._num_channels:
            raise ValueError(
                f"GroupNorm(num_groups={self._num_groups}, num_channels={self._num_channels}) "
                f"expects {self._num_channels} channels, got input of shape {input.shape}"
            )
        return F.group_norm(
            input,
            self._num_groups,
            epsilon=self._epsilon,
            weight=self.weight,
            bias=self.bias,
            data_format=self._data_format,
        )

    def extra_repr(self) -> str:
        return (
            f"num_groups={self._num_groups}, num_channels={self._num_channels}, "
            f"epsilon={self._epsilon}"
        )


def _frozen(attr: object) -> bool:
    return isinstance(attr, ParamAttr) and attr.learning_rate == 0.0


class _InstanceNormBase(Layer):
    """Per-sample, per-channel normalization; the affine parameters are `scale` and `bias`."""

    _dims = 4

    def __init__(
        self,
        num_features: int,
        epsilon: float = 1e-05,
        momentum: float = 0.9,
        weight_attr: object = None,
        bias_attr: object = None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
        if (weight_attr is False) != (bias_attr is False):
            raise ValueError(
                "weight_attr and bias_attr must be set to False at the same time in InstanceNorm"
            )
        self._num_features = num_features
        self._epsilon = epsilon
        self._momentum = momentum
        self._data_format = data_format
        self._dtype = _float_dtype()
        self.scale = None
        self.bias = None
        if weight_attr is not False:
            self.scale = self.create_parameter(
                [num_features], attr=weight_attr, default_initializer=Constant(1.0)
            )
            self.bias = self.create_parameter([num_features], attr=bias_attr, is_bias=True)

    def forward(self, input: Tensor) -> Tensor:
        check_channels(self, input, self._num_features, self._dims, False, self._data_format)
        return F.instance_norm(
            input,
            weight=self.scale,
            bias=self.bias,
            momentum=self._momentum,
            eps=self._epsilon,
            data_format=self._data_format,
        )

    def _short(self) -> str:
        return f"{type(self).__name__}(num_features={self._num_features})"

    def extra_repr(self) -> str:
        return f"num_features={self._num_features}, epsilon={self._epsilon}"


class InstanceNorm1D(_InstanceNormBase):
    """Instance normalization of `[N, C, L]` inputs: each (sample, channel) row on its own, as
    `paddle.nn.InstanceNorm1D`.

    Args:
        num_features (int): channels `C` of the input.
        epsilon (float, optional): added to the variance before the square root. Default: 1e-05.
        momentum (float, optional): accepted for Paddle's signature; no running stats are kept.
        weight_attr (ParamAttr|bool, optional): the scale's attribute; False drops it.
        bias_attr (ParamAttr|bool, optional): the shift's attribute; False drops it.
        data_format (str, optional): channels first by default.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, L]`, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> norm = paddle.nn.InstanceNorm1D(2)
        >>> norm(paddle.to_tensor([[[1.0, 3.0], [0.0, 4.0]]])).numpy().round(3)
        array([[[-1.,  1.],
                [-1.,  1.]]], dtype=float32)
    """

    _dims = 3

    def __init__(
        self,
        num_features: int,
        epsilon: float = 1e-05,
        momentum: float = 0.9,
        weight_attr: object = None,
        bias_attr: object = None,
        data_format: str = "NCL",
        name: str | None = None,
    ) -> None:
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format)


class InstanceNorm2D(_InstanceNormBase):
    """Instance normalization of NCHW inputs: each (sample, channel) plane on its own, as
    `paddle.nn.InstanceNorm2D`.

    Args:
        num_features (int): channels `C` of the input.
        epsilon (float, optional): added to the variance before the square root. Default: 1e-05.
        momentum (float, optional): accepted for Paddle's signature; no running stats are kept.
        weight_attr (ParamAttr|bool, optional): the scale's attribute; False drops it.
        bias_attr (ParamAttr|bool, optional): the shift's attribute; False drops it.
        data_format (str, optional): channels first by default.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]`, float32 or float64.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> norm = paddle.nn.InstanceNorm2D(3)
        >>> norm(paddle.randn([2, 3, 4, 4])).shape
        paddle.Size([2, 3, 4, 4])
    """
