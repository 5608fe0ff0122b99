"""affine_grid and grid_sample: a NumPy reference, PyTorch parity of values and gradients (x
and grid), real Paddle parity in float32, and float64 gradient checks of first and second
order."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)
X4 = rng.standard_normal((2, 2, 3, 4))
GRID4 = rng.uniform(-1.3, 1.3, (2, 2, 3, 2))
X5 = rng.standard_normal((1, 2, 3, 2, 4))
GRID5 = rng.uniform(-1.3, 1.3, (1, 2, 2, 2, 3))
PADDINGS = ["zeros", "border", "reflection"]
SETTINGS = list(itertools.product(["bilinear", "nearest"], PADDINGS, [True, False]))


def _reflect(c: float, size: int, align_corners: bool) -> float:
    low, high = (0.0, 2.0 * (size - 1)) if align_corners else (-1.0, 2.0 * size - 1.0)
    if low == high:
        return 0.0
    lo, span = low / 2, (high - low) / 2
    c = abs(c - lo)
    extra, flips = c % span, int(c // span)
    return extra + lo if flips % 2 == 0 else span - extra + lo


def reference_grid_sample_2d(x, grid, mode, padding_mode, align_corners):
    """Loop-per-point reference, written from the definition."""
    n, c, h, w = x.shape
    out = np.zeros((n, c, *grid.shape[1:3]))

    def position(g, size):
        p = (g + 1) / 2 * (size - 1) if align_corners else ((g + 1) * size - 1) / 2
        if padding_mode == "reflection":
            p = _reflect(p, size, align_corners)
        if padding_mode != "zeros":
            p = min(max(p, 0.0), size - 1.0)
        return p

    def pixel(b, i, j):
        if 0 <= i < h and 0 <= j < w:
            return x[b, :, i, j]
        return np.zeros(c)

    for b, oi, oj in itertools.product(*map(range, (n, *grid.shape[1:3]))):
        px, py = position(grid[b, oi, oj, 0], w), position(grid[b, oi, oj, 1], h)
        if mode == "nearest":
            out[b, :, oi, oj] = pixel(b, int(np.rint(py)), int(np.rint(px)))
            continue
        x0, y0 = int(np.floor(px)), int(np.floor(py))
        fx, fy = px - x0, py - y0
        out[b, :, oi, oj] = (
            pixel(b, y0, x0) * (1 - fy) * (1 - fx)
            + pixel(b, y0, x0 + 1) * (1 - fy) * fx
            + pixel(b, y0 + 1, x0) * fy * (1 - fx)
            + pixel(b, y0 + 1, x0 + 1) * fy * fx
        )
    return out


def tensor(array, **kwargs):
    return framework.to_tensor(array, **kwargs)


@pytest.mark.parametrize(("mode", "padding_mode", "align_corners"), SETTINGS)
def test_grid_sample_matches_the_numpy_reference(mode, padding_mode, align_corners):
    out = F.grid_sample(tensor(X4), tensor(GRID4), mode, padding_mode, align_corners)
    expected = reference_grid_sample_2d(X4, GRID4, mode, padding_mode, align_corners)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("rank", [4, 5])
@pytest.mark.parametrize(("mode", "padding_mode", "align_corners"), SETTINGS)
def test_grid_sample_matches_pytorch_values_and_gradients(rank, mode, padding_mode, align_corners):
    torch = pytest.importorskip("torch")
    x, grid = (X4, GRID4) if rank == 4 else (X5, GRID5)
    ours = [tensor(x, stop_gradient=False), tensor(grid, stop_gradient=False)]
    theirs = [torch.tensor(x, requires_grad=True), torch.tensor(grid, requires_grad=True)]
    out = F.grid_sample(*ours, mode, padding_mode, align_corners)
    expected = torch.nn.functional.grid_sample(
        *theirs, mode, padding_mode, align_corners=align_corners
    )
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-10, atol=1e-12)
    g = rng.standard_normal(expected.shape)
    out.backward(tensor(g))
    expected.backward(torch.tensor(g))
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("rank", [4, 5])
@pytest.mark.parametrize(("mode", "padding_mode", "align_corners"), SETTINGS)
def test_grid_sample_matches_paddle_in_float32(rank, mode, padding_mode, align_corners):
    paddle = pytest.importorskip("paddle")
    x, grid = (X4, GRID4) if rank == 4 else (X5, GRID5)
    x, grid = x.astype(np.float32), grid.astype(np.float32)
    ours = [tensor(x, stop_gradient=False), tensor(grid, stop_gradient=False)]
    theirs = [paddle.to_tensor(x, stop_gradient=False), paddle.to_tensor(grid, stop_gradient=False)]
    out = F.grid_sample(*ours, mode, padding_mode, align_corners)
    expected = paddle.nn.functional.grid_sample(*theirs, mode, padding_mode, align_corners)
    assert out.numpy().dtype == expected.numpy().dtype == np.float32
    np.testing.assert_allclose(out.numpy(), expected.numpy(), rtol=1e-5, atol=1e-5)
    g = rng.standard_normal(out.shape).astype(np.float32)
    out.backward(tensor(g))
    expected.backward(paddle.to_tensor(g))
    for a, b in zip(ours, theirs, strict=True):
        assert a.grad.numpy().dtype == b.grad.numpy().dtype
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("padding_mode", PADDINGS)
@pytest.mark.parametrize("align_corners", [True, False])
def test_bilinear_gradients_in_float64(padding_mode, align_corners):
    def fn(x, grid):
        return F.grid_sample(x, grid, "bilinear", padding_mode, align_corners)

    check_backward(fn, [X4[:1], GRID4[:1]])
    check_double_backward(fn, [X4[:1], GRID4[:1]])


def test_trilinear_and_nearest_gradients_in_float64():
    check_backward(lambda x, g: F.grid_sample(x, g, padding_mode="border"), [X5, GRID5])
    check_double_backward(lambda x, g: F.grid_sample(x, g, align_corners=False), [X5, GRID5])
    check_backward(
        lambda x: F.grid_sample(x, tensor(GRID4), "nearest", "reflection"), [X4], atol=1e-6
    )


@pytest.mark.parametrize("align_corners", [True, False])
@pytest.mark.parametrize("out_shape", [[2, 3, 4, 5], [2, 3, 2, 4, 5]])
def test_affine_grid_matches_pytorch_and_paddle(out_shape, align_corners):
    torch = pytest.importorskip("torch")
    paddle = pytest.importorskip("paddle")
    spatial = len(out_shape) - 2
    theta = rng.standard_normal((2, spatial, spatial + 1))
    ours = tensor(theta, stop_gradient=False)
    theirs = torch.tensor(theta, requires_grad=True)
    out = F.affine_grid(ours, out_shape, align_corners)
    expected = torch.nn.functional.affine_grid(theirs, out_shape, align_corners)
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-12, atol=1e-12)
    g = rng.standard_normal(expected.shape)
    out.backward(tensor(g))
    expected.backward(torch.tensor(g))
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-10)

    theta32 = theta.astype(np.float32)
    ours32 = F.affine_grid(tensor(theta32), tensor(np.array(out_shape)), align_corners)
    paddle_out = paddle.nn.functional.affine_grid(
        paddle.to_tensor(theta32), out_shape, align_corners
    )
    assert ours32.numpy().dtype == paddle_out.numpy().dtype == np.float32
    np.testing.assert_allclose(ours32.numpy(), paddle_out.numpy(), rtol=1e-6, atol=1e-6)


def test_affine_grid_gradients_in_float64():
    theta = rng.standard_normal((1, 2, 3))
    check_backward(lambda t: F.affine_grid(t, [1, 1, 3, 2], False), [theta])


def test_identity_transform_resamples_the_image_unchanged():
    theta = tensor(np.tile(np.eye(2, 3), (2, 1, 1)))
    for align_corners in (True, False):
        grid = F.affine_grid(theta, list(X4.shape), align_corners)
        out = F.grid_sample(tensor(X4), grid, align_corners=align_corners)
        np.testing.assert_allclose(out.numpy(), X4, atol=1e-12)


def test_grid_sample_rejects_bad_arguments():
    with pytest.raises(ValueError, match="mode"):
        F.grid_sample(tensor(X4), tensor(GRID4), mode="bicubic")
    with pytest.raises(ValueError, match="padding_mode"):
        F.grid_sample(tensor(X4), tensor(GRID4), padding_mode="wrap")
    with pytest.raises(ValueError, match="grid"):
        F.grid_sample(tensor(X4), tensor(GRID5))
    with pytest.raises(ValueError, match="theta"):
        F.affine_grid(tensor(np.zeros((2, 3, 4))), [2, 1, 3, 3])


@pytest.mark.parametrize("full_graph", [False, True])
def test_to_static_never_freezes_one_grids_indices(full_graph):
    class Sampler(framework.nn.Layer):
        def forward(self, x, grid):
            return F.grid_sample(x, grid, padding_mode="reflection")

    model = framework.jit.to_static(Sampler(), full_graph=full_graph)
    x = tensor(X4.astype(np.float32))
    for seed in (1, 2):
        grid = tensor(np.random.default_rng(seed).uniform(-1.2, 1.2, GRID4.shape), dtype="float32")
        np.testing.assert_allclose(
            model(x, grid).numpy(), F.grid_sample(x, grid, padding_mode="reflection").numpy()
        )
