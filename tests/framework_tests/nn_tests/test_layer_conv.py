"""Convolution layers: Paddle's parameter shapes and default init, PyTorch parity of forward
and gradients with copied weights, padding modes, groups, error messages, reprs."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn

rng = np.random.default_rng(0)


def to_torch_conv(layer, torch):
    """A torch conv layer with the same configuration and weights as `layer`."""
    transposed = isinstance(layer, nn.Conv2DTranspose | nn.Conv1DTranspose)
    dims = layer._dims
    cls = {
        (1, False): torch.nn.Conv1d,
        (2, False): torch.nn.Conv2d,
        (1, True): torch.nn.ConvTranspose1d,
        (2, True): torch.nn.ConvTranspose2d,
    }[(dims, transposed)]
    kwargs = dict(
        stride=layer._stride,
        dilation=layer._dilation,
        groups=layer._groups,
        bias=layer.bias is not None,
    )
    if transposed:
        kwargs["padding"] = layer._padding
        kwargs["output_padding"] = layer.output_padding
    else:
        kwargs["padding"] = layer._padding
        kwargs["padding_mode"] = layer._padding_mode
    reference = cls(layer._in_channels, layer._out_channels, layer._kernel_size, **kwargs)
    with torch.no_grad():
        reference.weight.copy_(torch.tensor(layer.weight.numpy()))
        if layer.bias is not None:
            reference.bias.copy_(torch.tensor(layer.bias.numpy()))
    return reference


CONFIGS = [
    ("conv2d", lambda: nn.Conv2D(3, 4, 3), (2, 3, 7, 6)),
    ("conv2d_stride_pad", lambda: nn.Conv2D(3, 6, (3, 2), stride=2, padding=1), (2, 3, 8, 7)),
    ("conv2d_same", lambda: nn.Conv2D(2, 4, 3, padding="same"), (1, 2, 5, 5)),
    ("conv2d_dilation_groups", lambda: nn.Conv2D(4, 6, 3, dilation=2, groups=2), (2, 4, 9, 9)),
    ("conv2d_depthwise", lambda: nn.Conv2D(4, 4, 3, padding=1, groups=4), (2, 4, 6, 6)),
    ("conv2d_no_bias", lambda: nn.Conv2D(3, 4, 1, bias_attr=False), (2, 3, 4, 4)),
    ("conv2d_reflect", lambda: nn.Conv2D(2, 3, 3, padding=1, padding_mode="reflect"), (1, 2, 5, 6)),
    (
        "conv2d_circular",
        lambda: nn.Conv2D(2, 3, 3, padding=1, padding_mode="circular"),
        (1, 2, 5, 6),
    ),
    (
        "conv2d_replicate",
        lambda: nn.Conv2D(2, 3, 3, padding=2, padding_mode="replicate"),
        (1, 2, 5, 6),
    ),
    ("conv1d", lambda: nn.Conv1D(3, 5, 3, stride=2, padding=1), (2, 3, 11)),
    ("conv2d_transpose", lambda: nn.Conv2DTranspose(4, 3, 3, stride=2, padding=1), (2, 4, 5, 5)),
    (
        "conv2d_transpose_output_padding_groups",
        lambda: nn.Conv2DTranspose(4, 6, 2, stride=2, output_padding=1, groups=2),
        (1, 4, 3, 4),
    ),
    ("conv1d_transpose", lambda: nn.Conv1DTranspose(3, 2, 4, stride=2), (2, 3, 6)),
]


@pytest.mark.parametrize("name, build, shape", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_conv_layers_match_pytorch(name, build, shape):
    torch = pytest.importorskip("torch")
    layer = build()
    reference = to_torch_conv(layer, torch)
    x = rng.standard_normal(shape).astype(np.float32)
    ours = framework.to_tensor(x, stop_gradient=False)
    out = layer(ours)
    theirs = torch.tensor(x, requires_grad=True)
    expected = reference(theirs)
    assert out.shape == list(expected.shape)
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-4, atol=1e-5)
    g = rng.standard_normal(out.shape).astype(np.float32)
    out.backward(framework.to_tensor(g))
    expected.backward(torch.tensor(g))
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(
        layer.weight.grad.numpy(), reference.weight.grad.numpy(), rtol=1e-4, atol=1e-4
    )
    if layer.bias is not None:
        np.testing.assert_allclose(
            layer.bias.grad.numpy(), reference.bias.grad.numpy(), rtol=1e-4, atol=1e-4
        )


def test_conv_parameters_have_paddle_shapes_and_default_init():
    conv = nn.Conv2D(16, 32, 3, groups=2)
    assert conv.weight.shape == [32, 8, 3, 3] and conv.bias.shape == [32]
    std = np.sqrt(2.0 / (16 * 9))  # Paddle uses in_channels, not in_channels / groups
    assert abs(conv.weight.numpy().std() / std - 1) < 0.08
    np.testing.assert_array_equal(conv.bias.numpy(), np.zeros(32))
    transposed = nn.Conv2DTranspose(16, 8, 3, groups=4)
    assert transposed.weight.shape == [16, 2, 3, 3]
    limit = np.sqrt(6.0 / (2 * 9 + 16 * 9))  # XavierUniform with fans from [16, 2, 3, 3]
    assert np.abs(transposed.weight.numpy()).max() <= limit
    assert nn.Conv1D(3, 4, 5).weight.shape == [4, 3, 5]
    assert nn.Conv2D(3, 4, 3, bias=False).bias is None
    assert len(nn.Conv2D(3, 4, 3).parameters()) == 2


def test_conv_transpose_output_size_picks_the_extra_row():
    layer = nn.Conv2DTranspose(2, 2, 3, stride=2, padding=1)
    x = framework.to_tensor(rng.standard_normal((1, 2, 4, 4)).astype(np.float32))
    assert layer(x).shape == [1, 2, 7, 7]
    assert layer(x, output_size=[8, 8]).shape == [1, 2, 8, 8]


def test_conv_channels_last():
    torch = pytest.importorskip("torch")
    layer = nn.Conv2D(3, 4, 3, padding=1, data_format="NHWC")
    x = rng.standard_normal((2, 5, 6, 3)).astype(np.float32)
    out = layer(framework.to_tensor(x))
    expected = to_torch_conv(layer, torch)(torch.tensor(x).permute(0, 3, 1, 2)).permute(0, 2, 3, 1)
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-4, atol=1e-5)


def test_conv_errors_name_the_layer_and_the_shapes():
    conv = nn.Conv2D(3, 8, 3)
    with pytest.raises(ValueError) as info:
        conv(framework.to_tensor(np.zeros((2, 4, 8, 8), np.float32)))
    assert str(info.value) == (
        "Conv2D(3, 8, kernel_size=[3, 3]) expects 3 input channels, got input of shape "
        "[2, 4, 8, 8] with 4 channels (data_format=NCHW)"
    )
    with pytest.raises(
        ValueError, match=r"expects a 4-D input \(NCHW\), got input of shape \[3, 8, 8\]"
    ):
        conv(framework.to_tensor(np.zeros((3, 8, 8), np.float32)))
    with pytest.raises(TypeError, match="has float32 weights but got a float64 input"):
        conv(framework.to_tensor(np.zeros((1, 3, 8, 8))))


def test_conv_rejects_bad_configuration():
    with pytest.raises(ValueError, match="padding_mode"):
        nn.Conv2D(3, 4, 3, padding_mode="mirror")
    with pytest.raises(TypeError, match="type of padding must be int"):
        nn.Conv2D(3, 4, 3, padding=[1, 1], padding_mode="reflect")
    with pytest.raises(ValueError, match="groups=2 must divide in_channels=3"):
        nn.Conv2D(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match="data_format"):
        nn.Conv2D(3, 4, 3, data_format="NCL")
    with pytest.raises(ValueError, match="weight_attr should not be False"):
        nn.Conv2D(3, 4, 3, weight_attr=False)


def test_conv_reprs_follow_paddle():
    assert repr(nn.Conv2D(3, 8, 3)) == "Conv2D(3, 8, kernel_size=[3, 3], data_format=NCHW)"
    assert repr(nn.Conv2D(3, 8, 3, stride=2, padding=1, groups=1, dilation=2)) == (
        "Conv2D(3, 8, kernel_size=[3, 3], stride=[2, 2], padding=1, dilation=[2, 2], "
        "data_format=NCHW)"
    )
    assert repr(nn.Conv2DTranspose(4, 2, 2, stride=2, output_padding=1)) == (
        "Conv2DTranspose(4, 2, kernel_size=[2, 2], stride=[2, 2], output_padding=1, "
        "data_format=NCHW)"
    )
    assert repr(nn.Conv1D(3, 8, 3, padding=1, padding_mode="reflect")) == (
        "Conv1D(3, 8, kernel_size=[3], padding=1, padding_mode=reflect, data_format=NCL)"
    )


def test_conv_state_dict_round_trip():
    source, target = nn.Conv2D(3, 4, 3), nn.Conv2D(3, 4, 3)
    target.set_state_dict(source.state_dict())
    x = framework.to_tensor(rng.standard_normal((1, 3, 5, 5)).astype(np.float32))
    np.testing.assert_array_equal(source(x).numpy(), target(x).numpy())
    with pytest.raises(ValueError, match=r"'weight': the checkpoint has shape \[4, 3, 3, 3\]"):
        nn.Conv2D(3, 4, 5).set_state_dict(source.state_dict())


def test_parameter_counts_match_pytorch_twins():
    torch = pytest.importorskip("torch")
    ours = nn.Sequential(
        nn.Conv2D(3, 16, 3, padding=1),
        nn.BatchNorm2D(16),
        nn.ReLU(),
        nn.Conv2D(16, 16, 3, groups=16, bias_attr=False),
        nn.Conv2DTranspose(16, 8, 2, stride=2),
        nn.AdaptiveAvgPool2D(1),
        nn.Flatten(),
        nn.Linear(8, 10),
    )
    theirs = torch.nn.Sequential(
        torch.nn.Conv2d(3, 16, 3, padding=1),
        torch.nn.BatchNorm2d(16),
        torch.nn.ReLU(),
        torch.nn.Conv2d(16, 16, 3, groups=16, bias=False),
        torch.nn.ConvTranspose2d(16, 8, 2, stride=2),
        torch.nn.AdaptiveAvgPool2d(1),
        torch.nn.Flatten(),
        torch.nn.Linear(8, 10),
    )
    trainable = sum(p.size for p in ours.parameters() if not p.stop_gradient)
    assert trainable == sum(p.numel() for p in theirs.parameters())
    # Paddle counts BatchNorm's running statistics as (non-trainable) parameters.
    assert sum(p.size for p in ours.parameters()) == trainable + 2 * 16
    assert len(ours.state_dict()) == len(theirs.state_dict()) - 1  # no num_batches_tracked
