"""Shape manipulation, indexing and casting. `TENSOR_METHODS` binds method forms onto Tensor."""

from framework.ops.manipulation.broadcast import (
    broadcast_shape,
    broadcast_tensors,
    broadcast_to,
    expand,
    expand_as,
    meshgrid,
    sum_to,
)
from framework.ops.manipulation.cast import astype, cast, clone, numel
from framework.ops.manipulation.diagonal import diag_embed, diagonal
from framework.ops.manipulation.flip import flip, roll
from framework.ops.manipulation.gather import gather, gather_nd, index_select, take_along_axis
from framework.ops.manipulation.indexing import getitem
from framework.ops.manipulation.join import chunk, concat, split, stack, unbind, unstack
from framework.ops.manipulation.pad import pad
from framework.ops.manipulation.scatter import (
    index_add,
    put_along_axis,
    scatter,
    scatter_nd,
    scatter_nd_add,
)
from framework.ops.manipulation.setitem import setitem
from framework.ops.manipulation.shape import (
    flatten,
    flatten_,
    reshape,
    reshape_,
    squeeze,
    squeeze_,
    unsqueeze,
    unsqueeze_,
)
from framework.ops.manipulation.tile import repeat_interleave, tile
from framework.ops.manipulation.transfer import to_place
from framework.ops.manipulation.transpose import (
    moveaxis,
    reversed_dims,
    swapped_last_dims,
    t,
    transpose,
)
from framework.ops.manipulation.triangular import diag, tril, triu
from framework.ops.manipulation.where import (
    clip,
    masked_fill,
    masked_select,
    nonzero,
    where,
)

__all__ = [
    "astype",
    "broadcast_shape",
    "broadcast_tensors",
    "broadcast_to",
    "cast",
    "chunk",
    "clip",
    "clone",
    "concat",
    "diag",
    "diag_embed",
    "diagonal",
    "expand",
    "expand_as",
    "flatten",
    "flatten_",
    "flip",
    "gather",
    "gather_nd",
    "getitem",
    "index_add",
    "index_select",
    "masked_fill",
    "masked_select",
    "meshgrid",
    "moveaxis",
    "nonzero",
    "numel",
    "pad",
    "put_along_axis",
    "repeat_interleave",
    "reshape",
    "reshape_",
    "roll",
    "scatter",
    "scatter_nd",
    "scatter_nd_add",
    "setitem",
    "split",
    "squeeze",
    "squeeze_",
    "stack",
    "sum_to",
    "t",
    "take_along_axis",
    "tile",
    "to_place",
    "transpose",
    "tril",
    "triu",
    "unbind",
    "unsqueeze",
    "unsqueeze_",
    "unstack",
    "where",
]


def _where_method(self, x=None, y=None, name=None):
    """`condition.where(x, y)`: Paddle's method form, with the tensor as the condition."""
    return where(self, x, y)


TENSOR_METHODS = {
    "__getitem__": getitem,
    "__setitem__": setitem,
    "T": property(reversed_dims),
    "mT": property(swapped_last_dims),
    "astype": astype,
    "broadcast_to": broadcast_to,
    "cast": cast,
    "chunk": chunk,
    "clip": clip,
    "clone": clone,
    "diag": diag,
    "diag_embed": diag_embed,
    "diagonal": diagonal,
    "expand": expand,
    "expand_as": expand_as,
    "flatten": flatten,
    "flatten_": flatten_,
    "flip": flip,
    "gather": gather,
    "gather_nd": gather_nd,
    "index_add": index_add,
    "index_select": index_select,
    "masked_fill": masked_fill,
    "masked_select": masked_select,
    "moveaxis": moveaxis,
    "nonzero": nonzero,
    "put_along_axis": put_along_axis,
    "repeat_interleave": repeat_interleave,
    "reshape": reshape,
    "reshape_": reshape_,
    "roll": roll,
    "scatter": scatter,
    "scatter_nd_add": scatter_nd_add,
    "split": split,
    "squeeze": squeeze,
    "squeeze_": squeeze_,
    "t": t,
    "take_along_axis": take_along_axis,
    "tile": tile,
    "transpose": transpose,
    "tril": tril,
    "triu": triu,
    "unbind": unbind,
    "unsqueeze": unsqueeze,
    "unsqueeze_": unsqueeze_,
    "unstack": unstack,
    "where": _where_method,
}
