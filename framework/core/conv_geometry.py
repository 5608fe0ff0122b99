"""The shape side of a convolution: kernel, stride, padding, dilation, groups and layouts.

One `ConvGeometry` describes the map between the "input side" (N, C, H, W) and the "output
side" (N, O, Ho, Wo) of a convolution. The transposed convolution and both convolution
gradients use the same object: they are the same map read the other way.

Kernels work on 4-D NCHW-shaped arrays whose memory may be in any order; 1-D convolutions are
2-D ones with a height of 1, and channel-last data is transposed as a view.
"""

from __future__ import annotations

from collections.abc import Sequence


class ConvGeometry:
    __slots__ = (
        "kernel",
        "stride",
        "padding",
        "dilation",
        "groups",
        "in_size",
        "out_size",
        "channel_last",
        "spatial_dims",
    )

    def __init__(
        self,
        kernel: tuple[int, int],
        stride: tuple[int, int],
        padding: tuple[tuple[int, int], tuple[int, int]],
        dilation: tuple[int, int],
        groups: int,
        in_size: tuple[int, int],
        out_size: tuple[int, int],
        channel_last: bool = False,
        spatial_dims: int = 2,
    ) -> None:
        self.kernel = kernel
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.groups = groups
        self.in_size = in_size
        self.out_size = out_size
        self.channel_last = channel_last
        self.spatial_dims = spatial_dims

    @classmethod
    def for_input(
        cls,
        in_size: tuple[int, int],
        kernel: tuple[int, int],
        stride: tuple[int, int],
        padding: tuple[tuple[int, int], tuple[int, int]],
        dilation: tuple[int, int],
        groups: int,
        channel_last: bool = False,
        spatial_dims: int = 2,
    ) -> ConvGeometry:
        """The geometry of a forward convolution over an input of spatial size `in_size`."""
        out_size = tuple(
            (size + lo + hi - d * (k - 1) - 1) // s + 1
            for size, (lo, hi), d, k, s in zip(
                in_size, padding, dilation, kernel, stride, strict=True
            )
        )
        return cls(
            kernel, stride, padding, dilation, groups, in_size, out_size, channel_last, spatial_dims
        )

    # --- kernel selection -----------------------------------------------------------------------
    def is_pointwise(self) -> bool:
        """A 1x1 kernel without padding: the convolution is one matrix product."""
        return self.kernel == (1, 1) and self.padding == ((0, 0), (0, 0))

    def is_depthwise(self, in_channels: int, out_channels: int) -> bool:
        return self.groups == in_channels == out_channels and self.groups > 1

    def padded_size(self) -> tuple[int, int]:
        """Spatial size of the zero-padded input that covers every window."""
        return tuple(
            max(size + lo + hi, (o - 1) * s + d * (k - 1) + 1)
            for size, (lo, hi), o, s, d, k in zip(
                self.in_size,
                self.padding,
                self.out_size,
                self.stride,
                self.dilation,
                self.kernel,
                strict=True,
            )
        )

    def flipped(self) -> ConvGeometry | None:
        """For stride 1: the convolution that computes this one's input gradient, if any.

        The gradient of a stride-1 convolution is the convolution of the output gradient with
        the flipped, transposed kernel, padded by `d*(k-1) - p` on each side. None when that
        padding would be negative (padding wider than the kernel reach).
        """
        if self.stride != (1, 1):
            return None
        padding = []
        for size, out, (lo, _), d, k in zip(
            self.in_size, self.out_size, self.padding, self.dilation, self.kernel, strict=True
        ):
            reach = d * (k - 1)
            new_lo = reach - lo
            new_hi = size - out + reach - new_lo
            if new_lo < 0 or new_hi < 0:
                return None
            padding.append((new_lo, new_hi))
        return ConvGeometry(
            self.kernel,
            (1, 1),
            tuple(padding),
            self.dilation,
            self.groups,
            self.out_size,
            self.in_size,
        )

    # --- layouts --------------------------------------------------------------------------------
    def to_nchw(self, array):
        """A user-layout activation (NCL, NLC, NCHW or NHWC) as an NCHW-shaped view."""
        if self.channel_last:
            array = array.transpose(0, 2, 1) if array.ndim == 3 else array.transpose(0, 3, 1, 2)
        return array[:, :, None, :] if self.spatial_dims == 1 else array

    def from_nchw(self, array):
        """An NCHW-shaped array back in the user's layout, as a view."""
        if self.spatial_dims == 1:
            array = array[:, :, 0, :]
            return array.transpose(0, 2, 1) if self.channel_last else array
        return array.transpose(0, 2, 3, 1) if self.channel_last else array

    def weight_4d(self, weight):
        return weight[:, :, None, :] if self.spatial_dims == 1 else weight

    def weight_nd(self, weight):
        return weight[:, :, 0, :] if self.spatial_dims == 1 else weight


def as_pair(value: int | Sequence[int], name: str, dims: int = 2) -> tuple[int, ...]:
    """`3` -> `(3, 3)`; `[2, 3]` -> `(2, 3)`; checks the length."""
    if isinstance(value, int):
        return (int(value),) * dims
    values = tuple(int(v) for v in value)
    if len(values) == 1:
        return values * dims
    if len(values) != dims:
        raise ValueError(f"{name} must be an int or {dims} ints, got {list(value)}")
    return values


def parse_padding(
    padding: str | int | Sequence,
    dims: int,
    kernel: tuple[int, ...],
    stride: tuple[int, ...],
    dilation: tuple[int, ...],
    in_size: tuple[int, ...],
    channel_last: bool,
) -> tuple[tuple[int, int], ...]:
    """Paddle's padding forms as `((top, bottom), (left, right))` (one pair per spatial dim).

    Accepts 'same', 'valid', an int, `dims` ints, `2*dims` ints (begin/end per dim) and the
    pairs form with one pair per axis of the input (batch and channel pairs must be zero).
    """
    if isinstance(padding, str):
        mode = padding.lower()
        if mode == "valid":
            return ((0, 0),) * dims
        if mode != "same":
            raise ValueError(f"padding must be 'same', 'valid', an int or a list, not {padding!r}")
        pads = []
        for size, k, s, d in zip(in_size, kernel, stride, dilation, strict=True):
            out = -(-size // s)
            total = max((out - 1) * s + d * (k - 1) + 1 - size, 0)
            pads.append((total // 2, total - total // 2))
        return tuple(pads)
    if isinstance(padding, int):
        return ((int(padding), int(padding)),) * dims
    items = list(padding)
    if items and all(isinstance(p, list | tuple) for p in items):
        if len(items) == dims + 2:
            outer = (items[0], items[-1]) if channel_last else (items[0], items[1])
            if any(int(v) != 0 for pair in outer for v in pair):
                raise ValueError("padding on the batch or channel axis must be zero")
            items = items[1:-1] if channel_last else items[2:]
        if len(items) != dims:
            raise ValueError(f"padding pairs must have {dims} or {dims + 2} entries, got {padding}")
        return tuple((int(a), int(b)) for a, b in items)
    values = [int(v) for v in items]
    if len(values) == 1:
        values = values * dims
    if len(values) == dims:
        return tuple((v, v) for v in values)
    if len(values) == 2 * dims:
        return tuple((values[2 * i], values[2 * i + 1]) for i in range(dims))
    raise ValueError(f"padding must have 1, {dims} or {2 * dims} values, got {values}")
