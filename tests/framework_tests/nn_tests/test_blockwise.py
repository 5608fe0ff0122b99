"""Large elementwise work shared over the cores in row blocks: ReLU, ReLU6, same-shape adds
and max pooling give the one-core results (and PyTorch's winners for pooling), keep a
channel-last input's memory layout, and their gradients are unchanged."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.backends.cpu import threads

SHAPE = (4, 16, 128, 128)  # 1,048,576 elements: at the sharing threshold


@pytest.fixture(params=[1, 3], ids=["one core", "three workers"])
def workers(request, monkeypatch) -> int:
    monkeypatch.setattr(threads, "CPU_WORKERS", request.param)
    return request.param


def channel_last(rng) -> np.ndarray:
    """An NCHW-shaped view of NHWC memory, as convolutions return."""
    return (
        rng.standard_normal((SHAPE[0], *SHAPE[2:], SHAPE[1]))
        .astype(np.float32)
        .transpose(0, 3, 1, 2)
    )


@pytest.mark.parametrize(
    "activation, reference, inside",
    [
        (F.relu, lambda x: np.maximum(x, 0), lambda x: x > 0),
        (F.relu6, lambda x: np.clip(x * 4, 0, 6) / 4, lambda x: (x * 4 > 0) & (x * 4 < 6)),
    ],
    ids=["relu", "relu6"],
)
def test_activations_match_one_core_and_keep_the_layout(workers, activation, reference, inside):
    rng = np.random.default_rng(0)
    data = channel_last(rng)
    x = framework.to_tensor(data, stop_gradient=False)
    scaled = x * 4 if activation is F.relu6 else x
    y = activation(scaled)
    if activation is F.relu6:
        y = y / 4
    np.testing.assert_array_equal(y.numpy(), reference(data))
    if activation is F.relu:
        view = np.ascontiguousarray(data.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
        assert not view.flags.c_contiguous  # NCHW-shaped, NHWC memory: a conv's output
        out = F.relu(framework.Tensor._wrap(view))
        assert out._data.strides == view.strides  # the next conv reads it without a copy
        np.testing.assert_array_equal(out.numpy(), np.maximum(data, 0))
    gy = rng.standard_normal(SHAPE).astype(np.float32)
    y.backward(framework.to_tensor(gy))
    np.testing.assert_allclose(x.grad.numpy(), gy * inside(data), rtol=1e-6)  # 1 inside


def test_same_shape_adds_match_one_core(workers):
    rng = np.random.default_rng(1)
    a, b = channel_last(rng), rng.standard_normal(SHAPE).astype(np.float32)
    x = framework.to_tensor(a, stop_gradient=False)
    y = framework.to_tensor(b, stop_gradient=False)
    out = x + y
    np.testing.assert_array_equal(out.numpy(), a + b)
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.ones(SHAPE, np.float32))
    np.testing.assert_array_equal(y.grad.numpy(), np.ones(SHAPE, np.float32))


def test_double_backward_through_a_shared_relu_still_builds_a_graph():
    x = framework.to_tensor(channel_last(np.random.default_rng(2)), stop_gradient=False)
    (g,) = framework.grad((F.relu(x) ** 2).sum(), x, create_graph=True)
    (gg,) = framework.grad(g.sum(), x)
    np.testing.assert_allclose(gg.numpy(), 2.0 * (x.numpy() > 0), rtol=1e-6)


def test_a_large_max_pool_shares_images_and_keeps_the_first_winner(workers):
    rng = np.random.default_rng(3)
    data = rng.integers(0, 4, (8, 16, 48, 48)).astype(np.float32)  # many ties
    x = framework.to_tensor(data, stop_gradient=False)
    y = F.max_pool2d(x, kernel_size=3, stride=2, padding=1)
    assert y.size >= 32768  # the shared path
    torch = pytest.importorskip("torch")
    tx = torch.tensor(data, requires_grad=True)
    ty = torch.nn.functional.max_pool2d(tx, 3, 2, 1)
    np.testing.assert_array_equal(y.numpy(), ty.detach().numpy())
    gy = rng.standard_normal(y.shape).astype(np.float32)
    y.backward(framework.to_tensor(gy))
    ty.backward(torch.tensor(gy))
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("layout", ["channel last", "contiguous", "mixed", "strided"])
def test_relu6_gradient_in_blocks_matches_the_mask(layout, monkeypatch):
    """The clipped activations' gradient walks cache-sized blocks in memory order when the
    gradient, the input and the output share one layout, and takes the whole arrays otherwise."""
    from framework.nn.functional.activation import masks

    monkeypatch.setattr(masks, "_MASK_BLOCK", 1000)  # many blocks and a partial last one
    rng = np.random.default_rng(4)
    shape = (3, 5, 17, 13)
    x = rng.uniform(-2, 8, shape).astype(np.float32)
    x[0, 0, 0, :3] = [0.0, 6.0, 3.0]  # the bounds themselves are outside
    gy = rng.standard_normal(shape).astype(np.float32)
    if layout == "channel last":
        x, gy = (
            np.ascontiguousarray(a.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2) for a in (x, gy)
        )
    elif layout == "mixed":
        x = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    elif layout == "strided":
        x, gy = (np.repeat(a, 2, axis=-1)[..., ::2] for a in (x, gy))
    out = np.empty_like(x)
    flat = masks._memory_order_flat(gy, x, out)
    assert (flat is not None) == (layout in ("channel last", "contiguous"))
    masks._inside_grad_into(gy, x, out, np.float32(0), np.float32(6))
    np.testing.assert_array_equal(out, gy * ((x > 0) & (x < 6)))
    assert out[0, 0, 0, 0] == 0 and out[0, 0, 0, 1] == 0 and out[0, 0, 0, 2] == gy[0, 0, 0, 2]
