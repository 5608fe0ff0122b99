"""Normalization layers: Paddle's parameters and running statistics, train/eval behaviour,
PyTorch parity of forward and gradients, error messages."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn

rng = np.random.default_rng(0)


def tensor(array, **kwargs):
    return framework.to_tensor(array, **kwargs)


def test_batch_norm_has_paddle_parameters_and_state():
    bn = nn.BatchNorm2D(4)
    assert [name for name, _ in bn.named_parameters()] == ["weight", "bias", "_mean", "_variance"]
    assert list(bn.state_dict()) == ["weight", "bias", "_mean", "_variance"]
    assert bn._mean.stop_gradient and bn._variance.stop_gradient and not bn.weight.stop_gradient
    np.testing.assert_array_equal(bn.weight.numpy(), np.ones(4))
    np.testing.assert_array_equal(bn._variance.numpy(), np.ones(4))
    assert repr(bn) == "BatchNorm2D(num_features=4, momentum=0.9, epsilon=1e-05)"
    no_affine = nn.BatchNorm2D(4, weight_attr=False, bias_attr=False)
    assert no_affine.weight is None and no_affine.bias is None


def test_batch_norm_training_normalises_and_updates_running_stats_as_paddle():
    bn = nn.BatchNorm2D(3, momentum=0.8)
    x = rng.standard_normal((4, 3, 5, 5)).astype(np.float32) * 2 + 1
    out = bn(tensor(x)).numpy()
    mean = x.mean((0, 2, 3))
    var = x.var((0, 2, 3))  # Paddle's running variance uses the biased batch variance
    expected = (x - mean[None, :, None, None]) / np.sqrt(var[None, :, None, None] + 1e-5)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(bn._mean.numpy(), 0.2 * mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bn._variance.numpy(), 0.8 + 0.2 * var, rtol=1e-5)


def test_batch_norm_eval_uses_running_stats():
    bn = nn.BatchNorm2D(2)
    bn._mean.set_value(np.array([1.0, -1.0], np.float32))
    bn._variance.set_value(np.array([4.0, 0.25], np.float32))
    bn.eval()
    x = rng.standard_normal((3, 2, 2, 2)).astype(np.float32)
    expected = (x - np.array([1.0, -1.0])[None, :, None, None]) / np.sqrt(
        np.array([4.0, 0.25])[None, :, None, None] + 1e-5
    )
    np.testing.assert_allclose(bn(tensor(x)).numpy(), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(bn._mean.numpy(), [1.0, -1.0])


@pytest.mark.parametrize(
    "build, build_torch, shape",
    [
        (lambda: nn.BatchNorm2D(3), lambda t: t.nn.BatchNorm2d(3), (4, 3, 5, 5)),
        (lambda: nn.BatchNorm1D(3), lambda t: t.nn.BatchNorm1d(3), (6, 3)),
        (lambda: nn.BatchNorm1D(3), lambda t: t.nn.BatchNorm1d(3), (4, 3, 7)),
        (lambda: nn.BatchNorm(3), lambda t: t.nn.BatchNorm2d(3), (4, 3, 2, 3)),
        (lambda: nn.LayerNorm(6), lambda t: t.nn.LayerNorm(6), (2, 3, 6)),
        (lambda: nn.LayerNorm([3, 6]), lambda t: t.nn.LayerNorm([3, 6]), (2, 3, 6)),
        (lambda: nn.GroupNorm(2, 4), lambda t: t.nn.GroupNorm(2, 4), (3, 4, 3, 3)),
        (
            lambda: nn.InstanceNorm2D(3),
            lambda t: t.nn.InstanceNorm2d(3, affine=True),
            (2, 3, 4, 4),
        ),
        (
            lambda: nn.InstanceNorm1D(3),
            lambda t: t.nn.InstanceNorm1d(3, affine=True),
            (2, 3, 6),
        ),
    ],
    ids=["bn2d", "bn1d_2d", "bn1d_3d", "batchnorm", "ln", "ln_2d", "gn", "in2d", "in1d"],
)
def test_norm_layers_match_pytorch_in_training(build, build_torch, shape):
    torch = pytest.importorskip("torch")
    layer, reference = build(), build_torch(torch)
    weight = (
        layer.scale if isinstance(layer, nn.InstanceNorm2D | nn.InstanceNorm1D) else layer.weight
    )
    affine = rng.uniform(0.5, 1.5, weight.shape).astype(np.float32)
    shift = rng.standard_normal(weight.shape).astype(np.float32)
    weight.set_value(affine)
    layer.bias.set_value(shift)
    with torch.no_grad():
        reference.weight.copy_(torch.tensor(affine))
        reference.bias.copy_(torch.tensor(shift))
    x = rng.standard_normal(shape).astype(np.float32)
    ours = tensor(x, stop_gradient=False)
    theirs = torch.tensor(x, requires_grad=True)
    out, expected = layer(ours), reference(theirs)
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-4, atol=1e-5)
    g = rng.standard_normal(shape).astype(np.float32)
    out.backward(tensor(g))
    expected.backward(torch.tensor(g))
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(
        weight.grad.numpy(), reference.weight.grad.numpy(), rtol=1e-4, atol=1e-4
    )
    np.testing.assert_allclose(
        layer.bias.grad.numpy(), reference.bias.grad.numpy(), rtol=1e-4, atol=1e-4
    )
    if hasattr(layer, "_mean"):
        np.testing.assert_allclose(
            layer._mean.numpy(), reference.running_mean.numpy(), rtol=1e-5, atol=1e-6
        )


def test_batch_norm_with_act_and_is_test():
    bn = nn.BatchNorm(2, act="relu", is_test=True)
    assert not bn.training
    x = rng.standard_normal((2, 2, 3, 3)).astype(np.float32)
    np.testing.assert_allclose(
        bn(tensor(x)).numpy(), np.maximum(x / np.sqrt(1 + 1e-5), 0), rtol=1e-5
    )


def test_layer_norm_and_group_norm_parameters():
    ln = nn.LayerNorm([3, 4])
    assert ln.weight.shape == [3, 4] and ln.bias.shape == [3, 4]
    assert repr(ln) == "LayerNorm(normalized_shape=[3, 4], epsilon=1e-05)"
    assert nn.LayerNorm(4, elementwise_affine=False).parameters() == []
    assert nn.LayerNorm(4, bias=False).bias is None
    gn = nn.GroupNorm(2, 6)
    assert gn.weight.shape == [6]
    assert repr(gn) == "GroupNorm(num_groups=2, num_channels=6, epsilon=1e-05)"
    frozen = nn.GroupNorm(2, 6, weight_attr=False)
    assert frozen.weight.stop_gradient and not frozen.bias.stop_gradient
    inorm = nn.InstanceNorm2D(3)
    assert [name for name, _ in inorm.named_parameters()] == ["scale", "bias"]
    assert nn.InstanceNorm2D(3, weight_attr=False, bias_attr=False).parameters() == []


def test_norm_errors_name_the_layer_and_the_shape():
    with pytest.raises(ValueError) as info:
        nn.BatchNorm2D(16)(tensor(np.zeros((2, 8, 4, 4), np.float32)))
    assert str(info.value) == (
        "BatchNorm2D(num_features=16) expects 16 input channels, got input of shape "
        "[2, 8, 4, 4] with 8 channels (data_format=NCHW)"
    )
    with pytest.raises(
        ValueError, match=r"expects a 4-D input \(NCHW\), got input of shape \[2, 16\]"
    ):
        nn.BatchNorm2D(16)(tensor(np.zeros((2, 16), np.float32)))
    with pytest.raises(TypeError, match="has float32 weights but got a float64 input"):
        nn.BatchNorm2D(2)(tensor(np.zeros((2, 2, 2, 2))))
    with pytest.raises(
        ValueError,
        match=r"expects the input to end with \[8\], got input of shape paddle\.Size\(\[2, 4\]\)",
    ):
        nn.LayerNorm(8)(tensor(np.zeros((2, 4), np.float32)))
    with pytest.raises(ValueError, match="expects 6 channels"):
        nn.GroupNorm(2, 6)(tensor(np.zeros((2, 4, 3, 3), np.float32)))
    with pytest.raises(ValueError, match="divisible"):
        nn.GroupNorm(4, 6)


def test_batch_norm_state_dict_round_trip_carries_running_stats():
    source = nn.BatchNorm2D(3)
    source(tensor(rng.standard_normal((4, 3, 2, 2)).astype(np.float32)))
    target = nn.BatchNorm2D(3)
    missing, unexpected = target.set_state_dict(source.state_dict())
    assert missing == [] and unexpected == []
    np.testing.assert_array_equal(target._mean.numpy(), source._mean.numpy())
    np.testing.assert_array_equal(target._variance.numpy(), source._variance.numpy())
