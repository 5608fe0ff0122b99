"""`to_static` as a decorator and a call, on functions, methods and Layers."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.jit import InputSpec, StaticFunction, UnsupportedOpError, to_static


class Net(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def _x(batch: int = 2) -> framework.Tensor:
    return framework.to_tensor(np.random.default_rng(batch).standard_normal((batch, 4)), "float32")


def test_call_form_on_a_layer_runs_the_graph_in_eval_mode() -> None:
    model = Net()
    eager = model(_x()).numpy()
    static = to_static(model, input_spec=[InputSpec([None, 4])])
    assert static is model and isinstance(model.forward, StaticFunction)
    model.eval()
    with framework.no_grad():
        out = model(_x())
        out3 = model(_x(3))
    np.testing.assert_allclose(out.numpy(), eager, rtol=1e-6)
    assert out3.shape == [3, 3]
    graph = model.forward.concrete_program
    assert [n.op_type for n in graph.nodes] == ["linear", "relu", "linear"]
    assert graph.values["x"].shape == [None, 4]
    assert len(model.forward._programs) == 1  # one program serves every batch size


def test_training_calls_run_eagerly_with_gradients() -> None:
    model = to_static(Net(), input_spec=[InputSpec([None, 4])])
    model.train()
    loss = model(_x()).sum()
    loss.backward()
    assert model.fc1.weight.grad is not None
    assert not model.forward._programs  # nothing was traced


def test_the_graph_reads_the_current_weights() -> None:
    model = to_static(Net(), input_spec=[InputSpec([None, 4])])
    model.eval()
    with framework.no_grad():
        before = model(_x()).numpy()
        model.fc2.bias.set_value(model.fc2.bias.numpy() + 1.0)
        after = model(_x()).numpy()
    np.testing.assert_allclose(after, before + 1.0, rtol=1e-5, atol=1e-6)


def test_decorator_forms_on_functions() -> None:
    @to_static
    def plain(x, y):
        return framework.exp(x) * y

    @to_static(input_spec=[InputSpec([None, 2]), InputSpec([None, 2])])
    def with_spec(x, y):
        return x - y

    a = framework.to_tensor([[0.0, 1.0]])
    b = framework.to_tensor([[2.0, 3.0]])
    np.testing.assert_allclose(plain(a, b).numpy(), np.exp([[0.0, 1.0]]) * [[2.0, 3.0]], 1e-6)
    np.testing.assert_allclose(with_spec(a, b).numpy(), [[-2.0, -2.0]])
    assert [n.op_type for n in plain.concrete_program.nodes] == ["exp", "multiply"]
    assert plain.concrete_program.inputs == ["x", "y"]


def test_without_a_spec_each_shape_gets_its_own_program() -> None:
    @to_static
    def double(x):
        return x * 2.0

    double(framework.ones([2, 3]))
    double(framework.ones([4, 3]))
    double(framework.ones([2, 3]))
    assert len(double._programs) == 2


def test_decorating_forward_in_the_class() -> None:
    class Decorated(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(4, 2)

        @to_static(input_spec=[InputSpec([None, 4])])
        def forward(self, x):
            return F.sigmoid(self.fc(x))

    first, second = Decorated(), Decorated()
    first.eval()
    second.eval()
    with framework.no_grad():
        a, b = first(_x()), second(_x())
    assert not np.allclose(a.numpy(), b.numpy())  # each instance traced with its own weights
    assert first.forward.concrete_program.initializers.keys() == {"fc.weight", "fc.bias"}


def test_non_tensor_arguments_are_baked_per_value() -> None:
    @to_static
    def scaled(x, factor):
        return x * factor

    x = framework.ones([2])
    np.testing.assert_allclose(scaled(x, 3.0).numpy(), [3.0, 3.0])
    np.testing.assert_allclose(scaled(x, 5.0).numpy(), [5.0, 5.0])
    assert len(scaled._programs) == 2


def test_full_graph_false_falls_back_to_eager() -> None:
    def cumulative(x):
        return framework.cumsum(x, axis=0)

    strict = to_static(cumulative)
    with pytest.raises(UnsupportedOpError):
        strict(framework.ones([3]))
    lenient = to_static(cumulative, full_graph=False)
    with pytest.warns(UserWarning, match="running cumulative eagerly"):
        out = lenient(framework.ones([3]))
    np.testing.assert_allclose(out.numpy(), [1.0, 2.0, 3.0])


def test_rollback_restores_the_eager_forward() -> None:
    model = to_static(Net())
    original = model.forward.rollback()
    assert not isinstance(model.forward, StaticFunction)
    assert original.__name__ == "forward"


def test_paddle_names_are_exported() -> None:
    assert framework.static.InputSpec is InputSpec
    assert framework.jit.to_static is to_static
    spec = InputSpec([-1, 3], "float32", "image")
    assert spec.shape == [None, 3] and spec.dtype == np.float32 and spec.name == "image"
    assert InputSpec.from_tensor(framework.ones([2, 5]), name="t").shape == [2, 5]
    with pytest.raises(ValueError):
        InputSpec([2, -3])


def test_a_static_sublayer_is_traced_into_its_parent(tmp_path) -> None:
    inner = to_static(Net(), input_spec=[InputSpec([None, 4])])
    outer = nn.Sequential(inner, nn.ReLU())
    outer.eval()
    framework.jit.save(outer, str(tmp_path / "outer"), input_spec=[InputSpec([None, 4])])
    graph = framework.jit.load(str(tmp_path / "outer")).program
    assert [n.op_type for n in graph.nodes] == ["linear", "relu", "linear", "relu"]
    assert graph.nodes[0].inputs[1] == "0.fc1.weight"
