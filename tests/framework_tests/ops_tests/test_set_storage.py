"""Tensor.set_ and the legacy create_tensor: Paddle's documented examples, its errors, and the
shared storage."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.ops.creation.create_tensor import create_tensor

SRC2 = [11.0, 22.0, 33.0, 44.0, 55.0, 66.0]


@pytest.mark.parametrize(
    "kwargs,expected",
    [
        ({}, [[11.0, 22.0, 33.0]]),
        ({"shape": [2, 1]}, [[11.0], [22.0]]),
        ({"source": SRC2, "shape": [3], "stride": [2]}, [11.0, 33.0, 55.0]),
        ({"source": SRC2, "shape": [5], "offset": 4}, [22.0, 33.0, 44.0, 55.0, 66.0]),
        ({"source": SRC2, "shape": [2, 2], "stride": [1, 2]}, [[11.0, 33.0], [22.0, 44.0]]),
        ({"source": None}, []),
    ],
)
def test_it_matches_paddle(kwargs, expected):
    paddle = pytest.importorskip("paddle")
    kwargs = dict(kwargs)
    data = kwargs.pop("source", [[11.0, 22.0, 33.0]])
    results = []
    for m in (framework, paddle):
        src = None if data is None else m.to_tensor(data)
        x = m.to_tensor([1.0, 2.0, 3.0, 4.0, 5.0])
        out = x.set_(src, **kwargs) if src is not None else x.set_()
        assert out is x
        results.append((x.numpy(), list(x.shape), str(x.dtype).split(".")[-1]))
    assert results[0][1:] == results[1][1:]
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_array_equal(results[0][0], np.array(expected, dtype=np.float32))


def test_it_shares_the_source_storage():
    src = framework.to_tensor(SRC2)
    x = framework.to_tensor([0.0])
    x.set_(src, shape=[2], stride=[3], offset=4)
    src.numpy()[1] = -1.0
    assert x.numpy().tolist() == [-1.0, 55.0]
    assert np.shares_memory(x.numpy(), src.numpy())


def test_it_counts_an_inplace_change_and_drops_history():
    a = framework.to_tensor([1.0, 2.0], stop_gradient=False)
    y = a * 2
    y.set_(framework.to_tensor([5.0, 6.0, 7.0]))
    assert y.is_leaf and y.inplace_version == 1 and y.numpy().tolist() == [5.0, 6.0, 7.0]


def test_it_rejects_what_paddle_rejects():
    x = framework.to_tensor([1.0], stop_gradient=False)
    with pytest.raises(ValueError, match="doesn't stop gradient can't use inplace strategy"):
        x.set_(framework.to_tensor([2.0]))
    with pytest.raises(ValueError, match="Input \\(source\\) should be paddle.Tensor"):
        framework.to_tensor([1.0]).set_([1.0, 2.0])


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"shape": [10]}, "reaches element 9, but the source holds 6"),
        ({"shape": [4], "offset": 12}, "reaches element 6"),
        ({"shape": [2], "offset": 3}, "multiple of the item size"),
        ({"shape": [2], "stride": [1, 1]}, "differ in length"),
    ],
)
def test_it_refuses_windows_outside_the_storage(kwargs, message):
    # Paddle reads past the storage here; the framework refuses.
    with pytest.raises(ValueError, match=message):
        framework.to_tensor([1.0]).set_(framework.to_tensor(SRC2), **kwargs)


def test_it_refuses_another_dtype():
    with pytest.raises(TypeError, match="x is float64 but source is float32"):
        framework.to_tensor([1.0], dtype="float64").set_(framework.to_tensor(SRC2))


def test_a_transposed_source_keeps_its_values():
    src = framework.to_tensor(np.arange(6.0, dtype=np.float32).reshape(2, 3)).t()
    x = framework.to_tensor([0.0]).set_(src)
    np.testing.assert_array_equal(x.numpy(), np.arange(6.0).reshape(2, 3).T)
    y = framework.to_tensor([0.0]).set_(src, shape=[6])
    np.testing.assert_array_equal(y.numpy(), np.arange(6.0).reshape(2, 3).T.reshape(-1))


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "complex64"])
def test_create_tensor_matches_paddle(dtype):
    paddle = pytest.importorskip("paddle")
    ours, theirs = create_tensor(dtype), paddle.tensor.create_tensor(dtype)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    assert ours.numpy().tolist() == theirs.numpy().tolist() == []
    assert ours.name.startswith("create_tensor_") and theirs.name.startswith("create_tensor_")
    assert ours.stop_gradient and not ours.persistable


def test_create_tensor_is_filled_by_assign():
    t = create_tensor("float32", name="out", persistable=True)
    framework.assign(framework.to_tensor([1.0, 2.0]), output=t)
    assert (t.name, t.persistable, t.numpy().tolist()) == ("out", True, [1.0, 2.0])
    assert framework.Tensor.create_tensor is create_tensor
