"""F.local_response_norm: NumPy reference, gradients of two orders, PyTorch and PaddlePaddle
parity in every layout, bad input."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward

IMG = np.random.default_rng(0).standard_normal((2, 8, 3, 5)).astype(np.float32)


def _np_lrn(x, size, alpha=1e-4, beta=0.75, k=1.0, axis=1):
    x = np.moveaxis(x, axis, 1)
    c = x.shape[1]
    sq = np.pad(x * x, [(0, 0), (size // 2, (size - 1) // 2)] + [(0, 0)] * (x.ndim - 2))
    window = sum(sq[:, i : i + c] for i in range(size))
    return np.moveaxis(x / (k + alpha / size * window) ** beta, 1, axis)


@pytest.mark.parametrize("size", [1, 2, 3, 5, 11])
@pytest.mark.parametrize("fmt", ["NCL", "NLC", "NCHW", "NHWC", "NCDHW"])
def test_matches_numpy_and_has_gradients(size, fmt):
    shape = {
        "NCL": (2, 6, 4),
        "NLC": (2, 4, 6),
        "NCHW": (2, 6, 3, 2),
        "NHWC": (2, 3, 2, 6),
        "NCDHW": (1, 6, 2, 2, 2),
    }[fmt]
    x = np.random.default_rng(1).standard_normal(shape)
    axis = -1 if fmt[-1] == "C" else 1
    got = F.local_response_norm(framework.to_tensor(x), size, 0.1, 0.75, 2.0, fmt)
    np.testing.assert_allclose(got.numpy(), _np_lrn(x, size, 0.1, 0.75, 2.0, axis), rtol=1e-12)
    assert got.dtype == np.float64 and got.shape == list(shape)
    check_backward(lambda t: F.local_response_norm(t, size, 0.1, 0.75, 2.0, fmt), [x])
    check_double_backward(lambda t: F.local_response_norm(t, size, 0.1, 0.75, 2.0, fmt), [x])


def test_matches_torch_values_and_gradients():
    torch = pytest.importorskip("torch")
    ours = framework.to_tensor(IMG, stop_gradient=False)
    theirs = torch.tensor(IMG, requires_grad=True)
    y = F.local_response_norm(ours, 5, 1e-2, 0.5, 2.0)
    yt = torch.nn.functional.local_response_norm(theirs, 5, 1e-2, 0.5, 2.0)
    y.sum().backward()
    yt.sum().backward()
    np.testing.assert_allclose(y.numpy(), yt.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize(
    "size,fmt", [(3, "NCHW"), (4, "NHWC"), (2, "NCL"), (3, "NLC"), (3, "NCDHW"), (11, "NCHW")]
)
def test_matches_paddle(size, fmt):
    paddle = pytest.importorskip("paddle")
    data = {
        "NCHW": IMG,
        "NHWC": IMG.transpose(0, 2, 3, 1),
        "NCL": IMG[:, :, 0],
        "NLC": IMG[:, 0].transpose(0, 2, 1),
        "NCDHW": IMG[:, :, None],
    }[fmt]
    data = np.ascontiguousarray(data)
    ours = F.local_response_norm(framework.to_tensor(data), size, 1.0, data_format=fmt)
    theirs = paddle.nn.functional.local_response_norm(
        paddle.to_tensor(data), size, 1.0, data_format=fmt
    )
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)


def test_bad_input_raises_clear_errors():
    x = framework.to_tensor(IMG)
    with pytest.raises(ValueError, match="data_format must be one of"):
        F.local_response_norm(x, 3, data_format="NC")
    with pytest.raises(ValueError, match="must be 3-D"):
        F.local_response_norm(x, 3, data_format="NCL")
    with pytest.raises(ValueError, match="positive int"):
        F.local_response_norm(x, 0)
    with pytest.raises(ValueError, match="positive int"):
        F.local_response_norm(x, 2.5)
