"""Normalization layers: BatchNorm1D/2D (and the older BatchNorm), LayerNorm, GroupNorm,
InstanceNorm1D/2D, as in `paddle.nn`.

As in Paddle, BatchNorm's running statistics `_mean` and `_variance` are non-trainable
Parameters (so they are in `parameters()` and in the state dict); in training mode they move
as `running = momentum * running + (1 - momentum) * batch`. The scale starts at 1 and the
shift at 0; `weight_attr=False`/`bias_attr=False` drop them.

This package re-exports them from its modules: `batch_statistics` (the BatchNorms) and
`sample_statistics` (LayerNorm, GroupNorm, the InstanceNorms). As in `paddle.nn.layer.norm`,
it also holds the 3-D, spectral, local-response and synchronized norms of sibling modules.
"""

from __future__ import annotations

# The names the module held before it became a package stay reachable by their old paths.
from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.initializer import Constant
from framework.nn.layer.checks import array_of, check_channels, check_dtype_and_device
from framework.nn.layer.layers import Layer, default_dtype
from framework.nn.layer.norm.batch_statistics import (
    BatchNorm,
    BatchNorm1D,
    BatchNorm2D,
    _BatchNormBase,
)
from framework.nn.layer.norm.sample_statistics import (
    GroupNorm,
    InstanceNorm1D,
    InstanceNorm2D,
    LayerNorm,
    _InstanceNormBase,
)
from framework.nn.layer.norm3d import BatchNorm3D, InstanceNorm3D
from framework.nn.layer.spectral_norm import LocalResponseNorm, SpectralNorm
from framework.nn.layer.sync_batch_norm import SyncBatchNorm
from framework.nn.param_attr import ParamAttr
