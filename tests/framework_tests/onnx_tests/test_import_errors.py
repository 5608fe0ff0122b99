"""What the importer refuses, and how it says so: unsupported ops (all listed, with counts,
before anything runs), corrupt or truncated files, bad graphs and bad inputs; and weight
names that cannot be Layer attributes as they are."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.onnx import OnnxFormatError, OnnxImportError, UnsupportedOnnxOpError

onnx = pytest.importorskip("onnx")
helper, numpy_helper = onnx.helper, onnx.numpy_helper
F32 = onnx.TensorProto.FLOAT


def _model(nodes, inputs=("x",), outputs=("y",), inits=None, opset=17) -> bytes:
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info(n, F32, [2, 3]) for n in inputs],
        [helper.make_tensor_value_info(n, F32, None) for n in outputs],
        [numpy_helper.from_array(v, k) for k, v in (inits or {}).items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model.SerializeToString()


def test_unsupported_ops_are_all_listed_with_counts() -> None:
    nodes = [
        helper.make_node("Bernoulli", ["x"], ["a"]),
        helper.make_node("Bernoulli", ["x"], ["b"]),
        helper.make_node("FusedConv", ["x"], ["c"], domain="com.microsoft"),
        helper.make_node("Resize", ["x", "", "s"], ["d"], antialias=1, mode="cubic"),
        helper.make_node("MaxPool", ["x"], ["e", "idx"], kernel_shape=[2, 2, 2]),
        helper.make_node("Relu", ["x"], ["y"]),
    ]
    with pytest.raises(UnsupportedOnnxOpError) as caught:
        framework.onnx.load(_model(nodes, inits={"s": np.ones(4, np.float32)}))
    error = caught.value
    assert error.missing == {
        "Bernoulli": 2,
        "com.microsoft.FusedConv": 1,
        "Resize(antialias=1)": 1,
        "MaxPool(Indices output over 3-D windows)": 1,
    }
    message = str(error)
    assert "4 unsupported op types" in message and "Bernoulli (2 nodes)" in message
    assert "framework.onnx.supported_ops()" in message
    assert "Relu" in framework.onnx.supported_ops()


def test_sub_graph_ops_are_reported() -> None:
    body = helper.make_graph([], "body", [], [])
    node = helper.make_node("If", ["c"], ["y"], then_branch=body, else_branch=body)
    with pytest.raises(UnsupportedOnnxOpError, match=r"If \(1 node\)"):
        framework.onnx.load(_model([node], inputs=("c",)))


def _exported_bytes(tmp_path) -> bytes:
    model = framework.nn.Sequential(framework.nn.Linear(3, 4), framework.nn.ReLU())
    path = framework.onnx.export(
        model, str(tmp_path / "m"), [framework.jit.InputSpec([None, 3], "float32", "x")]
    )
    with open(path, "rb") as handle:
        return handle.read()


@pytest.mark.parametrize("cut", [0.5, 0.9, 0.999])
def test_truncated_files_are_rejected_clearly(tmp_path, cut) -> None:
    data = _exported_bytes(tmp_path)
    path = tmp_path / "truncated.onnx"
    path.write_bytes(data[: int(len(data) * cut)])
    with pytest.raises(OnnxFormatError, match="truncated.onnx' is not a valid ONNX model"):
        framework.onnx.load(path)


@pytest.mark.parametrize(
    "content",
    [b"", b"hello, this is a text file\n", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4,
     np.random.default_rng(0).bytes(5000), b"\x08\x07"],
    ids=["empty", "text", "png", "random", "no-graph"],
)  # fmt: skip
def test_files_that_are_not_onnx_are_rejected(tmp_path, content) -> None:
    path = tmp_path / "model.onnx"
    path.write_bytes(content)
    with pytest.raises(OnnxFormatError, match="is not a valid ONNX model"):
        framework.onnx.load(path)


def test_a_missing_file_is_reported() -> None:
    with pytest.raises(OnnxFormatError, match="cannot read ONNX file"):
        framework.onnx.load("/nonexistent/model.onnx")


def test_raw_data_that_does_not_fit_its_dims_is_rejected() -> None:
    tensor = numpy_helper.from_array(np.zeros((2, 3), np.float32), "w")
    tensor.dims[:] = [4, 3]
    graph = helper.make_graph([], "g", [], [], [tensor])
    with pytest.raises(OnnxFormatError, match="tensor 'w' holds 6 values, its dims"):
        framework.onnx.load(helper.make_model(graph).SerializeToString())


def test_opsets_outside_the_supported_range_are_refused() -> None:
    with pytest.raises(OnnxImportError, match="opset 5"):
        framework.onnx.load(_model([helper.make_node("Relu", ["x"], ["y"])], opset=5))


def test_a_node_reading_an_undefined_value_is_reported() -> None:
    nodes = [helper.make_node("Add", ["x", "ghost"], ["y"])]
    with pytest.raises(OnnxImportError, match="reads 'ghost'"):
        framework.onnx.load(_model(nodes))


def test_bad_inputs_get_clear_errors() -> None:
    layer = framework.onnx.load(_model([helper.make_node("Relu", ["x"], ["y"])]))
    with pytest.raises(TypeError, match="takes 1 inputs"):
        layer(np.ones((2, 3), np.float32), np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"input 'x' has shape \[2, 4\]"):
        layer(np.ones((2, 4), np.float32))
    with pytest.raises(TypeError, match="expects float32"):
        layer(framework.ones([2, 3], dtype="float64"))
    np.testing.assert_array_equal(layer(np.full((2, 3), -1.0)).numpy(), np.zeros((2, 3)))


def test_weight_names_that_clash_with_layer_attributes_get_safe_keys() -> None:
    names = ["training", "forward", "a.b", "a", "x..y", "onnx::Gemm_3", "fc.weight", "fc.training"]
    inits = {name: np.full((2, 3), i + 1, np.float32) for i, name in enumerate(names)}
    nodes, last = [], "x"
    for i, name in enumerate(names):
        nodes.append(helper.make_node("Add", [last, name], [f"s{i}"]))
        last = f"s{i}"
    nodes.append(helper.make_node("Identity", [last], ["y"]))
    layer = framework.onnx.load(_model(nodes, inits=inits))
    state = layer.state_dict()
    assert len(state) == len(names)
    assert set(layer.onnx_names.values()) == set(names)
    assert {"a.b", "fc.weight", "onnx::Gemm_3"} <= set(state)
    assert layer.training is False and callable(layer.forward)  # nothing was shadowed
    x = np.zeros((2, 3), np.float32)
    np.testing.assert_array_equal(layer(x).numpy(), np.full((2, 3), 36.0))
    layer.set_state_dict({key: np.zeros((2, 3), np.float32) for key in state})
    np.testing.assert_array_equal(layer(x).numpy(), x)
