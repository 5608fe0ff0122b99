"""Common functions: `linear`, dropouts, `interpolate`/`upsample`, `unfold`/`fold`, `pad`,
`zeropad2d`.

This package re-exports them from its modules by topic: `affine`, `dropouts`, `interpolation`,
`sliding_blocks` and `padding`.
"""

from __future__ import annotations

from framework.nn.functional.common.affine import linear
from framework.nn.functional.common.dropouts import (
    alpha_dropout,
    dropout,
    dropout1d,
    dropout2d,
    dropout3d,
    feature_alpha_dropout,
)
from framework.nn.functional.common.interpolation import interpolate, upsample
from framework.nn.functional.common.padding import zeropad2d
from framework.nn.functional.common.sliding_blocks import fold, unfold
from framework.ops.manipulation.pad import pad

__all__ = [
    "alpha_dropout",
    "dropout",
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "feature_alpha_dropout",
    "fold",
    "interpolate",
    "linear",
    "pad",
    "unfold",
    "upsample",
    "zeropad2d",
]
