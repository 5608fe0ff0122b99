"""Common layers: Linear, Identity, Flatten, Unflatten, Embedding, Upsample, padding, Unfold
and Fold, as in `paddle.nn`. Each stores its configuration and calls `framework.nn.functional`.

This package re-exports them from its modules by topic: `linear`, `shape`, `embedding`,
`upsampling`, `padding` and `fold`. As in `paddle.nn.layer.common`, it also holds the dropout,
Bilinear, CosineSimilarity and other padding layers of sibling modules.
"""

from __future__ import annotations

# The names the module held before it became a package stay reachable by their old paths.
from collections.abc import Sequence
from typing import Any

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.bilinear import Bilinear
from framework.nn.layer.checks import array_of, check_device, check_dtype_and_device
from framework.nn.layer.common.embedding import Embedding
from framework.nn.layer.common.fold import Fold, Unfold
from framework.nn.layer.common.linear import Linear
from framework.nn.layer.common.padding import Pad1D, Pad2D, ZeroPad2D, _PadNd
from framework.nn.layer.common.shape import Flatten, Identity, Unflatten
from framework.nn.layer.common.upsampling import Upsample, UpsamplingBilinear2D, UpsamplingNearest2D
from framework.nn.layer.dropout import (
    AlphaDropout,
    Dropout,
    Dropout2D,
    Dropout3D,
    FeatureAlphaDropout,
)
from framework.nn.layer.layers import Layer, default_dtype
from framework.nn.layer.margin_loss import CosineSimilarity
from framework.nn.layer.padding3d import Pad3D, ZeroPad3D
from framework.nn.layer.padding_modes import (
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
from framework.ops.manipulation import flatten
