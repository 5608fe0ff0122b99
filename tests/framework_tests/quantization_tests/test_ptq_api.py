"""The PTQ API: Paddle-style configs (per layer, name, type), weight-only quantization,
unsupported layers kept float and reported, clear errors, calibration from loaders."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn
from framework.io import DataLoader
from framework.quantization import (
    PTQ,
    AbsmaxObserver,
    KLObserver,
    ObservedModel,
    PercentileObserver,
    QuantConfig,
    export_onnx,
)
from tests.framework_tests.digits_data import ArrayDataset


class Net(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2D(1, 4, 3, padding=1)
        self.fc1 = nn.Linear(4 * 6 * 6, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        y = nn.functional.relu(self.conv(x))
        return self.fc2(nn.functional.relu(self.fc1(framework.flatten(y, 1))))


def _images(count: int = 16, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(count, 1, 6, 6)).astype(np.float32)


def _settings(observed: ObservedModel) -> dict[str, type]:
    """Layer path -> the class of the activation observer its setting names."""
    plan = observed.plan
    scopes = {node.name: node.scope for node in plan.graph.nodes}
    return {scopes[name]: type(setting.activation) for name, setting in plan.layers.items()}


def test_layer_settings_go_by_object_then_name_then_type() -> None:
    net = Net()
    net.eval()
    config = QuantConfig(activation=AbsmaxObserver())
    config.add_type_config(nn.Linear, activation=KLObserver(), weight=AbsmaxObserver())
    config.add_name_config("fc2", activation=PercentileObserver(99.9), weight=AbsmaxObserver())
    observed = PTQ(config).quantize(net)
    observed(_images())
    assert _settings(observed) == {
        "conv": AbsmaxObserver, "fc1": KLObserver, "fc2": PercentileObserver
    }  # fmt: skip
    config.add_layer_config(net.fc2, activation=AbsmaxObserver(), weight=AbsmaxObserver())
    observed = PTQ(config).quantize(net)
    observed(_images())
    assert _settings(observed)["fc2"] is AbsmaxObserver
    # a tensor between two quantized ops is observed as the first of them says
    fc1 = next(n for n in observed.plan.graph.nodes if n.scope == "fc1")
    assert type(observed.observers[fc1.outputs[0]]) is KLObserver
    assert "Layer type config: ['Linear']" in str(config)


def test_layers_kept_float_by_the_config_are_reported() -> None:
    net = Net()
    net.eval()
    config = QuantConfig()
    config.add_name_config("fc2", activation=None, weight=None)
    ptq = PTQ(config)
    observed = ptq.quantize(net)
    observed(_images())
    int8 = ptq.convert(observed)
    assert int8.report.float_layers == {"fc2": "kept float by the QuantConfig"}
    assert int8.program.op_counts()["linear"] == 1
    assert "fc2" in str(int8.report)


def test_weight_only_quantization_stores_int8_weights_and_computes_in_float() -> None:
    framework.seed(1)
    net = Net()
    net.eval()
    ptq = PTQ(QuantConfig(activation=None))
    observed = ptq.quantize(net)
    observed(_images())
    int8 = ptq.convert(observed)
    weights = [n for n in int8.graph.initializers if n.endswith(".weight.int8")]
    assert len(weights) == 3 and all(int8.graph.tensors[n].dtype == np.int8 for n in weights)
    assert "quantize_linear" not in int8.graph.op_counts()
    assert {"conv2d", "linear"} <= set(int8.program.op_counts())  # folded back to float
    x = _images(seed=2)
    with framework.no_grad():
        want = net(framework.to_tensor(x)).numpy()
    np.testing.assert_allclose(int8(x).numpy(), want, atol=0.02 * np.abs(want).max())


def test_layers_without_int8_kernels_stay_float_with_a_warning() -> None:
    class Mixed(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.up = nn.Conv2DTranspose(1, 2, 2, stride=2)
            self.conv = nn.Conv2D(2, 2, 3, padding=1)
            self.line = nn.Conv1D(2, 2, 3, padding=1)

        def forward(self, x):
            y = self.conv(self.up(x))
            return self.line(framework.flatten(y, 2))

    model = Mixed()
    model.eval()
    ptq = PTQ(QuantConfig(activation=AbsmaxObserver()))
    observed = ptq.quantize(model)
    x = _images(4, seed=3)
    with pytest.warns(UserWarning, match=r"2 layers of Mixed stay float .*up: conv2d_transpose"):
        observed(x)
    int8 = ptq.convert(observed)
    assert set(int8.report.float_layers) == {"up", "line"}
    assert "no INT8 kernel" in int8.report.float_layers["line"]
    assert list(int8.report.quantized.values()) == ["conv"]
    with framework.no_grad():
        want = model(framework.to_tensor(x)).numpy()
    np.testing.assert_allclose(int8(x).numpy(), want, atol=0.05 * np.abs(want).max())


def test_configs_refuse_what_cannot_be_quantized() -> None:
    config = QuantConfig()
    with pytest.raises(ValueError, match="INT8 kernels for Conv2D, Linear.*Conv2DTranspose"):
        config.add_type_config(nn.Conv2DTranspose, activation=AbsmaxObserver())
    with pytest.raises(ValueError, match="needs int8 weights"):
        QuantConfig(activation=AbsmaxObserver(), weight=None)
    with pytest.raises(TypeError, match="must be an observer"):
        QuantConfig(activation="abs_max")


def test_convert_needs_an_observed_and_calibrated_model() -> None:
    ptq = PTQ()
    with pytest.raises(TypeError, match="framework Layer"):
        ptq.quantize(lambda x: x)
    with pytest.raises(TypeError, match="returned by PTQ.quantize"):
        ptq.convert(Net())
    with pytest.raises(RuntimeError, match="not been traced"):
        ptq.quantize(Net()).plan  # noqa: B018
    traced = ptq.quantize(Net(), input_spec=[framework.jit.InputSpec([None, 1, 6, 6])])
    with pytest.raises(RuntimeError, match="no calibration data"):
        ptq.convert(traced)


def test_calibration_reads_inputs_from_a_data_loader_and_stops_at_max_batches() -> None:
    net = Net()
    net.eval()
    loader = DataLoader(ArrayDataset(_images(40), np.zeros((40, 1), np.int64)), batch_size=8)
    ptq = PTQ()
    observed = ptq.quantize(net)
    assert ptq.calibrate(observed, loader, max_batches=3) == 3
    assert observed.batches == 3
    x = _images(5, seed=4)
    with framework.no_grad():
        want = net(framework.to_tensor(x)).numpy()
    np.testing.assert_allclose(observed(framework.to_tensor(x)).numpy(), want, rtol=1e-5, atol=1e-5)


def test_onnx_export_needs_opset_13_and_can_keep_int8_activations(tmp_path) -> None:
    ort = pytest.importorskip("onnxruntime")
    net = Net()
    net.eval()
    ptq = PTQ()
    observed = ptq.quantize(net)
    observed(_images())
    int8 = ptq.convert(observed)
    with pytest.raises(ValueError, match="opset 13"):
        export_onnx(int8, str(tmp_path / "old"), opset_version=12)
    x = _images(6, seed=5)
    unfused = ort.SessionOptions()
    unfused.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    want = int8(x).numpy()
    for activation_type in ("uint8", "int8"):
        # 8-bit weights: the file means exactly what the framework's INT8 model computes
        path = export_onnx(
            int8,
            str(tmp_path / f"{activation_type}-8"),
            activation_type=activation_type,
            weight_bits=8,
        )
        session = ort.InferenceSession(path, unfused, providers=["CPUExecutionProvider"])
        (got,) = session.run(None, {session.get_inputs()[0].name: x})
        np.testing.assert_allclose(got, want, atol=1e-5)
        # 7-bit weights (the default): onnxruntime's fused int8 kernels compute exactly what
        # the file means on every x86 CPU, VNNI or not, a weight's rounding step from the above
        path = export_onnx(int8, str(tmp_path / activation_type), activation_type=activation_type)
        fused = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
        reference = ort.InferenceSession(path, unfused, providers=["CPUExecutionProvider"])
        name = fused.get_inputs()[0].name
        (got,), (meant,) = fused.run(None, {name: x}), reference.run(None, {name: x})
        np.testing.assert_allclose(got, meant, atol=1e-5)
        assert 0 < np.abs(got - want).max() < 0.05 * np.abs(want).max()
    with pytest.raises(ValueError, match="weight_bits"):
        export_onnx(int8, str(tmp_path / "six"), weight_bits=6)


def test_slim_is_the_same_api() -> None:
    assert framework.slim.PTQ is framework.quantization.PTQ
    assert framework.slim.KLObserver is KLObserver
