"""TransformerDecoderLayer, TransformerDecoder and Transformer: PyTorch parity with copied
weights, incremental decoding with caches, Paddle's attr splitting and masks."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn

rng = np.random.default_rng(0)


def tensor(array, **kwargs):
    return framework.to_tensor(array, **kwargs)


def copy_decoder_layer(ours: nn.TransformerDecoderLayer, theirs) -> None:
    import torch

    from tests.framework_tests.nn_tests.test_transformer import copy_attention, copy_linear

    copy_attention(ours.self_attn, theirs.self_attn)
    copy_attention(ours.cross_attn, theirs.multihead_attn)
    copy_linear(ours.linear1, theirs.linear1)
    copy_linear(ours.linear2, theirs.linear2)
    with torch.no_grad():
        for a, b in zip(
            (ours.norm1, ours.norm2, ours.norm3),
            (theirs.norm1, theirs.norm2, theirs.norm3),
            strict=True,
        ):
            b.weight.copy_(torch.tensor(a.weight.numpy()))
            b.bias.copy_(torch.tensor(a.bias.numpy()))


@pytest.mark.parametrize("normalize_before", [False, True])
def test_decoder_layer_matches_pytorch(normalize_before):
    torch = pytest.importorskip("torch")
    layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, normalize_before=normalize_before)
    reference = torch.nn.TransformerDecoderLayer(
        8, 2, 16, dropout=0.0, batch_first=True, norm_first=normalize_before
    )
    copy_decoder_layer(layer, reference)
    tgt = rng.standard_normal((2, 4, 8)).astype(np.float32)
    memory = rng.standard_normal((2, 6, 8)).astype(np.float32)
    causal = np.triu(np.ones((4, 4), bool), 1)
    ours = [tensor(a, stop_gradient=False) for a in (tgt, memory)]
    theirs = [torch.tensor(a, requires_grad=True) for a in (tgt, memory)]
    out = layer(ours[0], ours[1], tgt_mask=tensor(~causal))
    expected = reference(theirs[0], theirs[1], tgt_mask=torch.tensor(causal))
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-4, atol=1e-5)
    g = rng.standard_normal(out.shape).astype(np.float32)
    out.backward(tensor(g))
    expected.backward(torch.tensor(g))
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-3, atol=1e-4)


def test_transformer_matches_pytorch_and_builds_paddle_names():
    torch = pytest.importorskip("torch")
    from tests.framework_tests.nn_tests.test_transformer import copy_encoder_layer

    model = nn.Transformer(8, 2, 2, 2, 16, dropout=0.0)
    names = [name for name, _ in model.named_parameters()]
    assert names[0] == "encoder.layers.0.self_attn.q_proj.weight"
    assert "decoder.layers.1.cross_attn.out_proj.bias" in names and names[-1] == "decoder.norm.bias"
    reference = torch.nn.Transformer(8, 2, 2, 2, 16, dropout=0.0, batch_first=True)
    for ours, theirs in zip(model.encoder.layers, reference.encoder.layers, strict=True):
        copy_encoder_layer(ours, theirs)
    for ours, theirs in zip(model.decoder.layers, reference.decoder.layers, strict=True):
        copy_decoder_layer(ours, theirs)
    src = rng.standard_normal((2, 5, 8)).astype(np.float32)
    tgt = rng.standard_normal((2, 3, 8)).astype(np.float32)
    mask = model.generate_square_subsequent_mask(3)
    np.testing.assert_array_equal(mask.numpy(), np.triu(np.full((3, 3), -np.inf), 1) + 0.0)
    out = model(tensor(src), tensor(tgt), tgt_mask=mask)
    expected = reference(torch.tensor(src), torch.tensor(tgt), tgt_mask=torch.tensor(mask.numpy()))
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-4, atol=1e-5)


def test_incremental_decoding_with_caches_matches_the_full_pass():
    decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0), 2)
    decoder.eval()
    tgt = rng.standard_normal((1, 4, 8)).astype(np.float32)
    memory = tensor(rng.standard_normal((1, 5, 8)).astype(np.float32))
    causal = tensor(np.tril(np.ones((4, 4), bool)))
    full = decoder(tensor(tgt), memory, tgt_mask=causal).numpy()
    cache = decoder.gen_cache(memory)
    assert len(cache) == 2 and isinstance(cache[0][1], nn.MultiHeadAttention.StaticCache)
    steps = []
    for t in range(4):
        out, cache = decoder(tensor(tgt[:, t : t + 1]), memory, cache=cache)
        steps.append(out.numpy())
    np.testing.assert_allclose(np.concatenate(steps, axis=1), full, rtol=1e-5, atol=1e-6)
    assert len(decoder.gen_cache(memory, do_zip=True)) == 2


def test_transformer_spreads_attr_lists_like_paddle():
    model = nn.Transformer(8, 2, 1, 1, 16, bias_attr=[None, False])
    encoder_layer, decoder_layer = model.encoder.layers[0], model.decoder.layers[0]
    assert encoder_layer.self_attn.q_proj.bias is not None and encoder_layer.linear1.bias is None
    assert decoder_layer.cross_attn.q_proj.bias is not None and decoder_layer.linear2.bias is None
    with pytest.raises(ValueError, match="length of weight_attr"):
        nn.Transformer(8, 2, 1, 1, 16, weight_attr=[None] * 4)
