"""linear, dropouts, embedding, interpolate/upsample, unfold/fold and pad: NumPy references,
float64 numerical gradients, double backward, and parity with PyTorch / Paddle."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.ops.manipulation.pad import pad as manipulation_pad
from framework.testing import check_backward, check_double_backward


def _rand(shape, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


# --- linear ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("x_shape", [(4, 5), (2, 3, 5), (0, 5)])
@pytest.mark.parametrize("with_bias", [True, False])
def test_linear_matches_numpy_and_gradients(x_shape, with_bias):
    x, w, b = _rand(x_shape), _rand((5, 3), seed=1), _rand(3, seed=2)
    args = [x, w, b] if with_bias else [x, w]
    y = F.linear(*[framework.to_tensor(a) for a in args])
    np.testing.assert_allclose(y.numpy(), x @ w + (b if with_bias else 0), atol=1e-12)
    if x.size:
        check_backward(F.linear, args)
        check_double_backward(F.linear, args)


def test_linear_matches_torch_in_float32():
    torch = pytest.importorskip("torch")
    x, w, b = _rand((6, 7), np.float32), _rand((7, 4), np.float32, 1), _rand(4, np.float32, 2)
    xs = [framework.to_tensor(a, stop_gradient=False) for a in (x, w, b)]
    y = F.linear(*xs)
    tx, tw, tb = (torch.tensor(a, requires_grad=True) for a in (x, w, b))
    ty = torch.nn.functional.linear(tx, tw.T, tb)
    gy = _rand(ty.shape, np.float32, 3)
    ty.backward(torch.tensor(gy))
    assert y.dtype == framework.float32
    np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-5)
    for ours, theirs in zip(
        framework.grad(y, xs, framework.to_tensor(gy)), (tx, tw, tb), strict=True
    ):
        assert ours.dtype == framework.float32
        np.testing.assert_allclose(ours.numpy(), theirs.grad.numpy(), rtol=1e-5, atol=1e-5)


def test_linear_names_the_shape_mismatch():
    with pytest.raises(ValueError, match=r"last dimension \(2880\) must equal weight.shape\[0\]"):
        F.linear(framework.to_tensor(_rand((2, 2880))), framework.to_tensor(_rand((500, 10))))


# --- dropout --------------------------------------------------------------------------------------
def test_dropout_keeps_one_minus_p_and_scales_in_training():
    x = framework.to_tensor(np.ones((400, 50), np.float32), stop_gradient=False)
    y = F.dropout(x, p=0.3)
    values = y.numpy()
    assert set(np.unique(values)) <= {0.0, np.float32(1 / 0.7)}
    assert abs((values != 0).mean() - 0.7) < 0.02
    (gx,) = framework.grad(y, [x], framework.to_tensor(np.full(x.shape, 2.0, np.float32)))
    np.testing.assert_allclose(gx.numpy(), 2.0 * values)


def test_dropout_is_repeatable_under_seed_and_shares_draws_along_axis():
    x = framework.to_tensor(np.ones((6, 8), np.float32))
    framework.seed(7)
    first = F.dropout(x, 0.5).numpy()
    framework.seed(7)
    np.testing.assert_array_equal(F.dropout(x, 0.5).numpy(), first)
    rows = F.dropout(x, 0.5, axis=0).numpy()
    assert all(len(set(row)) == 1 for row in rows)
    feature = F.dropout2d(framework.to_tensor(np.ones((3, 5, 4, 4), np.float32)), 0.5).numpy()
    assert (feature.reshape(3, 5, 16).std(axis=-1) == 0).all()
    nhwc = F.dropout2d(framework.to_tensor(np.ones((3, 4, 4, 5))), 0.5, data_format="NHWC")
    assert (nhwc.numpy().reshape(3, 16, 5).std(axis=1) == 0).all()
    volume = F.dropout3d(framework.to_tensor(np.ones((2, 3, 2, 2, 2))), 0.5).numpy()
    assert (volume.reshape(2, 3, 8).std(axis=-1) == 0).all()


def test_dropout_modes_outside_training_and_edge_probabilities():
    x = framework.to_tensor(_rand((5, 4), np.float32))
    assert F.dropout(x, 0.3, training=False) is x
    scaled = F.dropout(x, 0.3, training=False, mode="downscale_in_infer")
    np.testing.assert_allclose(scaled.numpy(), x.numpy() * np.float32(0.7))
    kept = F.dropout(x, 0.3, mode="downscale_in_infer").numpy()
    assert np.isin(kept, [0.0, *x.numpy().ravel()]).all()
    np.testing.assert_array_equal(F.dropout(x, 1.0).numpy(), np.zeros((5, 4)))
    assert F.dropout(x, 0.0) is x
    with pytest.raises(ValueError, match="probability"):
        F.dropout(x, 1.5)


def test_dropout_gradient_is_numerically_right_for_a_fixed_mask():
    x = _rand((4, 6))

    def fn(t):
        framework.seed(3)
        return F.dropout(t, 0.5)

    check_backward(fn, [x])
    check_double_backward(fn, [x])


def test_alpha_dropout_keeps_selu_statistics():
    x = framework.to_tensor(_rand((200000,), np.float32), stop_gradient=False)
    y = F.alpha_dropout(x, 0.2)
    assert abs(float(y.numpy().mean())) < 0.02 and abs(float(y.numpy().std()) - 1.0) < 0.02
    (gx,) = framework.grad(y, [x], framework.to_tensor(np.ones(200000, np.float32)))
    assert len(np.unique(gx.numpy())) == 2
    assert F.alpha_dropout(x, 0.2, training=False) is x


# --- embedding ------------------------------------------------------------------------------------
IDS = np.array([[0, 1, 1, 5], [2, 2, 4, 0]])


@pytest.mark.parametrize("padding_idx", [None, 1, -5])
def test_embedding_looks_up_rows_and_zeroes_padding(padding_idx):
    w = _rand((6, 3))
    y = F.embedding(framework.to_tensor(IDS), framework.to_tensor(w), padding_idx=padding_idx)
    expected = w[IDS]
    if padding_idx is not None:
        expected[IDS == padding_idx % 6] = 0
    np.testing.assert_allclose(y.numpy(), expected)
    fn = lambda t: F.embedding(framework.to_tensor(IDS), t, padding_idx=padding_idx)  # noqa: E731
    check_backward(fn, [w])
    check_double_backward(fn, [w])


def test_embedding_matches_paddle():
    paddle = pytest.importorskip("paddle")
    w = _rand((6, 3), np.float32)
    ours = framework.to_tensor(w, stop_gradient=False)
    y = F.embedding(framework.to_tensor(IDS), ours, padding_idx=1)
    (g,) = framework.grad(y, [ours], framework.to_tensor(np.ones(y.shape, np.float32)))
    theirs = paddle.to_tensor(w, stop_gradient=False)
    py = paddle.nn.functional.embedding(paddle.to_tensor(IDS), theirs, padding_idx=1)
    py.sum().backward()
    np.testing.assert_allclose(y.numpy(), py.numpy())
    np.testing.assert_allclose(g.numpy(), theirs.grad.numpy())


def test_embedding_scale_grad_by_freq_and_max_norm_match_torch():
    torch = pytest.importorskip("torch")
    w = _rand((6, 3), np.float32) * 3
    ours = framework.to_tensor(w, stop_gradient=False)
    y = F.embedding(framework.to_tensor(IDS), ours, scale_grad_by_freq=True)
    (g,) = framework.grad(y, [ours], framework.to_tensor(np.ones(y.shape, np.float32)))
    tw = torch.tensor(w, requires_grad=True)
    ty = torch.nn.functional.embedding(torch.tensor(IDS), tw, scale_grad_by_freq=True)
    ty.backward(torch.ones_like(ty))
    np.testing.assert_allclose(g.numpy(), tw.grad.numpy(), rtol=1e-6)
    renormed = framework.to_tensor(w.copy())
    y = F.embedding(framework.to_tensor(IDS), renormed, max_norm=1.0)
    tw = torch.tensor(w.copy())
    ty = torch.nn.functional.embedding(torch.tensor(IDS), tw, max_norm=1.0)
    np.testing.assert_allclose(y.numpy(), ty.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(renormed.numpy(), tw.numpy(), rtol=1e-5, atol=1e-6)


def test_embedding_rejects_bad_ids():
    w = framework.to_tensor(_rand((6, 3)))
    with pytest.raises(IndexError, match=r"ids must be in \[0, 6\)"):
        F.embedding(framework.to_tensor(np.array([6])), w)
    with pytest.raises(TypeError, match="integers"):
        F.embedding(framework.to_tensor(np.array([1.0])), w)


# --- interpolate ----------------------------------------------------------------------------------
INTERP_CASES = [
    {"size": [7, 9]},
    {"scale_factor": 2},
    {"scale_factor": [1.5, 0.7]},
    {"size": [7, 9], "mode": "bilinear"},
    {"scale_factor": 1.7, "mode": "bilinear"},
    {"size": [7, 9], "mode": "bilinear", "align_corners": True},
    {"size": [3, 4], "mode": "bilinear", "align_mode": 1},
    {"size": [8, 11], "mode": "bicubic"},
    {"size": [8, 11], "mode": "bicubic", "align_corners": True},
    {"size": [3, 4], "mode": "area"},
    {"size": [2, 5], "mode": "area"},
]


@pytest.mark.parametrize("kwargs", INTERP_CASES, ids=lambda k: "-".join(f"{v}" for v in k.values()))
def test_interpolate_matches_paddle(kwargs):
    paddle = pytest.importorskip("paddle")
    x = _rand((2, 3, 5, 6), np.float32)
    ours = F.interpolate(framework.to_tensor(x), **kwargs).numpy()
    theirs = paddle.nn.functional.interpolate(paddle.to_tensor(x), **kwargs).numpy()
    assert ours.shape == theirs.shape
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "kwargs", INTERP_CASES[::2], ids=lambda k: "-".join(f"{v}" for v in k.values())
)
def test_interpolate_gradients(kwargs):
    x = _rand((1, 2, 5, 6))
    check_backward(lambda t: F.interpolate(t, **kwargs), [x])
    check_double_backward(lambda t: F.interpolate(t, **kwargs), [x])


@pytest.mark.parametrize(
    "mode, kwargs",
    [("nearest", {}), ("bilinear", {}), ("bilinear", {"align_corners": True}), ("bicubic", {})],
)
def test_interpolate_matches_torch_forward_and_gradient(mode, kwargs):
    torch = pytest.importorskip("torch")
    x = _rand((2, 3, 5, 6), np.float32)
    xt = framework.to_tensor(x, stop_gradient=False)
    y = F.interpolate(xt, size=[9, 4], mode=mode, **kwargs)
    tx = torch.tensor(x, requires_grad=True)
    ty = torch.nn.functional.interpolate(tx, size=(9, 4), mode=mode, **kwargs)
    gy = _rand(ty.shape, np.float32, 1)
    ty.backward(torch.tensor(gy))
    (gx,) = framework.grad(y, [xt], framework.to_tensor(gy))
    np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(gx.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-5)


def test_interpolate_other_ranks_layouts_and_upsample():
    paddle = pytest.importorskip("paddle")
    pf = paddle.nn.functional
    x1 = _rand((2, 3, 5), np.float32)
    np.testing.assert_allclose(
        F.interpolate(framework.to_tensor(x1), size=[8], mode="linear").numpy(),
        pf.interpolate(paddle.to_tensor(x1), size=[8], mode="linear", data_format="NCW").numpy(),
        atol=1e-6,
    )
    x5 = _rand((1, 2, 3, 4, 5), np.float32)
    np.testing.assert_allclose(
        F.interpolate(framework.to_tensor(x5), scale_factor=2, mode="trilinear").numpy(),
        pf.interpolate(paddle.to_tensor(x5), scale_factor=2, mode="trilinear").numpy(),
        atol=1e-6,
    )
    nhwc = np.ascontiguousarray(_rand((2, 5, 6, 3), np.float32))
    np.testing.assert_allclose(
        F.upsample(framework.to_tensor(nhwc), [7, 9], mode="bilinear", data_format="NHWC").numpy(),
        pf.upsample(paddle.to_tensor(nhwc), [7, 9], mode="bilinear", data_format="NHWC").numpy(),
        atol=1e-5,
    )
    with pytest.raises(ValueError, match="align_corners"):
        F.interpolate(framework.to_tensor(x5[0]), size=[4, 4], align_corners=True)
    with pytest.raises(ValueError, match="exactly one"):
        F.interpolate(framework.to_tensor(x5[0]))
    with pytest.raises(NotImplementedError, match="antialias"):
        F.interpolate(framework.to_tensor(x5[0]), size=[4, 4], mode="bilinear", antialias=True)


# --- unfold / fold / pad ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs",
    [
        {"kernel_sizes": 2},
        {"kernel_sizes": [2, 3], "strides": [1, 2], "paddings": [1, 0, 0, 1]},
        {"kernel_sizes": 3, "paddings": 1, "dilations": 2},
    ],
)
def test_unfold_matches_paddle_and_fold_is_its_adjoint(kwargs):
    paddle = pytest.importorskip("paddle")
    x = _rand((2, 3, 5, 6), np.float32)
    cols = F.unfold(framework.to_tensor(x), **kwargs)
    np.testing.assert_allclose(
        cols.numpy(), paddle.nn.functional.unfold(paddle.to_tensor(x), **kwargs).numpy()
    )
    x64 = _rand((1, 2, 5, 6))
    unfolded = F.unfold(framework.to_tensor(x64), **kwargs).numpy()
    c64 = _rand(unfolded.shape, seed=1)
    folded = F.fold(framework.to_tensor(c64), [5, 6], **kwargs).numpy()
    np.testing.assert_allclose((unfolded * c64).sum(), (x64 * folded).sum(), rtol=1e-12)
    check_double_backward(lambda t: F.unfold(t, **kwargs), [x64])
    check_backward(lambda t: F.fold(t, [5, 6], **kwargs), [c64])


def test_fold_matches_paddle():
    paddle = pytest.importorskip("paddle")
    cols = _rand((2, 3 * 2 * 3, 18), np.float32)
    ours = F.fold(framework.to_tensor(cols), [5, 6], [2, 3], strides=[1, 2], paddings=[1, 1])
    theirs = paddle.nn.functional.fold(paddle.to_tensor(cols), [5, 6], [2, 3], [1, 2], [1, 1])
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), atol=1e-6)


def test_pad_is_the_manipulation_pad():
    assert F.pad is manipulation_pad
