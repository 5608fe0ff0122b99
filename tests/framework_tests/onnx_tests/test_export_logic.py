"""Comparisons, logical ops and argmax/argmin in the static graph: recorded by the tracer (as
methods, operators or functions), they give eager's answers after `jit.load`, in the
predictor and in onnxruntime, and a mask computed from the input drives `where`."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn
from framework.inference import Config, create_predictor
from framework.jit import InputSpec
from framework.jit.save_load import trace_layer

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")


class Logic(nn.Layer):
    def forward(self, x, y):
        outputs = [
            framework.where(x > 0.2, x, y * 2),  # a mask computed from the inputs
            x >= y, x <= 0.1, x < y, framework.greater_than(x, y), x == y,
            framework.not_equal(x, 0.5), framework.greater_equal(y, x),
            framework.logical_and(x > 0, y < 0), framework.logical_or(x, y),
            framework.logical_xor(x > 0, y > 0), framework.logical_not(x > 0),
            (x > 0) & (y > 0), (x > 0) | (y > 0), ~(x > 0),
            framework.argmax(x, axis=1), x.argmin(axis=-1, keepdim=True),
            framework.argmax(y), framework.argmin(x, keepdim=True),
            framework.argmax(x, axis=0, dtype="int32"),
        ]  # fmt: skip
        return tuple(outputs)


def feeds(batch: int, rng) -> dict[str, np.ndarray]:
    x = rng.choice([-1.0, 0.0, 0.1, 0.5, 0.9], (batch, 5)).astype(np.float32)  # ties and equals
    y = rng.choice([-0.5, 0.0, 0.1, 0.5], (batch, 5)).astype(np.float32)
    return {"x": x, "y": y}


def eager(model, inputs: dict) -> list[np.ndarray]:
    return [t.numpy() for t in model(*(framework.to_tensor(v) for v in inputs.values()))]


SPEC = [InputSpec([None, 5], "float32", "x"), InputSpec([None, 5], "float32", "y")]


def test_the_graph_records_each_op() -> None:
    ops = {node.op_type for node in trace_layer(Logic(), SPEC).nodes}
    assert ops >= {
        "greater", "greater_equal", "less_equal", "less", "equal", "not_equal", "logical_and",
        "logical_or", "logical_xor", "logical_not", "argmax", "argmin", "where",
    }  # fmt: skip


def test_jit_load_and_the_predictor_give_eager_answers(tmp_path) -> None:
    model = Logic()
    framework.jit.save(model, str(tmp_path / "logic"), input_spec=SPEC)
    loaded = framework.jit.load(str(tmp_path / "logic"))
    config = Config(str(tmp_path / "logic.json"), str(tmp_path / "logic.safetensors"))
    predictor = create_predictor(config)
    rng = np.random.default_rng(0)
    for batch in (1, 4):
        inputs = feeds(batch, rng)
        want = eager(model, inputs)
        got_loaded = [t.numpy() for t in loaded(*(framework.to_tensor(v) for v in inputs.values()))]
        got_predictor = predictor.run(list(inputs.values()))
        for expected, a, b in zip(want, got_loaded, got_predictor, strict=True):
            np.testing.assert_array_equal(a, expected)
            np.testing.assert_array_equal(b, expected)
            assert a.dtype == b.dtype == expected.dtype


@pytest.mark.parametrize("opset", [11, 13, 17, 23])
def test_onnxruntime_gives_eager_answers(opset, tmp_path) -> None:
    model = Logic()
    path = framework.onnx.export(model, str(tmp_path / "logic"), SPEC, opset_version=opset)
    onnx.checker.check_model(path, full_check=True)
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(opset)
    for batch in (1, 3):
        inputs = feeds(batch, rng)
        for got, want in zip(session.run(None, inputs), eager(model, inputs), strict=True):
            np.testing.assert_array_equal(got, want)
            assert got.dtype == want.dtype


def test_a_comparison_of_constants_stays_a_constant() -> None:
    class Thresholded(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("limits", framework.to_tensor([0.5, -1.0, 2.0]))

        def forward(self, x):
            return framework.where(self.limits > 0, x, -x)

    graph = trace_layer(Thresholded(), [InputSpec([None, 3], "float32", "x")])
    assert [node.op_type for node in graph.nodes] == ["neg", "where"]


def test_bitwise_ops_on_integers_are_still_reported() -> None:
    class Bitwise(nn.Layer):
        def forward(self, x):
            return (x.astype("int32") & 3).astype("float32") + x

    # The cast back to float is recorded, so the unrecordable `&` is named where it is read.
    with pytest.raises(framework.jit.UnsupportedOpError, match="`and` on a tensor computed"):
        trace_layer(Bitwise(), [InputSpec([None, 3], "float32", "x")])
