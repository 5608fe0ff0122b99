"""All differentiable ops, one folder per family. Importing this binds the method forms."""

from framework.core.tensor import Tensor
from framework.ops import manipulation, math
from framework.ops.tensor_binding import bind

for _family in (math, manipulation):
    bind(Tensor, _family.TENSOR_METHODS)
