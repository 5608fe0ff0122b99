"""`convert_model`: torch modules rebuilt as framework layers with equal outputs."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.interop import torch as bridge
from framework.interop.torch_convert import ConversionError, UnsupportedModuleError

torch = pytest.importorskip("torch")
tv = pytest.importorskip("tests.framework_tests.interop_tests.torchvision_models")
tnn = torch.nn
F = torch.nn.functional


def outputs(torch_module: torch.nn.Module, layer: framework.nn.Layer, x: np.ndarray):
    torch_module.eval()
    layer.eval()
    with torch.no_grad():
        expected = torch_module(torch.from_numpy(x))
    with framework.no_grad():
        got = layer(framework.to_tensor(x))
    return expected, got


def assert_same_outputs(torch_module, layer, x: np.ndarray) -> None:
    expected, got = outputs(torch_module, layer, x)
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
    for want, have in zip(expected if isinstance(expected, tuple) else [expected],
                          got if isinstance(got, tuple) else [got], strict=True):  # fmt: skip
        want = want.numpy()
        scale = max(1.0, float(np.abs(want).max()))
        np.testing.assert_allclose(have.numpy(), want, rtol=1e-4, atol=1e-5 * scale)


@pytest.mark.parametrize(
    "builder", [tv.resnet18, tv.mobilenet_v2], ids=["resnet18", "mobilenet_v2"]
)
def test_torchvision_models_convert_with_equal_outputs(builder):
    torch.manual_seed(0)
    model = tv.randomize_norms(builder())
    layer = bridge.convert_model(model, input_shape=[1, 3, 32, 32])
    x = np.random.default_rng(5).standard_normal((2, 3, 40, 40)).astype("float32")
    assert_same_outputs(model, layer, x)
    renames = {"running_mean": "_mean", "running_var": "_variance"}
    expected_keys = [
        ".".join(renames.get(part, part) for part in key.split("."))
        for key in model.state_dict()
        if not key.endswith("num_batches_tracked")
    ]
    assert list(layer.state_dict()) == expected_keys
    assert not layer.training  # the torch module was in eval mode


def bn(kind: type, n: int) -> torch.nn.Module:
    return tv.randomize_norms(kind(n))


LAYERS = {
    "linear": (lambda: tnn.Linear(6, 5), [3, 6]),
    "linear-no-bias-3d": (lambda: tnn.Linear(6, 5, bias=False), [2, 3, 6]),
    "conv1d": (lambda: tnn.Conv1d(3, 4, 3, stride=2, padding=1), [2, 3, 9]),
    "conv2d": (lambda: tnn.Conv2d(3, 4, 3, stride=2, padding=1), [2, 3, 9, 9]),
    "conv2d-groups-dilation": (
        lambda: tnn.Conv2d(4, 8, 3, padding=2, dilation=2, groups=2),
        [1, 4, 8, 8],
    ),
    "conv2d-same-reflect": (
        lambda: tnn.Conv2d(3, 2, 3, padding="same", padding_mode="reflect"),
        [1, 3, 7, 7],
    ),
    "conv2d-rect": (
        lambda: tnn.Conv2d(2, 3, (1, 3), stride=(2, 1), padding=(0, 1), bias=False),
        [1, 2, 6, 6],
    ),
    "conv-transpose2d": (
        lambda: tnn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1),
        [1, 4, 5, 5],
    ),
    "batchnorm1d": (lambda: bn(tnn.BatchNorm1d, 6), [4, 6]),
    "batchnorm2d": (lambda: bn(tnn.BatchNorm2d, 3), [2, 3, 4, 4]),
    "layernorm": (lambda: tnn.LayerNorm([4, 5]), [2, 3, 4, 5]),
    "groupnorm": (lambda: tnn.GroupNorm(2, 4), [2, 4, 3, 3]),
    "relu": (tnn.ReLU, [2, 7]),
    "relu6": (tnn.ReLU6, [2, 7]),
    "leaky_relu": (lambda: tnn.LeakyReLU(0.2), [2, 7]),
    "gelu": (tnn.GELU, [2, 7]),
    "gelu-tanh": (lambda: tnn.GELU(approximate="tanh"), [2, 7]),
    "silu": (tnn.SiLU, [2, 7]),
    "hardswish": (tnn.Hardswish, [2, 7]),
    "hardsigmoid": (tnn.Hardsigmoid, [2, 7]),
    "sigmoid": (tnn.Sigmoid, [2, 7]),
    "tanh": (tnn.Tanh, [2, 7]),
    "softmax": (lambda: tnn.Softmax(dim=1), [2, 7, 3]),
    "maxpool2d": (lambda: tnn.MaxPool2d(3, 2, 1), [1, 2, 9, 9]),
    "maxpool2d-ceil": (lambda: tnn.MaxPool2d(2, ceil_mode=True), [1, 2, 7, 7]),
    "avgpool2d": (lambda: tnn.AvgPool2d(3, 2, 1, count_include_pad=False), [1, 2, 9, 9]),
    "avgpool2d-pad": (lambda: tnn.AvgPool2d(3, 2, 1), [1, 2, 9, 9]),
    "adaptive-avgpool2d": (lambda: tnn.AdaptiveAvgPool2d((2, 3)), [1, 2, 8, 9]),
    "dropout": (lambda: tnn.Dropout(0.3), [4, 5]),
    "flatten": (lambda: tnn.Flatten(1, 2), [2, 3, 4, 5]),
    "identity": (tnn.Identity, [2, 3]),
    "upsample-nearest": (lambda: tnn.Upsample(scale_factor=2), [1, 2, 3, 5]),
    "upsample-bilinear": (lambda: tnn.Upsample(size=(7, 4), mode="bilinear"), [1, 2, 3, 5]),
    "upsample-bilinear-corners": (
        lambda: tnn.Upsample(scale_factor=1.5, mode="bilinear", align_corners=True),
        [1, 2, 4, 6],
    ),
    "upsample-bicubic": (lambda: tnn.Upsample(scale_factor=2, mode="bicubic"), [1, 2, 3, 4]),
}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_each_supported_layer_converts_with_equal_outputs(name: str):
    torch.manual_seed(0)
    build, shape = LAYERS[name]
    module = tnn.Sequential(build())
    layer = bridge.convert_model(module, input_shape=shape)
    x = np.random.default_rng(2).standard_normal(shape).astype("float32")
    assert_same_outputs(module, layer, x)


class Pyramid(tnn.Module):
    """An FPN-style top-down merge: functional interpolate, split and torch.split."""

    def __init__(self) -> None:
        super().__init__()
        self.down = tnn.Conv2d(4, 4, 3, stride=2, padding=1)

    def forward(self, x):
        low = self.down(x)
        up = F.interpolate(low, scale_factor=2.0, mode="nearest")
        smooth = F.interpolate(low, size=x.shape[-2:], mode="bilinear", align_corners=False)
        a, b = torch.split(x + up + smooth, 3, dim=1)  # pieces of 3 and 1 channels
        c, d = (x * 2).split([1, 3], dim=1)
        return a.sum(1) + b.sum(1) + c.sum(1) - d.sum(1)


def test_interpolate_and_split_calls_convert():
    torch.manual_seed(0)
    module = Pyramid().eval()
    layer = bridge.convert_model(module, input_shape=[2, 4, 8, 6])
    x = np.random.default_rng(4).standard_normal((2, 4, 8, 6)).astype("float32")
    assert_same_outputs(module, layer, x)


def test_embedding_converts_with_integer_inputs():
    torch.manual_seed(0)
    module = tnn.Sequential(tnn.Embedding(10, 4, padding_idx=0), tnn.Flatten())
    layer = bridge.convert_model(module, input_shape=[3, 5], input_dtype="int64")
    ids = np.array([[0, 1, 2, 9, 4]], dtype="int64")
    np.testing.assert_allclose(
        layer(framework.to_tensor(ids)).numpy(),
        module(torch.from_numpy(ids)).detach().numpy(),
        rtol=1e-6,
    )


class Custom(tnn.Module):
    """A forward using functions, Tensor methods, own parameters and containers."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = tnn.Conv2d(3, 4, 3, padding=1)
        self.branches = tnn.ModuleList([tnn.Conv2d(4, 2, 1), tnn.Conv2d(4, 2, 1)])
        self.heads = tnn.ModuleDict({"a": tnn.Linear(4, 3), "b": tnn.Linear(4, 3)})
        self.scale = tnn.Parameter(torch.linspace(0.5, 1.5, 3))
        self.register_buffer("shift", torch.tensor([0.1, -0.2, 0.3]))

    def forward(self, x: torch.Tensor):
        x = F.relu(self.stem(x))
        parts = [branch(x) for branch in self.branches]
        x = torch.cat(parts, dim=1)
        n = x.size(0)
        pooled = x.mean(dim=(2, 3))
        flat = x.view(n, -1)
        left, right = torch.chunk(flat, 2, dim=1)
        mixed = torch.add(left, right, alpha=0.5).reshape(n, 2, -1).permute(0, 2, 1).contiguous()
        a = self.heads["a"](pooled) * self.scale + self.shift
        b = F.linear(pooled, self.heads["b"].weight, self.heads["b"].bias)
        c = F.dropout(F.softmax(b, dim=-1), p=0.5, training=self.training)
        return (
            a - b / 2,
            c,
            mixed.transpose(1, 2).flatten(1).sum(-1, keepdim=True),
            x.shape[1] * pooled,
        )


