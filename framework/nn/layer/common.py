"""Common layers: Linear, Identity, Flatten, Unflatten, Embedding, Upsample, padding, Unfold
and Fold, as in `paddle.nn`. Each stores its configuration and calls `framework.nn.functional`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.checks import array_of, check_device, check_dtype_and_device
from framework.nn.layer.layers import Layer, default_dtype
from framework.ops.manipulation import flatten


class Linear(Layer):
    """A fully connected layer, `y = x @ weight + bias` over the last axis, as `paddle.nn.Linear`.

    `weight` is `[in_features, out_features]` (Paddle's layout, the transpose of PyTorch's),
    initialised XavierUniform; the bias is `[out_features]` and starts at zero.

    Args:
        in_features (int): size of the last axis of the input.
        out_features (int): size of the last axis of the output.
        weight_attr (ParamAttr, optional): the weight's attribute (initializer, name).
        bias_attr (ParamAttr|bool, optional): the bias's attribute; False drops the bias.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[*, in_features]`, float32 or float64 (any number of leading axes).
        - output: `[*, out_features]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> fc = paddle.nn.Linear(4, 3)
        >>> fc.weight.shape
        paddle.Size([4, 3])
        >>> y = fc(paddle.ones([2, 4]))
        >>> y.shape, y.dtype == paddle.float32
        (paddle.Size([2, 3]), True)
    """

    def __init__(
        self,
        in_features: int,
        out_features: int,
        weight_attr: object = None,
        bias_attr: object = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self._dtype = default_dtype()
        self._in_features = in_features
        self._out_features = out_features
        self.weight = self.create_parameter([in_features, out_features], attr=weight_attr)
        self.bias = self.create_parameter([out_features], attr=bias_attr, is_bias=True)
        self.name = name

    def forward(self, input: Tensor) -> Tensor:
        shape = array_of(self, input).shape
        if not shape or shape[-1] != self._in_features:
            raise ValueError(
                f"Linear(in_features={self._in_features}, out_features={self._out_features}) "
                f"expects the last input dimension to be {self._in_features}, got input of shape "
                f"{list(shape)}"
            )
        weight = self.weight
        if input._data.dtype != weight._data.dtype or type(input._data) is not type(weight._data):
            check_dtype_and_device(self, input, weight)
        return F.linear(input, weight, self.bias)

    def _short(self) -> str:
        return f"Linear(in_features={self._in_features}, out_features={self._out_features})"

    def extra_repr(self) -> str:
        name = f", name={self.name}" if self.name else ""
        return (
            f"in_features={self.weight.shape[0]}, out_features={self.weight.shape[1]}, "
            f"dtype={self._dtype}{name}"
        )


class Identity(Layer):
    """Return the input unchanged, as `paddle.nn.Identity`; constructor arguments are ignored.

    Shape:
        - x: any shape and dtype (float32, int64, ...).
        - output: `x` itself, same shape and dtype.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([1.0, 2.0])
        >>> paddle.nn.Identity(54, unused="ok")(x) is x
        True
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class Flatten(Layer):
    """Merge the axes `start_axis..stop_axis` into one, as `paddle.nn.Flatten`.

    Args:
        start_axis (int, optional): first axis to merge. Default: 1 (keeps the batch axis).
        stop_axis (int, optional): last axis to merge. Default: -1.

    Shape:
        - x: `[N, d1, d2, ...]` of any dtype.
        - output: the merged axes replaced by their product, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> paddle.nn.Flatten()(paddle.ones([2, 3, 4, 5])).shape
        paddle.Size([2, 60])
        >>> paddle.nn.Flatten(0, 1)(paddle.ones([2, 3, 4])).shape
        paddle.Size([6, 4])
    """

    def __init__(self, start_axis: int = 1, stop_axis: int = -1) -> None:
        super().__init__()
        self.start_axis = start_axis
        self.stop_axis = stop_axis

    def forward(self, input: Tensor) -> Tensor:
        return flatten(input, start_axis=self.start_axis, stop_axis=self.stop_axis)

    def extra_repr(self) -> str:
        return f"start_axis={self.start_axis}, stop_axis={self.stop_axis}"


class Unflatten(Layer):
    """Split one axis into several, as `paddle.nn.Unflatten`.

    Split axis `axis` into `shape` (the inverse of Flatten).

    Args:
        axis (int): the axis split.
        shape (list|tuple): its new sizes, with a product equal to its size.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: any shape; any dtype.
        - output: `x`'s shape with `axis` replaced by `shape`.

    Examples:
        >>> import framework as paddle
        >>> paddle.nn.Unflatten(1, [2, 3])(paddle.ones([4, 6, 5])).shape
        paddle.Size([4, 2, 3, 5])
    """

    def __init__(self, axis: int, shape: Sequence[int], name: str | None = None) -> None:
        super().__init__()
        self.axis = axis
        self.shape = list(shape)
        self.name = name

    def forward(self, input: Tensor) -> Tensor:
        dims = input.shape
        axis = self.axis % len(dims)
        return input.reshape(dims[:axis] + self.shape + dims[axis + 1 :])

    def extra_repr(self) -> str:
        return f"axis={self.axis}, shape={self.shape}"


class Embedding(Layer):
    """A lookup table `weight[num_embeddings, embedding_dim]` indexed by int ids, as
    `paddle.nn.Embedding`.

    The row `padding_idx` (if set) is zero and gets no gradient.

    Args:
        num_embeddings (int): size of the vocabulary.
        embedding_dim (int): size of each embedding vector.
        padding_idx (int, optional): an id whose row stays zero; negative counts from the end.
        max_norm (float, optional): rows with a larger norm are rescaled to it on lookup.
        norm_type (float, optional): the p of the norm used by `max_norm`. Default: 2.0.
        sparse (bool, optional): accepted for Paddle's signature; gradients are dense.
        weight_attr (ParamAttr, optional): the table's attribute (initializer, name).
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: int32 or int64 ids of any shape `[*]`.
        - output: `[*, embedding_dim]`, float32.

    Examples:
        >>> import framework as paddle
        >>> emb = paddle.nn.Embedding(10, 3, padding_idx=0)
        >>> ids = paddle.to_tensor([[0, 2], [5, 9]], dtype="int64")
        >>> out = emb(ids)
        >>> out.shape, out.dtype == paddle.float32
        (paddle.Size([2, 2, 3]), True)
        >>> out[0, 0]
        Tensor(shape=[3], dtype=float32, place=Place(cpu), stop_gradient=False,
               [0., 0., 0.])
    """

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        *,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
        _weight: Tensor | None = None,
        _freeze: bool = False,
        device: object = None,
        dtype: object = None,
        weight_attr: object = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        if num_embeddings <= 0:
            raise ValueError("num_embeddings must be gather than 0")
        if embedding_dim <= 0:
            raise ValueError("embedding_dim must be gather than 0")
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(f"padding_idx must be within [-{num_embeddings}, {num_embeddings})")
        self._num_embeddings = num_embeddings
        self._embedding_dim = embedding_dim
        self._padding_idx = padding_idx
        self._max_norm = max_norm
        self._norm_type = norm_type
        self._sparse = sparse
        self._scale_grad_by_freq = scale_grad_by_freq
        self._name = name
        self._dtype = dtype if dtype is not None else default_dtype()
        if _weight is not None:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise ValueError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = _weight
            self.weight.stop_gradient = _freeze
        else:
            self.weight = self.create_parameter(
                [num_embeddings, embedding_dim], attr=weight_attr, device=device
            )
            if weight_attr is None:
                self.weight.stop_gradient = _freeze
        if padding_idx is not None:
            self.weight._data[padding_idx % num_embeddings] = 0

    @property
    def padding_idx(self) -> int | None:
        return self._padding_idx

    def _short(self) -> str:
        return f"Embedding({self._num_embeddings}, {self._embedding_dim})"

    def forward(self, x: Tensor) -> Tensor:
        if type(array_of(self, x)) is not type(self.weight._data):
            check_device(self, x, self.weight)
        return F.embedding(
            x,
            weight=self.weight,
            padding_idx=self._padding_idx,
            max_norm=self._max_norm,
            norm_type=self._norm_type,
            sparse=self._sparse,
            scale_grad_by_freq=self._scale_grad_by_freq,
        )

    def extra_repr(self) -> str:
        text = f"{self._num_embeddings}, {self._embedding_dim}"
        if self._padding_idx is not None:
            text += f", padding_idx={self._padding_idx}"
        text += f", sparse={self._sparse}, scale_grad_by_freq={self._scale_grad_by_freq}"
        return text + (f", name={self._name}" if self._name else "")


class Upsample(Layer):
    """Resize the spatial axes, as `paddle.nn.Upsample`.

    Resize by `size` or `scale_factor` with `mode` 'nearest' (default), 'bilinear', ...

    Args:
        size (list|tuple, optional): the output's spatial size. Default: None.
        scale_factor (float|list|tuple, optional): the spatial multiplier, when `size` is None.
            Default: None.
        mode (str, optional): 'nearest', 'linear', 'bilinear', 'bicubic', 'trilinear' or 'area'.
            Default: 'nearest'.
        align_corners (bool, optional): as `F.interpolate`. Default: False.
        align_mode (int, optional): as `F.interpolate`. Default: 0.
        data_format (str, optional): None picks by rank. Default: None.
        recompute_scale_factor (bool, optional): as `F.interpolate`. Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: 3-, 4- or 5-D, channels first by default; float32 or float64.
        - output: `[N, C, *size]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> up = paddle.nn.Upsample(scale_factor=2, mode='nearest')
        >>> print(up(paddle.to_tensor([[[[1.0, 2.0]]]])))
        Tensor(shape=[1, 1, 2, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[1., 1., 2., 2.],
                  [1., 1., 2., 2.]]]])
    """

    def __init__(
        self,
        size: Sequence[int] | None = None,
        scale_factor: float | Sequence[float] | None = None,
        mode: str = "nearest",
        align_corners: bool = False,
        align_mode: int = 0,
        data_format: str | None = None,
        recompute_scale_factor: bool | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.mode = mode.lower()
        self.align_corners = align_corners
        self.align_mode = align_mode
        self.data_format = data_format
        self.recompute_scale_factor = recompute_scale_factor
        self.name = name

    def forward(self, x: Tensor) -> Tensor:
        return F.interpolate(
            x,
            size=self.size,
            scale_factor=self.scale_factor,
            mode=self.mode,
            align_corners=self.align_corners,
            align_mode=self.align_mode,
            data_format=self.data_format,
            recompute_scale_factor=self.recompute_scale_factor,
        )

    def extra_repr(self) -> str:
        main = f"scale_factor={self.scale_factor}" if self.scale_factor else f"size={self.size}"
        name = f", name={self.name}" if self.name else ""
        return (
            f"{main}, mode={self.mode}, align_corners={self.align_corners}, "
            f"align_mode={self.align_mode}, data_format={self.data_format}{name}"
        )


class UpsamplingNearest2D(Upsample):
    """Nearest-neighbour 2-D upsampling, as `paddle.nn.UpsamplingNearest2D`.

    Args:
        size (list|tuple, optional): the output's `[H, W]`. Default: None.
        scale_factor (float|list|tuple, optional): the spatial multiplier. Default: None.
        data_format (str, optional): 'NCHW' or 'NHWC'. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]`; float32 or float64.
        - output: `[N, C, H_out, W_out]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> up = paddle.nn.UpsamplingNearest2D(scale_factor=2)
        >>> print(up(paddle.to_tensor([[[[1.0, 2.0]]]])))
        Tensor(shape=[1, 1, 2, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[1., 1., 2., 2.],
                  [1., 1., 2., 2.]]]])
    """

    def __init__(
        self,
        size: Sequence[int] | None = None,
        scale_factor: float | Sequence[float] | None = None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(size, scale_factor, "nearest", data_format=data_format, name=name)


class UpsamplingBilinear2D(Upsample):
    """Bilinear 2-D upsampling with aligned corners, as `paddle.nn.UpsamplingBilinear2D`.

    Bilinear resize with `align_corners=True`, as in Paddle.

    Args:
        size (list|tuple, optional): the output's `[H, W]`. Default: None.
        scale_factor (float|list|tuple, optional): the spatial multiplier. Default: None.
        data_format (str, optional): 'NCHW' or 'NHWC'. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]`; float32 or float64.
        - output: `[N, C, H_out, W_out]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> up = paddle.nn.UpsamplingBilinear2D(size=[1, 3])
        >>> print(up(paddle.to_tensor([[[[1.0, 3.0]]]])))
        Tensor(shape=[1, 1, 1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[1., 2., 3.]]]])
    """

    def __init__(
        self,
        size: Sequence[int] | None = None,
        scale_factor: float | Sequence[float] | None = None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(
            size, scale_factor, "bilinear", align_corners=True, data_format=data_format, name=name
        )


class _PadNd(Layer):
    def __init__(
        self,
        padding: int | Sequence[int],
        mode: str,
        value: float,
        data_format: str,
        dims: int,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.padding = [padding] * (2 * dims) if isinstance(padding, int) else list(padding)
        self._mode = mode
        self.value = value
        self._data_format = data_format
        self._name = name

    def forward(self, x: Tensor) -> Tensor:
        return F.pad(
            x, self.padding, mode=self._mode, value=self.value, data_format=self._data_format
        )

    def extra_repr(self) -> str:
        named = f", name={self._name}" if self._name else ""
        return (
            f"padding={self.padding}, mode={self._mode}, value={self.value}, "
            f"data_format={self._data_format}{named}"
        )


class Pad1D(_PadNd):
    """Padding of 3-D inputs, as `paddle.nn.Pad1D`.

    Pad the last axis of an NCL input by `[left, right]`; mode 'constant', 'reflect',
    'replicate' or 'circular'.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right]`.
        mode (str, optional): 'constant', 'reflect', 'replicate' or 'circular'. Default: 'constant'.
        value (float, optional): the constant for mode 'constant'. Default: 0.0.
        data_format (str, optional): the input's layout. Default: 'NCL'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, L]` ('NCL') or `[N, L, C]` ('NLC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[1.0, 2.0, 3.0]]])
        >>> print(paddle.nn.Pad1D([1, 2], mode='reflect')(x))
        Tensor(shape=[1, 1, 6], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[2., 1., 2., 3., 2., 1.]]])
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        mode: str = "constant",
        value: float = 0.0,
        data_format: str = "NCL",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, mode, value, data_format, 1, name)


