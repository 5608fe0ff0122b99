"""The int8_fusion pass: QDQ patterns become INT8 kernels, requantization and int8 pooling are
fused, float graphs are left alone, and what cannot be fused still runs correctly."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn
from framework.inference.passes import DEFAULT_PIPELINE, int8_fusion, optimize
from framework.jit import InputSpec, trace_layer
from framework.jit.replay import replay
from framework.quantization import PTQ, AbsmaxObserver, QuantConfig, QuantizedModel


class Branchy(nn.Layer):
    """Two quantized convolutions read the same tensor; a padded max-pool; a float add."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Conv2D(1, 4, 3, padding=1)
        self.pool = nn.MaxPool2D(3, 2, 1)
        self.left = nn.Conv2D(4, 4, 3, padding=1)
        self.right = nn.Conv2D(4, 4, 1)
        self.head = nn.Linear(4 * 6 * 6, 3)

    def forward(self, x):
        y = self.pool(nn.functional.relu(self.stem(x)))
        y = nn.functional.relu(self.left(y) + self.right(y))
        return self.head(framework.flatten(y, 1))


def _int8(model: nn.Layer, shape: tuple[int, ...]) -> QuantizedModel:
    model.eval()
    rng = np.random.default_rng(0)
    ptq = PTQ(QuantConfig(activation=AbsmaxObserver()))
    observed = ptq.quantize(model)
    for _ in range(2):
        observed(rng.normal(size=shape).astype(np.float32))
    return ptq.convert(observed)


def test_float_graphs_pass_through_unchanged() -> None:
    graph = optimize(trace_layer(nn.Sequential(nn.Linear(4, 3)), [InputSpec([None, 4])]))
    assert int8_fusion.run(graph) is graph
    assert DEFAULT_PIPELINE.index("int8_fusion") < DEFAULT_PIPELINE.index("constant_folding")


def test_requantization_and_unpadded_pooling_fuse_into_an_all_int8_chain() -> None:
    framework.seed(1)
    model = nn.Sequential(
        nn.Conv2D(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
        nn.Conv2D(4, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 4 * 4, 10),
    )  # fmt: skip
    program = _int8(model, (2, 1, 12, 12)).program
    counts = program.op_counts()
    assert counts == {
        "quantize_linear": 1, "quantized_conv2d": 2, "max_pool2d": 1, "reshape": 1,
        "quantized_linear": 1,
    }, counts  # fmt: skip
    dtypes = {node.op_type: program.values[node.outputs[0]].dtype for node in program.nodes}
    assert dtypes["max_pool2d"] == dtypes["reshape"] == dtypes["quantized_conv2d"] == "int8"
    assert dtypes["quantized_linear"] == "float32"  # the model's output is dequantized
    convs = [node for node in program.nodes if node.op_type == "quantized_conv2d"]
    assert all(len(node.inputs) == 8 for node in convs)  # y_scale, y_zero_point: requantized


def test_shared_inputs_are_quantized_once_and_padded_pools_stay_float() -> None:
    framework.seed(2)
    int8 = _int8(Branchy(), (3, 1, 12, 12))
    qdq_counts, counts = int8.graph.op_counts(), int8.program.op_counts()
    # the QDQ graph gives each reader its own pair (for onnxruntime); the predictor merges them
    assert qdq_counts["quantize_linear"] > counts["quantize_linear"]
    pooled = next(n for n in int8.program.nodes if n.op_type == "max_pool2d")
    assert int8.program.values[pooled.inputs[0]].dtype == "float32"  # -inf padding
    readers = [n for n in int8.program.nodes if pooled.outputs[0] in n.inputs]
    assert [n.op_type for n in readers] == ["quantize_linear"]
    assert counts["quantized_conv2d"] == 3 and counts["add"] == 1
    x = np.random.default_rng(3).normal(size=(3, 1, 12, 12)).astype(np.float32)
    fake = QuantizedModel(int8.graph, int8_kernels=False)
    np.testing.assert_allclose(int8(x).numpy(), fake(x).numpy(), rtol=1e-4, atol=1e-4)


def test_weights_with_zero_points_are_left_to_the_float_path() -> None:
    framework.seed(4)
    int8 = _int8(nn.Sequential(nn.Conv2D(2, 3, 3), nn.Flatten(), nn.Linear(12, 2)), (2, 2, 4, 4))
    graph = int8.graph.copy()
    zero = next(name for name in graph.initializers if name.endswith("0.weight.zero_point"))
    graph.tensors[zero] = np.ones_like(graph.tensors[zero])  # no longer symmetric
    counts = optimize(graph, DEFAULT_PIPELINE).op_counts()
    assert counts.get("quantized_conv2d", 0) == 0 and counts["conv2d"] == 1
    assert counts["quantized_linear"] == 1


def test_qdq_graphs_replay_with_the_kernels() -> None:
    framework.seed(5)
    int8 = _int8(nn.Sequential(nn.Conv2D(1, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8, 2)),
                 (2, 1, 4, 4))  # fmt: skip
    x = np.random.default_rng(6).normal(size=(2, 1, 4, 4)).astype(np.float32)
    graph = int8.graph
    tensors = [framework.to_tensor(graph.tensors[name]) for name in graph.initializers]
    (out,) = replay(graph, [framework.to_tensor(x)], tensors)
    fake = QuantizedModel(graph, int8_kernels=False)
    np.testing.assert_allclose(out.numpy(), fake(x).numpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("loader", ["jit", "predictor"])
def test_saved_int8_models_load_with_the_framework_loaders(tmp_path, loader) -> None:
    framework.seed(7)
    int8 = _int8(nn.Sequential(nn.Conv2D(1, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8, 2)),
                 (2, 1, 4, 4))  # fmt: skip
    json_file, weights_file = int8.save(str(tmp_path / "tiny_int8"))
    assert json_file.endswith(".json") and weights_file.endswith(".safetensors")
    x = np.random.default_rng(8).normal(size=(5, 1, 4, 4)).astype(np.float32)
    if loader == "jit":  # a TranslatedLayer runs the QDQ graph as stored: fake quantization
        with framework.no_grad():
            got = framework.jit.load(str(tmp_path / "tiny_int8"))(framework.to_tensor(x)).numpy()
        want = QuantizedModel(int8.graph, int8_kernels=False)(x).numpy()
    else:
        predictor = framework.inference.create_predictor(
            framework.inference.Config(str(tmp_path / "tiny_int8"))
        )
        (got,) = predictor.run([x])
        want = int8(x).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
