"""The built-in protobuf codec: varints, packed fields, tensors in every storage form, and
models that round-trip with the onnx package in both directions."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.onnx import wire
from framework.onnx.proto import (
    GraphProto,
    ModelProto,
    NodeProto,
    ValueInfoProto,
    parse_model,
    read_model,
    serialize_model,
)

onnx = pytest.importorskip("onnx")
helper, numpy_helper = onnx.helper, onnx.numpy_helper


@pytest.mark.parametrize("value", [0, 1, 127, 128, 300, 2**31 - 1, 2**63 - 1, -1, -(2**40)])
def test_varints_round_trip_including_negative_int64(value) -> None:
    data = wire.encode_varint(value)
    decoded, end = wire.read_varint(data, 0, len(data))
    assert end == len(data) and wire.as_signed(decoded) == value
    assert len(data) == (10 if value < 0 else max(1, (value.bit_length() + 6) // 7))


def test_packed_varints_decode_vectorised() -> None:
    values = np.array([0, 1, 150, -3, 2**40, -(2**62), 127, 128], dtype=np.int64)
    data = b"".join(wire.encode_varint(int(v)) for v in values)
    np.testing.assert_array_equal(wire.packed_varints(data, (0, len(data))), values)
    with pytest.raises(framework.onnx.OnnxFormatError, match="truncated"):
        wire.packed_varints(data[:-1] + b"\x80", (0, len(data)))


@pytest.mark.parametrize(
    "dtype", ["float32", "float64", "float16", "int8", "uint8", "int16", "int32", "int64", "bool"]
)
@pytest.mark.parametrize("storage", ["raw", "typed"])
def test_tensors_of_every_dtype_and_storage_read_back(dtype, storage) -> None:
    rng = np.random.default_rng(0)
    array = (rng.standard_normal((2, 3, 4)) * 50).astype(dtype)
    proto = numpy_helper.from_array(array, "t")
    if storage == "typed":  # the *_data fields that older exporters use
        proto = helper.make_tensor("t", proto.data_type, array.shape, array.reshape(-1).tolist())
    graph = helper.make_graph([], "g", [], [], [proto])
    model = parse_model(helper.make_model(graph).SerializeToString())
    got = model.graph.initializers["t"]
    assert got.dtype == array.dtype and got.shape == array.shape
    np.testing.assert_array_equal(got, array)


def test_scalars_and_empty_tensors() -> None:
    graph = helper.make_graph(
        [], "g", [], [],
        [numpy_helper.from_array(np.float32(2.5), "s"), numpy_helper.from_array(
            np.zeros((0, 3), np.int64), "e")],
    )  # fmt: skip
    tensors = parse_model(helper.make_model(graph).SerializeToString()).graph.initializers
    assert tensors["s"].shape == () and tensors["s"] == 2.5
    assert tensors["e"].shape == (0, 3)


def test_our_model_is_valid_onnx_and_reads_back_identically() -> None:
    weights = np.arange(6, dtype=np.float32).reshape(2, 3)
    model = ModelProto(
        graph=GraphProto(
            name="g",
            nodes=[
                NodeProto("MatMul", ["x", "w"], ["m"], name="mm"),
                NodeProto("LeakyRelu", ["m"], ["y"], {"alpha": 0.25}),
                NodeProto("Transpose", ["y"], ["t"], {"perm": [1, 0]}),
            ],
            inputs=[ValueInfoProto("x", 1, ["batch", 2])],
            outputs=[ValueInfoProto("y", 1, ["batch", 3]), ValueInfoProto("t", 1, [3, "batch"])],
            initializers={"w": weights},
        ),
        opset_imports={"": 17},
        producer_name="test",
        metadata={"k": "v\nw"},
    )
    data = serialize_model(model)
    checked = onnx.load_from_string(data)
    onnx.checker.check_model(checked, full_check=True)
    assert checked.graph.node[1].attribute[0].f == 0.25
    again = parse_model(data)
    assert again.graph.nodes == model.graph.nodes
    assert again.graph.inputs == model.graph.inputs and again.graph.outputs == model.graph.outputs
    assert (again.metadata, again.opset_imports, again.producer_name) == (
        {"k": "v\nw"},
        {"": 17},
        "test",
    )
    np.testing.assert_array_equal(again.graph.initializers["w"], weights)


def test_attributes_of_every_kind_read_like_onnx() -> None:
    sub = helper.make_graph([], "body", [], [])
    tensor = numpy_helper.from_array(np.arange(3, dtype=np.int64))
    node = helper.make_node(
        "Custom", ["a"], ["b"], domain="my.domain", f=1.5, i=-7, s="text", t=tensor, g=sub,
        floats=[0.5, 2.0], ints=[1, -2, 3], strings=["p", "q"],
    )  # fmt: skip
    model = parse_model(
        helper.make_model(helper.make_graph([node], "g", [], [])).SerializeToString()
    )
    attrs = model.graph.nodes[0].attrs
    assert model.graph.nodes[0].domain == "my.domain"
    assert attrs["f"] == 1.5 and attrs["i"] == -7 and attrs["s"] == "text"
    np.testing.assert_array_equal(attrs["t"], [0, 1, 2])
    assert isinstance(attrs["g"], GraphProto) and attrs["g"].name == "body"
    assert attrs["floats"] == [0.5, 2.0] and attrs["ints"] == [1, -2, 3]
    assert attrs["strings"] == ["p", "q"]


def test_external_data_is_read_from_the_model_folder(tmp_path) -> None:
    array = np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "w"], ["y"])], "g",
        [helper.make_tensor_value_info("x", 1, [64, 64])],
        [helper.make_tensor_value_info("y", 1, [64, 64])], [numpy_helper.from_array(array, "w")],
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save_model(model, tmp_path / "m.onnx", save_as_external_data=True,
                    location="weights.bin", size_threshold=0)  # fmt: skip
    assert (tmp_path / "weights.bin").exists()
    np.testing.assert_array_equal(read_model(tmp_path / "m.onnx").graph.initializers["w"], array)
    x = np.ones((64, 64), np.float32)
    np.testing.assert_allclose(framework.onnx.load(tmp_path / "m.onnx")(x).numpy(), x + array)


def test_reading_the_ppocr_recognizer_is_fast() -> None:
    from tests.framework_tests.onnx_tests.ocr_pipeline import models_dir

    folder = models_dir()
    if folder is None:
        pytest.skip("rapidocr-onnxruntime is not installed")
    import time

    start = time.perf_counter()
    model = read_model(folder / "ch_PP-OCRv4_rec_infer.onnx")
    elapsed = time.perf_counter() - start
    assert len(model.graph.nodes) == 860 and len(model.metadata["character"]) > 6000
    assert elapsed < 2.0  # about 0.05 s: raw data is wrapped, never decoded value by value
