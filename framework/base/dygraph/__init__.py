"""`framework.base.dygraph`, as `paddle.base.dygraph`: dynamic-graph mode, the only mode here.

`guard()` is a context that selects `place` if given; `enabled()` is always True.
"""

from framework.base.dygraph import base
from framework.base.dygraph.base import (
    disable_dygraph,
    enable_dygraph,
    enabled,
    grad,
    guard,
    no_grad,
)

__all__ = [
    "base",
    "disable_dygraph",
    "enable_dygraph",
    "enabled",
    "grad",
    "guard",
    "no_grad",
]
