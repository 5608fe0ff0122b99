"""Manipulation, indexing, linalg and search ops on a GPU give what they give on the CPU,
forward and gradients. Run by `make gpu-check`; skipped where no CUDA GPU is usable."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.ops.manipulation.pad import pad
from framework.ops.search import one_hot

pytestmark = pytest.mark.gpu


def _ids(values, like: framework.Tensor) -> framework.Tensor:
    return framework.to_tensor(np.asarray(values, dtype=np.int64), place=like.place)


OPS = {
    "reshape_transpose": lambda x: framework.transpose(x.reshape([4, 3, 2]), [2, 0, 1]),
    "concat_split": lambda x: framework.concat(framework.split(x, [1, -1], axis=1)[::-1], 1),
    "stack_unbind": lambda x: framework.stack(framework.unbind(x, 1), axis=0),
    "tile_flip_roll": lambda x: framework.roll(framework.flip(framework.tile(x, [2, 1]), 0), 3),
    "tril_diag": lambda x: framework.diag(framework.tril(x[:, :4], -1), 1),
    "getitem_advanced": lambda x: x[_ids([3, 0, 3], x), 1::2],
    "getitem_mask": lambda x: x[x > 0.1],
    "gather_index_select": lambda x: framework.gather(x, _ids([1, 1, 0], x), axis=1),
    "take_along_axis": lambda x: framework.take_along_axis(x, _ids([[5, 0, 5]] * 4, x), 1),
    "put_along_axis_add": lambda x: framework.put_along_axis(
        x, _ids([[0, 0]] * 4, x), x[:, :2], 1, reduce="add"
    ),
    "scatter_nd_add": lambda x: framework.scatter_nd_add(x, _ids([[1, 2], [1, 2]], x), x[0, :2]),
    "where_clip": lambda x: framework.where(x > 0, framework.clip(x, -0.2, 0.3), x * 2.0),
    "masked_fill": lambda x: framework.masked_fill(x, x < 0, 0.5),
    "pad_reflect": lambda x: pad(x.reshape([1, 2, 2, 6]), [2, 1, 1, 1], mode="reflect"),
    "pad_constant": lambda x: pad(x, [1, 2, 0, 3], value=0.5),
    "matmul": lambda x: framework.matmul(x, x, transpose_y=True),
    "matmul_batched": lambda x: framework.matmul(x.reshape([2, 2, 6]), x.reshape([6, 4])),
    "einsum": lambda x: framework.einsum("ij,kj->ik", x, x * x),
    "norm": lambda x: framework.linalg.norm(x, p=2, axis=1) + framework.linalg.norm(x, p=1),
    "topk_sort": lambda x: framework.topk(x, 2)[0].sum() + framework.sort(x, axis=0),
    "cumsum_cumprod": lambda x: framework.cumsum(x, 1) + framework.cumprod(x, dim=0),
}


def _setitem(x: framework.Tensor) -> framework.Tensor:
    y = x * 1.0
    y[1:3, _ids([0, 4], x)] = x[0, :2] * 3.0
    return y


OPS["setitem"] = _setitem


def _run(op, data: np.ndarray, g: np.ndarray, place: str):
    x = framework.to_tensor(data, place=place, stop_gradient=False)
    out = op(x)
    out.backward(framework.to_tensor(g[: out.size].reshape(out.shape), place=place))
    return out.numpy(), x.grad.numpy()


@pytest.mark.parametrize("name", sorted(OPS))
def test_same_forward_and_gradient_as_on_the_cpu(name):
    rng = np.random.default_rng(0)
    data = rng.standard_normal((4, 6)).astype(np.float32)
    g = rng.standard_normal(400).astype(np.float32)
    cpu_out, cpu_grad = _run(OPS[name], data, g, "cpu")
    gpu_out, gpu_grad = _run(OPS[name], data, g, "gpu")
    np.testing.assert_allclose(gpu_out, cpu_out, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(gpu_grad, cpu_grad, rtol=1e-4, atol=1e-5)


def test_integer_results_on_the_gpu():
    x = framework.to_tensor(np.array([[3, 1, 2], [0, 0, 5]]), place="gpu")
    assert framework.argsort(x).numpy().tolist() == [[1, 2, 0], [0, 1, 2]]
    assert framework.nonzero(x).numpy().tolist() == [[0, 0], [0, 1], [0, 2], [1, 2]]
    assert one_hot(x[0], 4).numpy().tolist()[0] == [0.0, 0.0, 0.0, 1.0]
    assert framework.unique(x).numpy().tolist() == [0, 1, 2, 3, 5]
    seq = framework.to_tensor(np.array([1, 3, 5]), place="gpu")
    assert framework.searchsorted(seq, x[0]).numpy().tolist() == [1, 0, 1]
