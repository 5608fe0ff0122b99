"""default_collate_fn: nested samples of arrays, numbers and Tensors become batched Tensors."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.io import default_collate_fn, default_convert_fn


@pytest.mark.parametrize("dtype", ["float32", "float64", "uint8", "int64"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 0), (2, 3, 4)])
def test_it_stacks_arrays_keeping_dtype(dtype, shape):
    samples = [np.full(shape, i, dtype=dtype) for i in range(3)]
    batch = default_collate_fn(samples)
    assert isinstance(batch, framework.Tensor)
    assert batch.shape == [3, *shape]
    assert batch.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(batch.numpy(), np.stack(samples))


def test_it_stacks_tensors_and_numbers():
    tensors = [framework.to_tensor(np.full((2,), i, np.float32)) for i in range(4)]
    batch = default_collate_fn(tensors)
    np.testing.assert_array_equal(batch.numpy(), np.repeat(np.arange(4.0), 2).reshape(4, 2))
    ints = default_collate_fn([1, 2, 3])
    assert ints.dtype == np.int64 and ints.tolist() == [1, 2, 3]
    floats = default_collate_fn([0.5, 1.5])
    assert floats.dtype == np.float64  # as Paddle: np.array of Python floats
    assert default_collate_fn([np.float32(1), np.float32(2)]).dtype == np.float32


def test_it_collates_nested_structures_field_by_field():
    samples = [
        {"image": np.zeros((2, 2), np.float32) + i, "meta": (i, f"name{i}"), "tags": [i, i]}
        for i in range(3)
    ]
    batch = default_collate_fn(samples)
    assert set(batch) == {"image", "meta", "tags"}
    assert batch["image"].shape == [3, 2, 2]
    ids, names = batch["meta"]
    assert ids.tolist() == [0, 1, 2]
    assert names == ["name0", "name1", "name2"]
    assert [t.tolist() for t in batch["tags"]] == [[0, 1, 2], [0, 1, 2]]


def test_tuples_become_lists_as_in_paddle():
    batch = default_collate_fn([(np.zeros(2), 0), (np.ones(2), 1)])
    assert isinstance(batch, list) and len(batch) == 2


def test_it_rejects_ragged_and_unknown_samples():
    with pytest.raises(RuntimeError, match="fields number"):
        default_collate_fn([(1, 2), (1,)])
    with pytest.raises(TypeError, match="batch data can only contain"):
        default_collate_fn([object(), object()])
    with pytest.raises(ValueError):
        default_collate_fn([np.zeros(2), np.zeros(3)])


def test_default_convert_fn_makes_tensors_without_stacking():
    out = default_convert_fn({"x": np.arange(3), "name": "a"})
    assert isinstance(out["x"], framework.Tensor) and out["name"] == "a"
