"""`Tensor.__setitem__`: writing into part of a tensor, with gradients to both sides.

When no gradient is recorded the write happens in place in the tensor's array. When one is, the
write is the `Put` op: it makes the new version (a copy with the values written) and the tensor
is rebound to it, so the graph keeps an edge to the old version. The old version's gradient is
the incoming gradient with zeros where the write landed; the value's gradient is the incoming
gradient at those positions, summed over broadcasting.
"""

from __future__ import annotations

from framework.core.autograd import is_grad_enabled
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.cast import cast
from framework.ops.manipulation.indexing import normalize_key
from framework.ops.manipulation.inplace import bump_version, check_inplace, rebind
from framework.ops.manipulation.scatter import Put
from framework.ops.manipulation.shape import reshape


def setitem(x: Tensor, key: object, value: object) -> None:
    """`x[key] = value`: `value` (a scalar, array or Tensor) broadcasts to `x[key]`'s shape and
    is cast to `x`'s dtype. Writing into a leaf that requires a gradient is an error.

        x = framework.zeros([3, 4])
        x[0] = 1.0
        x[:, [1, 3]] = framework.ones([3, 2])
    """
    xp = get_array_module(x._data)
    key, repeats = normalize_key(key, xp)
    value_requires_grad = isinstance(value, Tensor) and not value.stop_gradient
    record = (
        is_grad_enabled()
        and (value_requires_grad or not x.stop_gradient)
        and x._data.dtype.kind == "f"
    )
    if not record:
        array = value._data if isinstance(value, Tensor) else value
        if not isinstance(array, int | float | complex):
            array = xp.asarray(array)
        if not getattr(x._data.flags, "writeable", True):
            x._data = x._data.copy()
        x._data[key] = array
        bump_version(x)
        return
    check_inplace(x, "__setitem__")
    if isinstance(value, Tensor):
        value = cast(value, x._data.dtype)
        # Leading size-1 dims never change broadcasting; dropping them lets sum_to undo it.
        lead = 0
        while lead < value._data.ndim and value._data.shape[lead] == 1:
            lead += 1
        if lead:
            value = reshape(value, value._data.shape[lead:])
    else:
        value = Tensor._wrap(xp.asarray(value, dtype=x._data.dtype))
    rebind(x, Put(key, repeats).apply(x, value))
