"""Array kernels for every graph op type, used by the inference executor.

Importing this package registers all of them; `builder_for(op_type)` returns one.
"""

from framework.inference.kernels import (  # noqa: F401 - each module registers its kernels
    control_flow,
    conv,
    elementwise,
    inverted_residual,
    linalg,
    logic,
    normalization,
    pooling,
    quantize_linear,
    quantized,
    reduction,
    resize,
    shape,
)
from framework.inference.kernels.registry import (
    INPLACE_OPS,
    VIEW_OPS,
    KernelContext,
    builder_for,
    supported_ops,
)

__all__ = ["INPLACE_OPS", "VIEW_OPS", "KernelContext", "builder_for", "supported_ops"]
