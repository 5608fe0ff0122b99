"""as_tensor, asarray, from_numpy, from_dlpack/to_dlpack, tolist and range: memory sharing,
dtypes and devices, PaddlePaddle parity."""

from __future__ import annotations

import numpy as np
import pytest

import framework


def test_from_numpy_and_as_tensor_share_memory():
    a = np.zeros(3, np.float32)
    t = framework.from_numpy(a)
    a[0] = 5.0
    assert t.numpy()[0] == 5.0
    shared = framework.as_tensor(a)
    a[1] = 7.0
    assert shared.numpy()[1] == 7.0
    converted = framework.as_tensor(a, dtype="float64")
    a[2] = 9.0
    assert converted.dtype == np.float64 and converted.numpy()[2] == 0.0
    with pytest.raises(TypeError):
        framework.from_numpy([1, 2])


def test_as_tensor_of_lists_and_requires_grad():
    t = framework.as_tensor([1.0, 2.0], requires_grad=True)
    assert t.dtype == np.float32 and not t.stop_gradient
    assert framework.as_tensor([1, 2]).dtype == np.int64


def test_asarray_copies_only_when_asked():
    a = np.arange(3.0)
    view = framework.asarray(a)
    copied = framework.asarray(a, copy=True)
    a[0] = 10.0
    assert view.numpy()[0] == 10.0 and copied.numpy()[0] == 0.0
    assert framework.asarray([1, 2], dtype="float32").dtype == np.float32


def test_dlpack_round_trip_with_torch_and_numpy():
    torch = pytest.importorskip("torch")
    source = torch.arange(4, dtype=torch.float32)
    t = framework.from_dlpack(source)
    source[0] = 42.0
    assert t.numpy()[0] == 42.0 and t.dtype == np.float32
    back = torch.from_dlpack(framework.to_dlpack(t))
    np.testing.assert_array_equal(back.numpy(), t.numpy())
    np.testing.assert_array_equal(framework.from_dlpack(np.arange(3)).numpy(), [0, 1, 2])
    capsule = framework.to_dlpack(framework.to_tensor([1.0, 2.0]))
    np.testing.assert_array_equal(framework.from_dlpack(capsule).numpy(), [1.0, 2.0])


def test_tolist():
    assert framework.tolist(framework.to_tensor([[1, 2], [3, 4]])) == [[1, 2], [3, 4]]
    assert framework.tolist(framework.to_tensor(2.5)) == 2.5


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((3,), {}),
        ((0, 3), {}),
        ((0, 1, 0.3), {}),
        ((0, 3), {"dtype": "int64"}),
        ((5, 1, -2), {}),
        ((2, 1), {}),
    ],  # fmt: skip
)
def test_range_includes_the_end_like_paddle(args, kwargs):
    paddle = pytest.importorskip("paddle")
    ours = framework.range(*args, **kwargs)
    theirs = paddle.range(*args, **kwargs)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)
    assert str(ours.dtype) == str(theirs.dtype).replace("paddle.", "")


def test_range_requires_grad_and_zero_step():
    assert not framework.range(0, 2, requires_grad=True).stop_gradient
    with pytest.raises(ValueError):
        framework.range(0, 2, 0)
