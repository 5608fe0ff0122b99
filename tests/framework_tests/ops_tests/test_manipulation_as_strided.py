"""as_strided: NumPy reference (stride_tricks), PyTorch parity (Paddle 3.3.1's CPU kernel
returns uninitialised memory, so torch is the oracle), gradients of two orders."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

X = np.arange(12, dtype=np.float32).reshape(3, 4)
CASES = [([2, 3], [1, 2], 1), ([3, 3], [1, 1], 0), ([2, 2, 2], [4, 2, 1], 2), ([4], [3], 0)]


@pytest.mark.parametrize("shape, stride, offset", CASES)
def test_matches_numpy_stride_tricks(shape, stride, offset):
    flat = X.reshape(-1)[offset:]
    expected = np.lib.stride_tricks.as_strided(
        flat, shape, [s * flat.itemsize for s in stride], writeable=False
    )
    got = framework.as_strided(framework.to_tensor(X), shape, stride, offset)
    np.testing.assert_array_equal(got.numpy(), expected)
    assert got.dtype == np.float32 and got.shape == shape


@pytest.mark.parametrize("shape, stride, offset", CASES)
def test_values_and_gradients_match_torch(shape, stride, offset):
    torch = pytest.importorskip("torch")
    ours = framework.to_tensor(X, stop_gradient=False)
    out = framework.as_strided(ours, shape, stride, offset)
    theirs = torch.tensor(X, requires_grad=True)
    expected = torch.as_strided(theirs, shape, stride, offset)
    np.testing.assert_array_equal(out.numpy(), expected.detach().numpy())
    (out * out).sum().backward()
    (expected * expected).sum().backward()
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy())


def test_gradients_of_two_orders_with_overlapping_windows():
    fn = lambda t: framework.as_strided(t, [3, 3], [1, 1], 1)  # noqa: E731
    check_backward(fn, [X.astype(np.float64)])
    check_double_backward(lambda t: fn(t * t), [X.astype(np.float64)])


def test_method_form_and_bad_arguments():
    x = framework.to_tensor(X)
    assert x.as_strided([2], [5]).numpy().tolist() == [0.0, 5.0]
    with pytest.raises(ValueError, match="reaches element"):
        framework.as_strided(x, [2, 2], [20, 1])
    with pytest.raises(ValueError):
        framework.as_strided(x, [2, 2], [1])
