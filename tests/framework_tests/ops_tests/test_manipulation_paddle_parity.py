"""The same calls give the same results in PaddlePaddle (the API this framework mirrors).

Each case is a function of the module (`framework` or `paddle`) and returns a tensor or a list
of tensors; results must match in values, shape and dtype.
"""

from __future__ import annotations

import numpy as np
import pytest

import framework

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7.0 - 1.0
IDS = np.array([2, 0, 2], dtype=np.int64)


def _x(m):
    return m.to_tensor(X)


def _functional(m):
    return m.nn.functional if m.__name__ == "paddle" else m.ops.manipulation


CASES = {
    "reshape_zero_minus_one": lambda m: m.reshape(_x(m), [0, -1]),
    "squeeze_non_one_axis_ignored": lambda m: m.squeeze(m.ones([3, 1, 4]), [0, 1]),
    "unsqueeze_sequential": lambda m: m.unsqueeze(m.ones([3, 4]), [2, 0]),
    "flatten_middle": lambda m: m.flatten(_x(m), 1, 2),
    "transpose": lambda m: m.transpose(_x(m), [2, 0, 1]),
    "moveaxis": lambda m: m.moveaxis(_x(m), [0, 1], [2, 0]),
    "split_sections_minus_one": lambda m: m.split(_x(m), [1, -1], axis=2),
    "chunk": lambda m: m.chunk(_x(m), 3, axis=1),
    "unbind": lambda m: m.unbind(_x(m), axis=1),
    "stack": lambda m: m.stack([_x(m), _x(m)], axis=-1),
    "concat": lambda m: m.concat([_x(m), _x(m)], axis=1),
    "tile": lambda m: m.tile(_x(m), [2, 1, 1, 2]),
    "repeat_interleave_flat": lambda m: m.repeat_interleave(_x(m), 2),
    "repeat_interleave_tensor": lambda m: m.repeat_interleave(
        _x(m), m.to_tensor(np.array([1, 0, 3])), axis=1
    ),
    "flip": lambda m: m.flip(_x(m), [0, 2]),
    "roll_flat": lambda m: m.roll(_x(m), 5),
    "roll_axes": lambda m: m.roll(_x(m), [1, -1], axis=[1, 2]),
    "tril": lambda m: m.tril(_x(m), -1),
    "triu": lambda m: m.triu(_x(m), 1),
    "diag_embed_padding": lambda m: m.diag(m.to_tensor(X[0, 0]), offset=-1, padding_value=5),
    "diag_part": lambda m: m.diag(m.to_tensor(X[0]), offset=1),
    "gather": lambda m: m.gather(_x(m), m.to_tensor(IDS), axis=1),
    "gather_default_axis": lambda m: m.gather(m.to_tensor(X[0]), m.to_tensor(IDS)),
    "gather_nd": lambda m: m.gather_nd(_x(m), m.to_tensor(np.array([[1, 2], [0, 0]]))),
    "index_select": lambda m: m.index_select(_x(m), m.to_tensor(IDS), axis=2),
    "take_along_axis": lambda m: m.take_along_axis(
        _x(m), m.to_tensor(np.array([[[0, 3]], [[1, 1]]])), 2
    ),
    "put_along_axis_add": lambda m: m.put_along_axis(
        _x(m), m.to_tensor(np.array([[[0, 0]], [[3, 1]]])), 2.5, 2, reduce="add"
    ),
    "scatter_overwrite": lambda m: m.scatter(
        m.to_tensor(X[0]), m.to_tensor(np.array([2, 0])), m.to_tensor(X[1, :2])
    ),
    "scatter_accumulate": lambda m: m.scatter(
        m.to_tensor(X[0]), m.to_tensor(np.array([1, 1])), m.to_tensor(X[1, :2]), overwrite=False
    ),
    "scatter_nd_add": lambda m: m.scatter_nd_add(
        _x(m), m.to_tensor(np.array([[1, 2], [1, 2]])), m.to_tensor(X[0, :2])
    ),
    "where": lambda m: m.where(_x(m) > 0, _x(m), m.zeros([4])),
    "clip": lambda m: m.clip(_x(m), -0.5, 0.25),
    "masked_fill": lambda m: m.masked_fill(_x(m), _x(m) > 0.5, -9.0),
    "masked_select": lambda m: m.masked_select(_x(m), _x(m) < 0),
    "nonzero": lambda m: m.nonzero(m.to_tensor(np.array([[0.0, 1.0], [2.0, 0.0]]))),
    "cast": lambda m: m.cast(_x(m) * 4, "int32"),
    "expand_as": lambda m: m.expand_as(m.to_tensor(X[:1, :1]), _x(m)),
    "broadcast_tensors": lambda m: m.broadcast_tensors([m.to_tensor(X[:, :1]), m.ones([4])]),
    "meshgrid": lambda m: m.meshgrid(m.to_tensor(X[0, 0]), m.to_tensor(X[0, :, 0])),
    "pad_constant_last_dims": lambda m: _functional(m).pad(_x(m), [1, 2], value=3.0),
    "pad_reflect_ncl": lambda m: _functional(m).pad(_x(m), [2, 1], mode="reflect"),
    "pad_replicate_nlc": lambda m: _functional(m).pad(
        _x(m), [1, 2], mode="replicate", data_format="NLC"
    ),
    "pad_circular_nchw": lambda m: _functional(m).pad(
        m.to_tensor(X.reshape(1, 2, 3, 4)), [1, 1, 2, 0], mode="circular"
    ),
    "matmul_vector_matrix": lambda m: m.matmul(m.to_tensor(X[0, :, 0]), m.to_tensor(X[0])),
    "matmul_transposes": lambda m: m.matmul(_x(m), _x(m), transpose_x=True),
    "dot_rows": lambda m: m.dot(m.to_tensor(X[0]), m.to_tensor(X[1])),
    "einsum": lambda m: m.einsum("bij,bkj->bik", _x(m), _x(m)),
    "norm_fro": lambda m: m.linalg.norm(_x(m)),
    "norm_p1_axis": lambda m: m.linalg.norm(_x(m), p=1, axis=1),
    "norm_inf_keepdim": lambda m: m.linalg.norm(_x(m), p=float("inf"), axis=-1, keepdim=True),
    "norm_matrix_fro": lambda m: m.linalg.norm(_x(m), p="fro", axis=[1, 2]),
    "topk": lambda m: m.topk(_x(m), 2, axis=1),
    "topk_smallest": lambda m: m.topk(_x(m), 3, largest=False),
    "sort_descending": lambda m: m.sort(_x(m), axis=1, descending=True),
    "argsort": lambda m: m.argsort(_x(m), axis=0),
    "cumsum_flat": lambda m: m.cumsum(_x(m)),
    "cumsum_int32_to_int64": lambda m: m.cumsum(m.to_tensor(np.array([1, 2, 3], np.int32))),
    "cumprod": lambda m: m.cumprod(_x(m), dim=2),
    "kthvalue": lambda m: m.kthvalue(_x(m), 2, axis=2),
    "mode": lambda m: m.mode(m.to_tensor(np.array([[3.0, 1.0, 3.0, 1.0, 2.0]]))),
    "unique": lambda m: m.unique(
        m.to_tensor(np.array([3, 1, 3, 2])),
        return_index=True,
        return_inverse=True,
        return_counts=True,
    ),
    "searchsorted": lambda m: m.searchsorted(
        m.to_tensor(np.array([[1, 3, 5], [2, 4, 6]])), m.to_tensor(np.array([[3, 6], [1, 7]]))
    ),
    "numel": lambda m: m.numel(_x(m)),
    "getitem_mixed": lambda m: _x(m)[m.to_tensor(np.array([1, 0])), 1:, ::2],
    "getitem_negative_step": lambda m: _x(m)[:, ::-1, 1],
    "getitem_bool": lambda m: _x(m)[_x(m) > 0.3],
}


def _as_list(result) -> list:
    return list(result) if isinstance(result, list | tuple) else [result]


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_result_as_paddle(name):
    paddle = pytest.importorskip("paddle")
    ours = _as_list(CASES[name](framework))
    theirs = _as_list(CASES[name](paddle))
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        expected = b.numpy()
        assert a.shape == list(expected.shape), name
        assert a.numpy().dtype == expected.dtype, name
        np.testing.assert_allclose(a.numpy(), expected, rtol=1e-6, atol=1e-6, err_msg=name)
