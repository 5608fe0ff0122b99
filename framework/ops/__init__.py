"""All differentiable ops, one folder per family. Importing this binds the method forms."""

from framework.core.tensor import Tensor
from framework.ops import creation, linalg, logic, manipulation, math, reduction, search, signal
from framework.ops.tensor_binding import bind

for _family in (creation, math, logic, reduction, manipulation, linalg, search, signal):
    bind(Tensor, _family.TENSOR_METHODS)

from framework.ops import inplace_forms  # noqa: E402 - the in-place forms wrap the families' ops

bind(Tensor, inplace_forms.TENSOR_METHODS)
