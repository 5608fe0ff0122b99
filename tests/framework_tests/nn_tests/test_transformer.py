"""MultiHeadAttention, TransformerEncoderLayer and TransformerEncoder: Paddle's parameter
names and masks, PyTorch parity of forward and gradients with copied weights, caches."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn

rng = np.random.default_rng(0)


def tensor(array, **kwargs):
    return framework.to_tensor(array, **kwargs)


def copy_attention(ours: nn.MultiHeadAttention, theirs) -> None:
    """Copy our q/k/v/out projections (weights [in, out]) into a torch MultiheadAttention."""
    import torch

    with torch.no_grad():
        weights = [ours.q_proj.weight, ours.k_proj.weight, ours.v_proj.weight]
        if theirs._qkv_same_embed_dim:
            theirs.in_proj_weight.copy_(
                torch.tensor(np.concatenate([w.numpy().T for w in weights]))
            )
        else:
            theirs.q_proj_weight.copy_(torch.tensor(weights[0].numpy().T))
            theirs.k_proj_weight.copy_(torch.tensor(weights[1].numpy().T))
            theirs.v_proj_weight.copy_(torch.tensor(weights[2].numpy().T))
        biases = [ours.q_proj.bias, ours.k_proj.bias, ours.v_proj.bias]
        theirs.in_proj_bias.copy_(torch.tensor(np.concatenate([b.numpy() for b in biases])))
        theirs.out_proj.weight.copy_(torch.tensor(ours.out_proj.weight.numpy().T))
        theirs.out_proj.bias.copy_(torch.tensor(ours.out_proj.bias.numpy()))


def copy_linear(ours, theirs) -> None:
    import torch

    with torch.no_grad():
        theirs.weight.copy_(torch.tensor(ours.weight.numpy().T))
        theirs.bias.copy_(torch.tensor(ours.bias.numpy()))


def copy_encoder_layer(ours: nn.TransformerEncoderLayer, theirs) -> None:
    import torch

    copy_attention(ours.self_attn, theirs.self_attn)
    copy_linear(ours.linear1, theirs.linear1)
    copy_linear(ours.linear2, theirs.linear2)
    with torch.no_grad():
        for a, b in ((ours.norm1, theirs.norm1), (ours.norm2, theirs.norm2)):
            b.weight.copy_(torch.tensor(a.weight.numpy()))
            b.bias.copy_(torch.tensor(a.bias.numpy()))


def randomize_biases(layer: nn.Layer) -> None:
    for name, param in layer.named_parameters():
        if name.endswith("bias"):
            param.set_value(rng.standard_normal(param.shape).astype(np.float32) * 0.1)


def test_multi_head_attention_has_paddle_parameter_names():
    attn = nn.MultiHeadAttention(16, 4, kdim=8, vdim=12)
    assert [name for name, _ in attn.named_parameters()] == [
        "q_proj.weight",
        "q_proj.bias",
        "k_proj.weight",
        "k_proj.bias",
        "v_proj.weight",
        "v_proj.bias",
        "out_proj.weight",
        "out_proj.bias",
    ]
    assert attn.k_proj.weight.shape == [8, 16] and attn.v_proj.weight.shape == [12, 16]
    with pytest.raises(ValueError, match="divisible"):
        nn.MultiHeadAttention(10, 4)


@pytest.mark.parametrize("cross", [False, True], ids=["self", "cross"])
def test_multi_head_attention_matches_pytorch(cross):
    torch = pytest.importorskip("torch")
    kdim = vdim = 6 if cross else None
    attn = nn.MultiHeadAttention(8, 2, kdim=kdim, vdim=vdim, need_weights=True)
    randomize_biases(attn)
    reference = torch.nn.MultiheadAttention(8, 2, batch_first=True, kdim=kdim, vdim=vdim)
    copy_attention(attn, reference)
    q = rng.standard_normal((2, 5, 8)).astype(np.float32)
    kv = rng.standard_normal((2, 4, 6 if cross else 8)).astype(np.float32)
    if not cross:
        kv = q
    ours = [tensor(a, stop_gradient=False) for a in (q, kv)]
    theirs = [torch.tensor(a, requires_grad=True) for a in (q, kv)]
    key = ours[1] if cross else ours[0]
    out, weights = attn(ours[0], key, key)
    tkey = theirs[1] if cross else theirs[0]
    expected, expected_weights = reference(
        theirs[0], tkey, tkey, need_weights=True, average_attn_weights=False
    )
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(
        weights.numpy(), expected_weights.detach().numpy(), rtol=1e-4, atol=1e-6
    )
    g = rng.standard_normal(out.shape).astype(np.float32)
    out.backward(tensor(g))
    expected.backward(torch.tensor(g))
    np.testing.assert_allclose(ours[0].grad.numpy(), theirs[0].grad.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(
        attn.q_proj.weight.grad.numpy(),
        reference.in_proj_weight.grad.numpy()[:8].T
        if not cross
        else reference.q_proj_weight.grad.numpy().T,
        rtol=1e-4,
        atol=1e-5,
    )
    np.testing.assert_allclose(
        attn.out_proj.weight.grad.numpy(),
        reference.out_proj.weight.grad.numpy().T,
        rtol=1e-4,
        atol=1e-5,
    )


def test_attention_masks_bool_int_and_float_agree():
    attn = nn.MultiHeadAttention(8, 2, need_weights=True)
    x = tensor(rng.standard_normal((1, 4, 8)).astype(np.float32))
    keep = np.tril(np.ones((4, 4), bool))
    _, by_bool = attn(x, attn_mask=tensor(keep))
    _, by_int = attn(x, attn_mask=tensor(keep.astype(np.int64)))
    _, by_float = attn(x, attn_mask=tensor(np.where(keep, 0.0, -1e9).astype(np.float32)))
    np.testing.assert_allclose(by_bool.numpy(), by_float.numpy(), atol=1e-7)
    np.testing.assert_allclose(by_int.numpy(), by_float.numpy(), atol=1e-7)
    assert np.all(by_bool.numpy()[..., ~keep] < 1e-6)
    np.testing.assert_allclose(by_bool.numpy().sum(-1), 1.0, rtol=1e-6)


def test_incremental_cache_matches_causal_attention():
    attn = nn.MultiHeadAttention(8, 2)
    attn.eval()
    x = rng.standard_normal((2, 3, 8)).astype(np.float32)
    causal = tensor(np.tril(np.ones((3, 3), bool)))
    full = attn(tensor(x), attn_mask=causal).numpy()
    cache = attn.gen_cache(tensor(x))
    assert cache.k.shape == [2, 2, 0, 4]
    steps = []
    for t in range(3):
        out, cache = attn(tensor(x[:, t : t + 1]), cache=cache)
        steps.append(out.numpy())
    np.testing.assert_allclose(np.concatenate(steps, axis=1), full, rtol=1e-5, atol=1e-6)
    static = attn.gen_cache(tensor(x), tensor(x), type=nn.MultiHeadAttention.StaticCache)
    out, same = attn(tensor(x), cache=static)
    assert same is static
    np.testing.assert_allclose(out.numpy(), attn(tensor(x)).numpy(), rtol=1e-6)


@pytest.mark.parametrize("normalize_before", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_encoder_layer_matches_pytorch(normalize_before, activation):
    torch = pytest.importorskip("torch")
    layer = nn.TransformerEncoderLayer(
        8, 2, 16, dropout=0.0, activation=activation, normalize_before=normalize_before
    )
    randomize_biases(layer)
    reference = torch.nn.TransformerEncoderLayer(
        8, 2, 16, dropout=0.0, activation=activation, batch_first=True, norm_first=normalize_before
    )
    copy_encoder_layer(layer, reference)
    x = rng.standard_normal((2, 5, 8)).astype(np.float32)
    mask = np.triu(np.ones((5, 5), bool), 1)  # torch: True = masked; Paddle: True = kept
    ours = tensor(x, stop_gradient=False)
    theirs = torch.tensor(x, requires_grad=True)
    out = layer(ours, src_mask=tensor(~mask))
    expected = reference(theirs, src_mask=torch.tensor(mask))
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-4, atol=1e-5)
    g = rng.standard_normal(out.shape).astype(np.float32)
    out.backward(tensor(g))
    expected.backward(torch.tensor(g))
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(
        layer.linear1.weight.grad.numpy(),
        reference.linear1.weight.grad.numpy().T,
        rtol=1e-3,
        atol=1e-4,
    )


def test_encoder_builds_fresh_layers_and_matches_pytorch():
    torch = pytest.importorskip("torch")
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)
    encoder = nn.TransformerEncoder(layer, num_layers=3, norm=nn.LayerNorm(8))
    assert encoder.layers[0] is layer
    assert encoder.layers[1] is not layer
    assert not np.array_equal(
        encoder.layers[1].linear1.weight.numpy(), layer.linear1.weight.numpy()
    )
    names = [name for name, _ in encoder.named_parameters()]
    assert names[0] == "layers.0.self_attn.q_proj.weight" and names[-1] == "norm.bias"
    assert len(encoder.parameters()) == 3 * 16 + 2
    reference_layer = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
    reference = torch.nn.TransformerEncoder(
        reference_layer, 3, norm=torch.nn.LayerNorm(8), enable_nested_tensor=False
    )
    for ours, theirs in zip(encoder.layers, reference.layers, strict=True):
        copy_encoder_layer(ours, theirs)
    x = rng.standard_normal((2, 4, 8)).astype(np.float32)
    np.testing.assert_allclose(
        encoder(tensor(x)).numpy(),
        reference(torch.tensor(x)).detach().numpy(),
        rtol=1e-4,
        atol=1e-5,
    )


def test_encoder_dropout_only_in_training_and_cache_path():
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.5), 2)
    x = tensor(rng.standard_normal((2, 3, 8)).astype(np.float32))
    assert not np.array_equal(encoder(x).numpy(), encoder(x).numpy())
    encoder.eval()
    np.testing.assert_array_equal(encoder(x).numpy(), encoder(x).numpy())
    out, caches = encoder(x, cache=encoder.gen_cache(x))
    assert len(caches) == 2 and caches[0].k.shape == [2, 2, 3, 4]
    np.testing.assert_allclose(out.numpy(), encoder(x).numpy(), rtol=1e-5)


def test_encoder_layer_validates_its_configuration():
    with pytest.raises(ValueError, match="unknown activation"):
        nn.TransformerEncoderLayer(8, 2, 16, activation="swishy")
    layer = nn.TransformerEncoderLayer(8, 2, 16, bias_attr=[None, False])
    assert layer.linear1.bias is None and layer.self_attn.q_proj.bias is not None
    with pytest.raises(ValueError, match=r"expects query of shape \[batch, length, 8\]"):
        layer.self_attn(tensor(np.zeros((2, 3, 4), np.float32)))


# --- scaled_dot_product_attention ---------------------------------------------------------------
@pytest.mark.parametrize(
    "options",
    [{}, {"is_causal": True}, {"mask": "bool"}, {"mask": "float"}, {"scale": 0.3}, {"gqa": True}],
    ids=["plain", "causal", "bool_mask", "float_mask", "scale", "grouped_query"],
)
def test_scaled_dot_product_attention_matches_pytorch(options):
    torch = pytest.importorskip("torch")
    import framework.nn.functional as F

    kv_heads = 2 if options.get("gqa") else 4
    q = rng.standard_normal((2, 5, 4, 8)).astype(np.float32)
    kv = [
        rng.standard_normal((2, 6 if not options.get("is_causal") else 5, kv_heads, 8)).astype(
            np.float32
        )
        for _ in range(2)
    ]
    mask = None
    if options.get("mask") == "bool":
        mask = rng.uniform(size=(2, 1, 5, 6)) > 0.3
        mask[..., 0] = True
    elif options.get("mask") == "float":
        mask = rng.standard_normal((5, 6)).astype(np.float32)
    ours = [tensor(a, stop_gradient=False) for a in (q, *kv)]
    theirs = [torch.tensor(a, requires_grad=True) for a in (q, *kv)]
    out = F.scaled_dot_product_attention(
        *ours,
        attn_mask=None if mask is None else tensor(mask),
        is_causal=options.get("is_causal", False),
        scale=options.get("scale"),
    )
    t = [a.transpose(1, 2) for a in theirs]
    expected = torch.nn.functional.scaled_dot_product_attention(
        *t,
        attn_mask=None if mask is None else torch.tensor(mask),
        is_causal=options.get("is_causal", False),
        scale=options.get("scale"),
        enable_gqa=bool(options.get("gqa")),
    ).transpose(1, 2)
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-4, atol=1e-5)
    g = rng.standard_normal(out.shape).astype(np.float32)
    out.backward(tensor(g))
    expected.backward(torch.tensor(g))
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_scaled_dot_product_attention_gradients_in_float64():
    from framework.nn.functional import scaled_dot_product_attention
    from framework.testing import check_backward, check_double_backward

    q, k, v = (rng.standard_normal((1, 3, 2, 2)) for _ in range(3))
    check_backward(lambda a, b, c: scaled_dot_product_attention(a, b, c, is_causal=True), [q, k, v])
    check_double_backward(lambda a, b, c: scaled_dot_product_attention(a, b, c), [q, k, v])