class Pad2D(_PadNd):
    """Padding of 4-D inputs, as `paddle.nn.Pad2D`.

    Pad H and W of an NCHW input by `[left, right, top, bottom]`; mode 'constant',
    'reflect', 'replicate' or 'circular'.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right, top, bottom]`.
        mode (str, optional): 'constant', 'reflect', 'replicate' or 'circular'. Default: 'constant'.
        value (float, optional): the constant for mode 'constant'. Default: 0.0.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]` ('NCHW') or `[N, H, W, C]` ('NHWC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> print(paddle.nn.Pad2D([1, 0, 1, 0], value=9.0)(x))
        Tensor(shape=[1, 1, 3, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[9., 9., 9.],
                  [9., 1., 2.],
                  [9., 3., 4.]]]])
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        mode: str = "constant",
        value: float = 0.0,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, mode, value, data_format, 2, name)


class ZeroPad2D(Pad2D):
    """Zero padding of 4-D inputs, as `paddle.nn.ZeroPad2D`.

    Pad H and W of an NCHW (or NHWC) input with zeros by `[left, right, top, bottom]`.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right, top, bottom]`.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]` ('NCHW') or `[N, H, W, C]` ('NHWC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> print(paddle.nn.ZeroPad2D([1, 0, 1, 0])(x))
        Tensor(shape=[1, 1, 3, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[0., 0., 0.],
                  [0., 1., 2.],
                  [0., 3., 4.]]]])
    """

    def __init__(
        self, padding: int | Sequence[int], data_format: str = "NCHW", name: str | None = None
    ) -> None:
        super().__init__(padding, "constant", 0.0, data_format, name)


class Unfold(Layer):
    """Sliding windows into columns (im2col), as `paddle.nn.Unfold`.

    Extract sliding `kernel_sizes` blocks of an NCHW input into columns
    `[N, C * kh * kw, L]` (im2col).

    Args:
        kernel_sizes (int|list|tuple): the window's `[kh, kw]`.
        dilations (int|list|tuple, optional): Default: 1.
        paddings (int|list|tuple, optional): an int, `[ph, pw]` or `[top, left, bottom, right]`.
            Default: 0.
        strides (int|list|tuple, optional): Default: 1.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]`; float32 or float64.
        - output: `[N, C * kh * kw, L]`, one column per window position.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.arange(9, dtype='float32').reshape([1, 1, 3, 3])
        >>> print(paddle.nn.Unfold(kernel_sizes=2)(x))
        Tensor(shape=[1, 4, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[0., 1., 3., 4.],
                 [1., 2., 4., 5.],
                 [3., 4., 6., 7.],
                 [4., 5., 7., 8.]]])
    """

    def __init__(
        self,
        kernel_sizes: int | Sequence[int],
        dilations: int | Sequence[int] = 1,
        paddings: int | Sequence[int] = 0,
        strides: int | Sequence[int] = 1,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.kernel_sizes = kernel_sizes
        self.dilations = dilations
        self.paddings = paddings
        self.strides = strides

    def forward(self, input: Tensor) -> Tensor:
        return F.unfold(input, self.kernel_sizes, self.strides, self.paddings, self.dilations)

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, "
            f"padding={self.paddings}, stride={self.strides}"
        )


class Fold(Layer):
    """Columns back into an image (col2im), as `paddle.nn.Fold`.

    Sum columns `[N, C * kh * kw, L]` back into an `[N, C, *output_sizes]` image (col2im).

    Args:
        output_sizes (int|list|tuple): the image's `[H, W]`.
        kernel_sizes (int|list|tuple): the window's `[kh, kw]`.
        dilations (int|list|tuple, optional): Default: 1.
        paddings (int|list|tuple, optional): Default: 0.
        strides (int|list|tuple, optional): Default: 1.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C * kh * kw, L]` columns; float32 or float64.
        - output: `[N, C, H, W]`, overlapping windows summed.

    Examples:
        >>> import framework as paddle
        >>> fold = paddle.nn.Fold(output_sizes=[3, 3], kernel_sizes=2)
        >>> print(fold(paddle.ones([1, 4, 4])))
        Tensor(shape=[1, 1, 3, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[1., 2., 1.],
                  [2., 4., 2.],
                  [1., 2., 1.]]]])
    """

    def __init__(
        self,
        output_sizes: int | Sequence[int],
        kernel_sizes: int | Sequence[int],
        dilations: int | Sequence[int] = 1,
        paddings: int | Sequence[int] = 0,
        strides: int | Sequence[int] = 1,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.output_sizes = output_sizes
        self.kernel_sizes = kernel_sizes
        self.dilations = dilations
        self.paddings = paddings
        self.strides = strides

    def forward(self, input: Tensor) -> Tensor:
        return F.fold(
            input, self.output_sizes, self.kernel_sizes, self.strides, self.paddings, self.dilations
        )

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, "
            f"padding={self.paddings}, stride={self.strides}"
        )


# --- Paddle's layout: `paddle.nn.layer.common` also holds these layers, defined in sibling
# modules of this package. Imported last: those modules import this one's base classes. -----
from framework.nn.layer.bilinear import Bilinear  # noqa: E402, F401
from framework.nn.layer.dropout import (  # noqa: E402, F401
    AlphaDropout,
    Dropout,
    Dropout2D,
    Dropout3D,
    FeatureAlphaDropout,
)
from framework.nn.layer.margin_loss import (  # noqa: E402, F401
    CosineSimilarity,
)
from framework.nn.layer.padding3d import (  # noqa: E402, F401
    Pad3D,
    ZeroPad3D,
)
from framework.nn.layer.padding_modes import (  # noqa: E402, F401
    CircularPad1D,
    CircularPad2D,
    CircularPad3D,
    ConstantPad1D,
    ConstantPad2D,
    ConstantPad3D,
    ReflectionPad1D,
    ReflectionPad2D,
    ReflectionPad3D,
    ReplicationPad1D,
    ReplicationPad2D,
    ReplicationPad3D,
    ZeroPad1D,
)
