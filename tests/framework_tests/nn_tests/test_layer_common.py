"""Common layers: Linear, Identity, Flatten, Dropout, Dropout2D, Embedding, Upsample, Pad2D.
PyTorch parity with copied weights, Paddle's parameter layout and defaults, train/eval
behaviour, error messages naming the layer and the shapes."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn

rng = np.random.default_rng(0)


def tensor(array, **kwargs):
    return framework.to_tensor(array, **kwargs)


# --- Linear --------------------------------------------------------------------------------------
def test_linear_has_paddle_layout_and_defaults():
    fc = nn.Linear(20, 30)
    assert fc.weight.shape == [20, 30] and fc.bias.shape == [30]
    limit = np.sqrt(6.0 / 50)
    assert np.abs(fc.weight.numpy()).max() <= limit
    assert np.abs(fc.weight.numpy()).max() > 0.9 * limit
    np.testing.assert_array_equal(fc.bias.numpy(), np.zeros(30))
    assert sum(p.size for p in fc.parameters()) == 20 * 30 + 30
    assert nn.Linear(2, 3, bias_attr=False).bias is None
    assert repr(fc) == "Linear(in_features=20, out_features=30, dtype=float32)"


@pytest.mark.parametrize("shape", [(4, 5), (2, 3, 5), (5,)], ids=str)
def test_linear_matches_pytorch(shape):
    torch = pytest.importorskip("torch")
    fc = nn.Linear(5, 3)
    reference = torch.nn.Linear(5, 3)
    with torch.no_grad():
        reference.weight.copy_(torch.tensor(fc.weight.numpy().T))
        reference.bias.copy_(torch.tensor(np.arange(3, dtype=np.float32)))
    fc.bias.set_value(np.arange(3, dtype=np.float32))
    x = rng.standard_normal(shape).astype(np.float32)
    ours = tensor(x, stop_gradient=False)
    theirs = torch.tensor(x, requires_grad=True)
    out, expected = fc(ours), reference(theirs)
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-5, atol=1e-6)
    g = rng.standard_normal(out.shape).astype(np.float32)
    out.backward(tensor(g))
    expected.backward(torch.tensor(g))
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-5, atol=1e-6)
    # float32 sums over the batch: an element near zero needs an absolute tolerance too
    np.testing.assert_allclose(
        fc.weight.grad.numpy(), reference.weight.grad.numpy().T, rtol=1e-5, atol=1e-6
    )
    np.testing.assert_allclose(
        fc.bias.grad.numpy(), reference.bias.grad.numpy(), rtol=1e-5, atol=1e-6
    )


def test_linear_shape_mismatch_names_the_layer_and_both_shapes():
    fc = nn.Linear(500, 10)
    with pytest.raises(ValueError) as info:
        fc(tensor(np.zeros((64, 2880), np.float32)))
    assert str(info.value) == (
        "Linear(in_features=500, out_features=10) expects the last input dimension to be 500, "
        "got input of shape [64, 2880]"
    )


def test_linear_shape_mismatch_inside_a_model_names_its_path():
    model = nn.Sequential(nn.Flatten(), nn.Linear(2880, 500), nn.ReLU(), nn.Linear(50, 10))
    with pytest.raises(ValueError, match="expects the last input dimension to be 50") as info:
        model(tensor(np.zeros((2, 5, 576), np.float32)))
    assert info.value.__notes__ == [
        "Raised in forward of layer '3' (Linear(in_features=50, out_features=10, dtype=float32)) "
        "of Sequential"
    ]


def test_linear_dtype_mismatch_says_which_dtypes():
    fc = nn.Linear(3, 2)
    with pytest.raises(TypeError) as info:
        fc(tensor(np.zeros((4, 3))))
    assert str(info.value) == (
        "Linear(in_features=3, out_features=2) has float32 weights but got a float64 input of "
        "shape [4, 3]; cast the input with x.astype('float32') or the layer with "
        "layer.to(dtype='float64')"
    )
    fc.to(dtype="float64")
    assert fc(tensor(np.zeros((4, 3)))).dtype == np.float64


# --- Identity, Flatten ---------------------------------------------------------------------------
def test_identity_and_flatten():
    x = tensor(rng.standard_normal((2, 3, 4, 5)).astype(np.float32))
    assert nn.Identity(54, unused=True)(x) is x
    assert nn.Flatten()(x).shape == [2, 60]
    assert nn.Flatten(start_axis=0, stop_axis=1)(x).shape == [6, 4, 5]
    assert repr(nn.Flatten()) == "Flatten(start_axis=1, stop_axis=-1)"


# --- Dropout -------------------------------------------------------------------------------------
def test_dropout_scales_in_training_and_is_the_identity_in_eval():
    layer = nn.Dropout(0.25)
    x = tensor(np.ones((200, 200), np.float32))
    out = layer(x).numpy()
    kept = out != 0
    assert abs(kept.mean() - 0.75) < 0.01
    np.testing.assert_allclose(out[kept], 1 / 0.75, rtol=1e-6)
    layer.eval()
    assert np.array_equal(layer(x).numpy(), x.numpy())


def test_dropout_downscale_in_infer_mode():
    layer = nn.Dropout(0.5, mode="downscale_in_infer")
    x = tensor(np.ones((100, 100), np.float32))
    assert set(np.unique(layer(x).numpy())) <= {0.0, 1.0}
    layer.eval()
    np.testing.assert_allclose(layer(x).numpy(), 0.5)


def test_dropout_gradient_uses_the_same_mask():
    layer = nn.Dropout(0.5)
    x = tensor(np.ones((50, 50), np.float32), stop_gradient=False)
    out = layer(x)
    out.backward(tensor(np.ones((50, 50), np.float32)))
    np.testing.assert_array_equal(x.grad.numpy(), out.numpy())


def test_dropout_is_reproducible_with_a_seed():
    x = tensor(np.ones((30, 30), np.float32))
    framework.seed(3)
    first = nn.Dropout(0.5)(x).numpy()
    framework.seed(3)
    assert np.array_equal(first, nn.Dropout(0.5)(x).numpy())


def test_dropout2d_drops_whole_channels():
    layer = nn.Dropout2D(0.5)
    out = layer(tensor(np.ones((8, 16, 3, 3), np.float32))).numpy()
    per_channel = out.reshape(8, 16, 9)
    assert np.all((per_channel == 0).all(-1) | (per_channel == 2.0).all(-1))
    assert 0.2 < (per_channel == 0).all(-1).mean() < 0.8
    layer.eval()
    assert np.array_equal(
        layer(tensor(np.ones((2, 3, 2, 2), np.float32))).numpy(), np.ones((2, 3, 2, 2))
    )


def test_dropout_reprs_and_validation():
    assert (
        repr(nn.Dropout(0.3)) == "Dropout(p=0.3, axis=None, mode=upscale_in_train, inplace=False)"
    )
    assert repr(nn.Dropout2D()) == "Dropout2D(p=0.5, data_format=NCHW)"
    with pytest.raises(ValueError, match="between 0 and 1"):
        nn.Dropout(1.5)
    with pytest.raises(ValueError, match="mode"):
        nn.Dropout(0.5, mode="scale")


# --- Embedding -----------------------------------------------------------------------------------
def test_embedding_looks_up_rows_and_accumulates_gradients():
    torch = pytest.importorskip("torch")
    emb = nn.Embedding(10, 4)
    assert emb.weight.shape == [10, 4]
    ids = np.array([[1, 3, 3], [0, 9, 1]])
    out = emb(tensor(ids))
    np.testing.assert_array_equal(out.numpy(), emb.weight.numpy()[ids])
    g = rng.standard_normal((2, 3, 4)).astype(np.float32)
    out.backward(tensor(g))
    reference = torch.nn.Embedding(10, 4)
    with torch.no_grad():
        reference.weight.copy_(torch.tensor(emb.weight.numpy()))
    reference(torch.tensor(ids)).backward(torch.tensor(g))
    np.testing.assert_allclose(emb.weight.grad.numpy(), reference.weight.grad.numpy(), rtol=1e-6)


def test_embedding_padding_row_starts_at_zero_and_gets_no_gradient():
    emb = nn.Embedding(6, 3, padding_idx=-1)
    np.testing.assert_array_equal(emb.weight.numpy()[5], np.zeros(3))
    out = emb(tensor(np.array([5, 2, 5])))
    out.backward(tensor(np.ones((3, 3), np.float32)))
    np.testing.assert_array_equal(emb.weight.grad.numpy()[5], np.zeros(3))
    np.testing.assert_array_equal(emb.weight.grad.numpy()[2], np.ones(3))
    assert repr(emb) == "Embedding(6, 3, padding_idx=-1, sparse=False, scale_grad_by_freq=False)"
    with pytest.raises(ValueError, match="padding_idx"):
        nn.Embedding(4, 2, padding_idx=4)


# --- Upsample and padding ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "layer, torch_kwargs",
    [
        (nn.Upsample(scale_factor=2), dict(scale_factor=2, mode="nearest")),
        (nn.Upsample(size=[5, 7]), dict(size=(5, 7), mode="nearest")),
        (nn.Upsample(scale_factor=2, mode="bilinear"), dict(scale_factor=2, mode="bilinear")),
        (
            nn.Upsample(size=[6, 5], mode="bilinear", align_corners=True),
            dict(size=(6, 5), mode="bilinear", align_corners=True),
        ),
        (
            nn.UpsamplingBilinear2D(scale_factor=2),
            dict(scale_factor=2, mode="bilinear", align_corners=True),
        ),
        (nn.UpsamplingNearest2D(size=[6, 8]), dict(size=(6, 8), mode="nearest")),
    ],
    ids=[
        "nearest_x2",
        "nearest_size",
        "bilinear_x2",
        "bilinear_corners",
        "bilinear2d",
        "nearest2d",
    ],
)
def test_upsample_matches_pytorch(layer, torch_kwargs):
    torch = pytest.importorskip("torch")
    x = rng.standard_normal((2, 3, 3, 4)).astype(np.float32)
    ours = tensor(x, stop_gradient=False)
    theirs = torch.tensor(x, requires_grad=True)
    out = layer(ours)
    expected = torch.nn.functional.interpolate(theirs, **torch_kwargs)
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-5, atol=1e-6)
    g = rng.standard_normal(out.shape).astype(np.float32)
    out.backward(tensor(g))
    expected.backward(torch.tensor(g))
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
def test_pad2d_matches_pytorch(mode):
    torch = pytest.importorskip("torch")
    x = rng.standard_normal((1, 2, 4, 5)).astype(np.float32)
    layer = nn.Pad2D([1, 2, 2, 1], mode=mode, value=0.5 if mode == "constant" else 0.0)
    expected = torch.nn.functional.pad(
        torch.tensor(x), (1, 2, 2, 1), mode=mode, value=0.5 if mode == "constant" else None
    )
    np.testing.assert_allclose(layer(tensor(x)).numpy(), expected.numpy())
    assert nn.Pad2D(1).padding == [1, 1, 1, 1]


def test_unflatten_is_the_inverse_of_flatten():
    x = tensor(rng.standard_normal((2, 12, 5)).astype(np.float32))
    layer = nn.Unflatten(1, [3, 4])
    assert layer(x).shape == [2, 3, 4, 5]
    assert nn.Unflatten(-1, [5, 1])(x).shape == [2, 12, 5, 1]
    np.testing.assert_array_equal(nn.Flatten(1, 2)(layer(x)).numpy(), x.numpy())
    assert repr(layer) == "Unflatten(axis=1, shape=[3, 4])"


def test_unfold_and_fold_match_pytorch():
    torch = pytest.importorskip("torch")
    x = rng.standard_normal((2, 3, 6, 5)).astype(np.float32)
    unfold = nn.Unfold([2, 3], paddings=1, strides=2)
    cols = unfold(tensor(x))
    expected = torch.nn.functional.unfold(torch.tensor(x), (2, 3), padding=1, stride=2)
    np.testing.assert_allclose(cols.numpy(), expected.numpy())
    fold = nn.Fold([6, 5], [2, 3], paddings=1, strides=2)
    np.testing.assert_allclose(
        fold(cols).numpy(),
        torch.nn.functional.fold(expected, (6, 5), (2, 3), padding=1, stride=2).numpy(),
        rtol=1e-6,
    )
    assert repr(unfold) == "Unfold(kernel_size=[2, 3], dilation=1, padding=1, stride=2)"


def test_dropout3d_and_alpha_dropout():
    layer = nn.Dropout3D(0.5)
    out = layer(tensor(np.ones((4, 8, 2, 2, 2), np.float32))).numpy().reshape(4, 8, -1)
    assert np.all((out == 0).all(-1) | (out == 2.0).all(-1))
    alpha = nn.AlphaDropout(0.2)
    x = tensor(rng.standard_normal((200, 200)).astype(np.float32))
    y = alpha(x).numpy()
    assert abs(y.mean()) < 0.05 and abs(y.std() - 1) < 0.05  # keeps mean 0 and variance 1
    alpha.eval()
    np.testing.assert_array_equal(alpha(x).numpy(), x.numpy())
    assert repr(alpha) == "AlphaDropout(p=0.2)"


def test_softmax2d_normalises_over_channels():
    x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    out = nn.Softmax2D()(tensor(x)).numpy()
    np.testing.assert_allclose(out.sum(1), 1.0, rtol=1e-6)
    with pytest.raises(ValueError, match="3-D or 4-D"):
        nn.Softmax2D()(tensor(x[0, 0]))


@pytest.mark.parametrize(
    "layer, text",
    [
        (nn.Linear(3, 2), "Linear(in_features=3, out_features=2)"),
        (nn.Conv2D(3, 2, 1), "Conv2D(3, 2, kernel_size=[1, 1])"),
        (nn.BatchNorm2D(3), "BatchNorm2D(num_features=3)"),
        (nn.LayerNorm(3), "LayerNorm(normalized_shape=[3], epsilon=1e-05)"),
        (nn.Embedding(4, 2), "Embedding(4, 2)"),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, nn.Layer) else "",
)
def test_layers_given_a_numpy_array_ask_for_a_tensor(layer, text):
    with pytest.raises(TypeError) as info:
        layer(np.zeros((2, 3, 4, 4), np.float32))
    assert str(info.value) == (
        f"{text} expects a Tensor input, got ndarray; wrap the data with framework.to_tensor(...)"
    )


def test_auto_cast_runs_losses_and_softmax_in_float32_and_lets_layers_mix_dtypes():
    from framework import amp

    fc = nn.Linear(4, 3)
    x16 = tensor(rng.standard_normal((2, 4)).astype(np.float16))
    with pytest.raises(TypeError, match="float16 input"):
        fc(x16)
    with amp.auto_cast(level="O1"):
        logits = tensor(rng.standard_normal((2, 3)).astype(np.float16))
        loss = nn.functional.cross_entropy(logits, tensor(np.array([0, 2])))
        assert loss.dtype == np.float32
        assert nn.functional.softmax(logits).dtype == np.float32
        assert nn.functional.mse_loss(logits, logits).dtype == np.float32
        assert nn.functional.relu(logits).dtype == np.float16
        fc(x16)  # no dtype error: the op decides the precision under auto_cast
