"""String attributes read as text whether a node holds `str` (the decoder's) or raw `bytes`."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.onnx.import_ import registry
from framework.onnx.import_.registry import RunContext, spec_for, text_attr, text_attrs
from framework.onnx.proto import NodeProto

CTX = RunContext(opset=22, training=False)
rng = np.random.default_rng(0)


def as_bytes(attrs: dict) -> dict:
    def raw(value):
        if isinstance(value, str):
            return value.encode()
        if isinstance(value, list) and value and isinstance(value[0], str):
            return [v.encode() for v in value]
        return value

    return {name: raw(value) for name, value in attrs.items()}


def test_text_attr_decodes_bytes_and_keeps_defaults():
    node = NodeProto("Pad", ["x"], ["y"], {"mode": b"edge", "names": [b"Tanh", "Relu"]})
    assert text_attr(node, "mode") == "edge"
    assert text_attr(node, "absent", "constant") == "constant"
    assert text_attr(node, "absent") is None
    assert text_attrs(node, "names") == ["Tanh", "Relu"]
    assert text_attrs(node, "absent") == []


def t(array) -> framework.Tensor:
    return framework.to_tensor(np.asarray(array))


CASES = {
    "Resize": (
        {"mode": "linear", "coordinate_transformation_mode": "align_corners"},
        lambda: [
            t(rng.standard_normal((1, 2, 3, 3), np.float32)),
            None,
            t(np.array([1, 1, 2, 2], np.float32)),
        ],
    ),
    "GridSample": (
        {"mode": "nearest", "padding_mode": "border"},
        lambda: [
            t(rng.standard_normal((1, 2, 4, 4), np.float32)),
            t(rng.uniform(-1.2, 1.2, (1, 3, 3, 2)).astype(np.float32)),
        ],
    ),
    "Pad": (
        {"mode": "reflect"},
        lambda: [t(rng.standard_normal((2, 4), np.float32)), t(np.array([0, 1, 0, 2]))],
    ),
    "LSTM": (
        {
            "direction": "bidirectional",
            "hidden_size": 3,
            "activations": ["Sigmoid", "Tanh", "Relu"] * 2,
        },
        lambda: [
            t(rng.standard_normal((4, 2, 5), np.float32)),
            t(rng.standard_normal((2, 12, 5), np.float32)),
            t(rng.standard_normal((2, 12, 3), np.float32)),
        ],
    ),
}


@pytest.mark.parametrize("op_type", sorted(CASES))
def test_a_handler_runs_the_same_with_bytes_attributes(op_type):
    attrs, make_args = CASES[op_type]
    args = make_args()
    spec = spec_for(op_type)
    outputs = []
    for node_attrs in (attrs, as_bytes(attrs)):
        node = NodeProto(op_type, ["x"], ["y"], node_attrs)
        assert spec.check is None or spec.check(node, CTX.opset) is None
        result = spec.run(CTX, node, list(args))
        result = result if isinstance(result, list | tuple) else [result]
        outputs.append([r.numpy() for r in result if r is not None])
    for text_result, bytes_result in zip(*outputs, strict=True):
        np.testing.assert_array_equal(bytes_result, text_result)


@pytest.mark.parametrize(
    ("op_type", "attrs", "message"),
    [
        ("GridSample", {"mode": b"cubic"}, "GridSample(mode=cubic)"),
        ("RoiAlign", {"mode": b"max"}, "RoiAlign(mode=max)"),
        ("Resize", {"nearest_mode": b"middle"}, "Resize(nearest_mode=middle)"),
        ("LSTM", {"activations": [b"Sigmoid", b"Swish", b"Tanh"]}, "LSTM(activations=Swish)"),
    ],
)
def test_refusals_name_a_bytes_setting_as_text(op_type, attrs, message):
    node = NodeProto(op_type, ["x"], ["y"], attrs)
    assert spec_for(op_type).check(node, CTX.opset) == message


def test_no_handler_decodes_attributes_by_itself():
    """One home for the decoding: the handlers' modules call text_attr, never .decode()."""
    from pathlib import Path

    folder = Path(registry.__file__).parent
    offenders = [p.name for p in folder.glob("ops_*.py") if ".decode(" in p.read_text()]
    assert offenders == []
