"""The graph IR: building, validating and (de)serialising graphs, and the op set's coverage."""

from __future__ import annotations

import json

import numpy as np
import pytest

from framework.inference.kernels import supported_ops
from framework.jit.graph import FORMAT_VERSION, Graph, Node
from framework.jit.op_schema import REQUIRED, SCHEMAS, attr, register_schema, validate_node
from framework.jit.replay import replayable_ops


def _graph() -> Graph:
    graph = Graph("tiny")
    graph.add_value("x", [None, 3], "float32")
    graph.inputs.append("x")
    graph.add_initializer("fc.weight", np.ones((3, 2), np.float32), "parameter", True)
    graph.add_initializer("const_0", np.asarray(2.0, np.float32), "constant")
    graph.add_value("v0", [None, 2], "float32")
    graph.add_value("v1", [None, 2], "float32")
    graph.nodes.append(Node("linear", ["x", "fc.weight"], ["v0"], {}, "linear_0", "fc"))
    graph.nodes.append(Node("multiply", ["v0", "const_0"], ["v1"], {}, "multiply_0", ""))
    graph.outputs.append("v1")
    return graph


def test_every_op_has_a_kernel_and_a_gradient_replay() -> None:
    assert set(SCHEMAS) == set(supported_ops())
    assert set(SCHEMAS) == set(replayable_ops())


def test_subsystems_register_their_own_ops_once() -> None:
    assert "quantize_linear" in SCHEMAS  # INT8 registers its ops through register_schema
    with pytest.raises(ValueError, match="'relu' is already registered"):
        register_schema("relu", "x")
    schema = register_schema("test_only_scale_by", "x factor?", doc="x * factor", power=1.0)
    try:
        assert schema.input_range() == (1, 2)
        validate_node(Node("test_only_scale_by", ["x"], ["y"], {"power": 2.0}, "n", ""))
    finally:
        del SCHEMAS["test_only_scale_by"]


def test_schemas_have_json_defaults() -> None:
    for schema in SCHEMAS.values():
        for default in schema.attrs.values():
            if default is not REQUIRED:
                json.dumps(default)
        assert schema.inputs and schema.outputs


def test_json_round_trip_keeps_everything() -> None:
    graph = _graph()
    graph.metadata["output_structure"] = {"tensor": 0}
    doc = json.loads(json.dumps(graph.to_json()))
    assert doc["format_version"] == FORMAT_VERSION
    assert doc["initializers"][0] == {
        "name": "fc.weight", "shape": [3, 2], "dtype": "float32", "kind": "parameter",
        "trainable": True,
    }  # fmt: skip
    back = Graph.from_json(doc, dict(graph.tensors))
    assert back.to_json() == doc
    assert back.values["x"].shape == [None, 3]


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda g: g.nodes.reverse(), "before it is defined"),
        (lambda g: setattr(g.nodes[0], "op_type", "warp"), "unknown op type"),
        (lambda g: g.nodes[1].attrs.update(bogus=1), "unknown attrs"),
        (lambda g: setattr(g.nodes[0], "inputs", ["x"]), "has 1 inputs"),
        (lambda g: setattr(g.nodes[1], "name", "linear_0"), "unique"),
        (lambda g: g.outputs.append("nowhere"), "never defined"),
        (lambda g: g.nodes[0].attrs.update(activation={"type": np.float32(1)}), "not a JSON"),
        (lambda g: g.tensors.update({"fc.weight": np.ones(2)}), "has shape"),
    ],
)
def test_validate_reports_broken_graphs(damage, message) -> None:
    graph = _graph()
    damage(graph)
    with pytest.raises(ValueError, match=message):
        graph.validate()


def test_missing_required_attributes_are_reported() -> None:
    graph = _graph()
    graph.nodes[0] = Node("reshape", ["x"], ["v0"], {}, "reshape_0")
    with pytest.raises(ValueError, match="lacks required attrs"):
        graph.validate()


def test_attr_falls_back_to_the_schema_default() -> None:
    node = Node("softmax", ["x"], ["y"], {}, "softmax_0")
    assert attr(node, "axis") == -1
    node = Node("reshape", ["x"], ["y"], {}, "reshape_0")
    with pytest.raises(KeyError):
        attr(node, "shape")


def test_copy_shares_arrays_but_not_structure() -> None:
    graph = _graph()
    other = graph.copy()
    other.nodes[0].attrs["activation"] = {"type": "relu"}
    other.values["v0"].shape[0] = 7
    assert "activation" not in graph.nodes[0].attrs
    assert graph.values["v0"].shape == [None, 2]
    assert other.tensors["fc.weight"] is graph.tensors["fc.weight"]


def test_summary_and_counts() -> None:
    graph = _graph()
    assert graph.op_counts() == {"linear": 1, "multiply": 1}
    assert "linear_0: linear(x, fc.weight) -> v0" in graph.summary()
    assert set(graph.parameters()) == {"fc.weight"}
