"""Tracing: what the graph records, and control flow it cannot capture being reported."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.jit import (
    ControlFlowError,
    GraphDivergenceError,
    InputSpec,
    TracingError,
    UnsupportedOpError,
    trace_layer,
)


class Block(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2D(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2D(4)
        self.fc = nn.Linear(4 * 8 * 8, 5)

    def forward(self, x):
        y = F.relu(self.bn(self.conv(x)))
        return self.fc(framework.flatten(y, 1)) * 0.5


def _spec(*shape) -> list[InputSpec]:
    return [InputSpec(list(shape), "float32", "x")]


def test_it_records_ops_with_state_dict_names_and_layer_scopes() -> None:
    model = Block()
    graph = trace_layer(model, _spec(None, 3, 8, 8))
    assert [n.op_type for n in graph.nodes] == [
        "conv2d", "batch_norm", "relu", "reshape", "linear", "multiply",
    ]  # fmt: skip
    conv = graph.nodes[0]
    assert conv.inputs == ["x", "conv.weight", "conv.bias"]
    assert conv.scope == "conv" and graph.nodes[1].scope == "bn"
    assert conv.attrs == {
        "strides": [1, 1], "pads": [1, 1, 1, 1], "dilations": [1, 1], "groups": 1,
        "data_format": "NCHW",
    }  # fmt: skip
    bn = graph.nodes[1]
    assert bn.inputs[3:] == ["bn._mean", "bn._variance"]
    kinds = {name: init.kind for name, init in graph.initializers.items()}
    assert kinds["conv.weight"] == "parameter" and graph.initializers["conv.weight"].trainable
    assert kinds["bn._mean"] == "parameter" and not graph.initializers["bn._mean"].trainable
    assert set(model.state_dict()) <= set(graph.initializers)
    constant = graph.nodes[-1].inputs[1]
    assert kinds[constant] == "constant" and float(graph.tensors[constant]) == 0.5
    graph.validate()


def test_it_traces_in_eval_mode_and_restores_training() -> None:
    model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5), nn.BatchNorm1D(4))
    model.train()
    graph = trace_layer(model, _spec(None, 4))
    assert model.training
    assert [n.op_type for n in graph.nodes] == ["linear", "batch_norm"]  # dropout is identity


def test_it_traces_a_plain_function() -> None:
    def f(x, y):
        return framework.tanh(x) + y * 2.0, x.sum(axis=1)

    spec = [InputSpec([None, 3], name="a"), InputSpec([None, 3], name="b")]
    graph = trace_layer(f, spec)
    assert graph.inputs == ["a", "b"]
    assert [n.op_type for n in graph.nodes] == ["tanh", "multiply", "add", "reduce_sum"]
    assert graph.metadata["output_structure"] == {"tuple": [{"tensor": 0}, {"tensor": 1}]}


class Branchy(nn.Layer):
    def __init__(self, how: str) -> None:
        super().__init__()
        self.how = how
        self.fc = nn.Linear(3, 3)

    def forward(self, x):
        y = self.fc(x)
        if self.how == "bool":  # (a plain `if` on a tensor is transcribed: test_dy2static)
            return y * float(bool(y.mean() > 0))
        if self.how == "item":
            return y * y.sum().item()
        if self.how == "int":
            return y[: int(y.max())]
        if self.how == "numpy":
            return y + float(y.numpy().mean())
        if self.how == "tolist":
            return y * len(y.tolist())
        return y


@pytest.mark.parametrize("how", ["bool", "item", "int", "numpy", "tolist"])
def test_it_reports_python_values_taken_from_traced_tensors(how) -> None:
    model = Branchy(how)
    with pytest.raises(ControlFlowError) as info:
        trace_layer(model, _spec(None, 3))
    message = str(info.value)
    assert "traced tensor" in message and "Rewrite it with tensor ops" in message


def test_it_allows_python_values_from_parameters() -> None:
    class ScaledByWeight(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(2, 2)

        def forward(self, x):
            return self.fc(x) * float(self.fc.weight.numpy().sum())

    graph = trace_layer(ScaledByWeight(), _spec(None, 2))
    assert graph.nodes[-1].op_type == "multiply"


def test_the_error_names_the_layer() -> None:
    model = nn.Sequential(nn.Linear(3, 3), Branchy("bool"))
    with pytest.raises(ControlFlowError) as info:
        trace_layer(model, _spec(None, 3))
    assert "in layer '1'" in str(info.value)


def test_it_reports_branches_on_a_dynamic_dimension() -> None:
    class ByBatch(nn.Layer):
        def forward(self, x):
            return framework.exp(x) if x.shape[0] == 2 else framework.tanh(x)

    with pytest.raises(GraphDivergenceError) as info:
        trace_layer(ByBatch(), _spec(None, 3))
    assert "recorded different ops" in str(info.value)


def test_a_static_batch_may_branch_on_the_shape() -> None:
    class ByBatch(nn.Layer):
        def forward(self, x):
            return framework.exp(x) if x.shape[0] == 2 else framework.tanh(x)

    graph = trace_layer(ByBatch(), _spec(2, 3))
    assert [n.op_type for n in graph.nodes] == ["exp"]


def test_it_reports_tensors_computed_outside_the_recorded_ops() -> None:
    class Masked(nn.Layer):
        def forward(self, x):
            return framework.where(x.isfinite(), x, x * 0.1)  # isfinite is not recorded

    with pytest.raises(UnsupportedOpError) as info:
        trace_layer(Masked(), _spec(None, 3))
    assert "`isfinite` on a tensor computed from the inputs" in str(info.value)
    assert "feeds op where" in str(info.value)


def test_it_reports_values_that_differ_between_traces() -> None:
    class Masked(nn.Layer):
        def forward(self, x):
            mask = framework.greater_than(x, framework.zeros_like(x))  # zeros_like: no op
            return framework.where(mask, x, x * 0.1)

    with pytest.raises(GraphDivergenceError) as info:
        trace_layer(Masked(), _spec(None, 3))
    assert "no recorded op computes" in str(info.value)


def test_it_reports_attributes_that_follow_a_dynamic_dimension() -> None:
    class TileByBatch(nn.Layer):
        def forward(self, x):
            return framework.tile(x, [x.shape[0], 1])

    with pytest.raises(GraphDivergenceError) as info:
        trace_layer(TileByBatch(), _spec(None, 3))
    assert "repeat_times" in str(info.value) and "dynamic" in str(info.value)


def test_reshapes_by_the_batch_become_symbolic() -> None:
    class Shuffle(nn.Layer):
        def forward(self, x):
            n, c, h, w = x.shape
            y = framework.reshape(x, [n, 2, c // 2, h, w])
            y = framework.transpose(y, [0, 2, 1, 3, 4])
            return framework.reshape(y, [n, c * h * w])

    graph = trace_layer(Shuffle(), _spec(None, 4, 2, 2))
    shapes = [n.attrs["shape"] for n in graph.nodes if n.op_type == "reshape"]
    assert shapes == [[0, 2, 2, 2, 2], [0, 16]]


def test_it_reports_ops_without_a_graph_form() -> None:
    class Sorter(nn.Layer):
        def forward(self, x):
            return framework.cumsum(x, axis=1)

    with pytest.raises(UnsupportedOpError) as info:
        trace_layer(Sorter(), _spec(None, 3))
    assert "Cumsum" in str(info.value)


def test_outputs_must_come_from_recorded_ops() -> None:
    with pytest.raises(TracingError) as info:
        trace_layer(lambda x: x.argsort(axis=1), _spec(None, 3))
    assert "not computed from the inputs" in str(info.value)


def test_a_resized_traced_tensor_is_reported_not_baked_in() -> None:
    # resize_ copies data outside any op; an op reading the copy must not freeze it as a constant.
    with pytest.raises(TracingError) as info:
        trace_layer(lambda x: (x * 2.0).resize_([2, 2]), _spec(None, 3))
    assert "not computed from the inputs" in str(info.value)
    with pytest.raises(GraphDivergenceError, match="no recorded op computes"):
        trace_layer(lambda x: (x * 2.0).resize_([2, 2]) + 1.0, _spec(None, 3))


def test_a_traced_graph_runs_like_eager_at_new_batch_sizes() -> None:
    from framework.inference import Executor

    model = Block()
    model.eval()
    graph = trace_layer(model, _spec(None, 3, 8, 8))
    x = np.random.default_rng(0).standard_normal((5, 3, 8, 8)).astype(np.float32)
    (got,) = Executor(graph).run([x])
    with framework.no_grad():
        want = model(framework.to_tensor(x)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_a_second_trace_is_not_left_hooked() -> None:
    from framework.core import autograd

    trace_layer(Block(), _spec(None, 3, 8, 8))
    assert autograd._trace_hook is None
    assert framework.Tensor.__bool__.__name__ == "__bool__"
    assert bool(framework.to_tensor([1.0]))