def test_a_custom_forward_is_replayed_from_its_fx_graph():
    torch.manual_seed(0)
    module = Custom().eval()
    layer = bridge.convert_model(module, input_shape=[2, 3, 6, 6])
    x = np.random.default_rng(3).standard_normal((3, 3, 5, 5)).astype("float32")
    assert_same_outputs(module, layer, x)
    assert {"stem.weight", "branches.1.weight", "heads.b.bias", "scale", "shift"} <= set(
        layer.state_dict()
    )
    assert layer.parameters() and "scale" in dict(layer.named_parameters())


class Shared(tnn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.block = tnn.Linear(4, 4)
        self.again = self.block

    def forward(self, x):
        return self.again(self.block(x))


def test_a_module_used_twice_stays_one_layer():
    module = Shared()
    layer = bridge.convert_model(module, input_shape=[2, 4])
    assert layer.block is layer.again
    assert len(layer.parameters()) == 2


def test_the_converted_layer_keeps_the_torch_modules_mode():
    module = tnn.Sequential(tnn.Linear(4, 4), tnn.Dropout(0.5)).train()
    layer = bridge.convert_model(module, input_shape=[2, 4])
    assert layer.training and module.training


class Unsupported(tnn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.rnn = tnn.LSTM(4, 4)
        self.fc = tnn.Linear(4, 4)
        self.pool = tnn.MaxPool2d(2, return_indices=True)

    def forward(self, x):
        return torch.fft.fft(self.fc(x)).real.cumsum(0)


def test_unsupported_layers_and_calls_are_listed_together():
    with pytest.raises(UnsupportedModuleError) as caught:
        bridge.convert_model(Unsupported(), input_shape=[2, 4])
    text = str(caught.value)
    assert "torch.nn.modules.rnn.LSTM" in text and "fft" in text and "cumsum" in text
    assert "MaxPool2d with dilation or return_indices" in text
    assert ".real" in text and len(caught.value.unsupported) == 5  # LSTM pool fft real cumsum


class DataDependent(tnn.Module):
    def forward(self, x):
        return x * 2 if x.sum() > 0 else x


def test_data_dependent_control_flow_is_reported():
    with pytest.raises(UnsupportedModuleError, match="cannot be traced by torch.fx"):
        bridge.convert_model(DataDependent(), input_shape=[2, 2])


class AlwaysDropout(tnn.Module):
    def forward(self, x):
        return F.dropout(x, 0.5, training=True)  # random even in eval: cannot be reproduced


def test_outputs_that_differ_are_a_conversion_error():
    with pytest.raises(ConversionError, match="differs from torch"):
        bridge.convert_model(AlwaysDropout(), input_shape=[4, 8])


class FunctionalDropout(tnn.Module):
    def forward(self, x):
        return F.dropout(x, 0.5, training=self.training)


def test_functional_dropout_follows_the_converted_layers_mode():
    layer = bridge.convert_model(FunctionalDropout().eval(), input_shape=[4, 8])
    x = framework.ones([64, 64])
    np.testing.assert_array_equal(layer(x).numpy(), np.ones((64, 64)))
    layer.train()
    values = set(np.unique(layer(x).numpy()).tolist())
    assert values == {0.0, 2.0}


def test_weights_read_in_a_graph_follow_the_layers_parameters():
    layer = bridge.convert_model(Custom().eval(), input_shape=[1, 3, 4, 4])
    layer.eval()
    x = framework.randn([1, 3, 4, 4])
    before = layer(x)[0].numpy()
    weight = layer.heads["b"].weight  # read by F.linear through get_attr, transposed
    weight.set_value(np.zeros(weight.shape, "float32"))
    after = layer(x)[0].numpy()
    bias = layer.heads["b"].bias.numpy()
    a = layer.heads["a"](framework.mean(framework.concat(
        [branch(framework.nn.functional.relu(layer.stem(x))) for branch in layer.branches], axis=1
    ), axis=[2, 3])) * layer.scale + layer.shift  # fmt: skip
    np.testing.assert_allclose(after, a.numpy() - bias / 2, rtol=1e-5, atol=1e-6)
    assert not np.allclose(before, after)
