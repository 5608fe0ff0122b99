"""`static.nn.cond` / `while_loop`: eager, traced into cond/while_loop nodes, saved and loaded,
replayed with gradients; parity with Paddle's own ops."""

from __future__ import annotations

import json

import numpy as np
import pytest

import framework
from framework.jit import FORMAT_VERSION, InputSpec
from framework.jit.graph import Graph
from framework.static.nn import cond, while_loop
from framework.testing.gradient_check import check_backward


def branchy(x):
    return cond(x.sum() > 0, lambda: x * 2.0 + 1.0, lambda: framework.tanh(x) - 3.0)


def power_loop(x, n):
    def keep_going(i, s):
        return i < n

    def step(i, s):
        return [i + 1, s * x + 0.5]

    _, s = while_loop(keep_going, step, [framework.zeros([], "int64"), x])
    return s


def nested(x):
    """A cond inside a loop body: halve positive rows' sum until it is under 1."""

    def keep_going(s):
        return s.abs().max() > 1.0

    def step(s):
        return cond(s.sum() > 0, lambda: s * 0.5, lambda: s * 0.25)

    (s,) = while_loop(keep_going, step, [x])
    return s


def _x(value, rows=2, dtype="float32"):
    return framework.to_tensor(np.full((rows, 3), value, dtype) * np.arange(1, 4, dtype=dtype))


def _n(count):
    return framework.to_tensor(np.array(count, "int64"))


def test_it_runs_the_taken_branch_eagerly():
    np.testing.assert_allclose(branchy(_x(1.0)).numpy(), _x(1.0).numpy() * 2 + 1)
    np.testing.assert_allclose(branchy(_x(-1.0)).numpy(), np.tanh(_x(-1.0).numpy()) - 3)
    assert cond(framework.to_tensor(False), lambda: 1) is None


@pytest.mark.parametrize("value", [1.0, -1.0])
def test_it_keeps_both_branches_in_the_graph(value, tmp_path):
    static = framework.jit.to_static(branchy, input_spec=[InputSpec([None, 3], "float32")])
    x = _x(value)
    np.testing.assert_allclose(static(x).numpy(), branchy(x).numpy(), rtol=1e-6)
    assert static.concrete_program.op_counts()["cond"] == 1
    framework.jit.save(static, tmp_path / "m")
    loaded = framework.jit.load(tmp_path / "m")
    for sign in (1.0, -1.0):  # the loaded model branches per input
        x = _x(sign, rows=5)
        np.testing.assert_allclose(loaded(x).numpy(), branchy(x).numpy(), rtol=1e-6)


def test_it_loops_as_many_times_as_the_input_says(tmp_path):
    specs = [InputSpec([None, 3], "float32"), InputSpec([], "int64")]
    static = framework.jit.to_static(power_loop, input_spec=specs)
    framework.jit.save(static, tmp_path / "m", input_spec=specs)
    loaded = framework.jit.load(tmp_path / "m")
    for count in (0, 1, 4):
        x = _x(0.5, rows=3)
        want = power_loop(x, _n(count)).numpy()
        np.testing.assert_allclose(static(x, _n(count)).numpy(), want, rtol=1e-6)
        np.testing.assert_allclose(loaded(x, _n(count)).numpy(), want, rtol=1e-6)


def test_it_nests_a_cond_inside_a_loop(tmp_path):
    framework.jit.save(nested, tmp_path / "m", input_spec=[InputSpec([None, 3], "float32")])
    loaded = framework.jit.load(tmp_path / "m")
    for value in (3.0, -7.0, 0.1):
        x = _x(value)
        np.testing.assert_allclose(loaded(x).numpy(), nested(x).numpy(), rtol=1e-6)


def test_the_json_round_trip_keeps_the_sub_graphs(tmp_path):
    graph = framework.jit.trace_layer(branchy, [InputSpec([None, 3], "float32")])
    doc = json.loads(json.dumps(graph.to_json()))
    assert doc["format_version"] == FORMAT_VERSION == 2
    again = Graph.from_json(doc, graph.tensors)
    assert again.to_json()["nodes"] == doc["nodes"]
    broken = json.loads(json.dumps(doc))
    node = next(n for n in broken["nodes"] if n["op_type"] == "cond")
    node["attrs"]["true_graph"]["outputs"] = []
    with pytest.raises(ValueError, match="true_graph"):
        Graph.from_json(broken, graph.tensors)


def test_gradients_follow_the_taken_branch_eagerly():
    for value in (1.0, -1.0):
        check_backward(branchy, [np.full((2, 3), value) * np.arange(1, 4)])
    check_backward(lambda x: power_loop(x, _n(3)), [np.full((2, 3), 0.7)])


def test_replayed_graph_gradients_match_numerical_ones(tmp_path):
    framework.jit.save(branchy, tmp_path / "b", input_spec=[InputSpec([None, 3], "float64")])
    specs = [InputSpec([None, 3], "float64"), InputSpec([], "int64")]
    framework.jit.save(power_loop, tmp_path / "p", input_spec=specs)
    loaded_branchy = framework.jit.load(tmp_path / "b")
    loaded_loop = framework.jit.load(tmp_path / "p")
    for value in (1.0, -1.0):
        check_backward(loaded_branchy, [np.full((2, 3), value) * np.arange(1, 4)])
    check_backward(lambda x: loaded_loop(x, _n(3)), [np.full((2, 3), 0.7)])


def test_a_branch_that_changes_the_dtype_is_reported():
    def bad(x):
        return cond(x.sum() > 0, lambda: x, lambda: x.astype("int32"))

    with pytest.raises(framework.jit.TracingError, match="cast or reshape"):
        framework.jit.trace_layer(bad, [InputSpec([None, 3], "float32")])


@pytest.fixture(scope="module")
def paddle():
    return pytest.importorskip("paddle")


def test_cond_and_while_loop_match_paddle(paddle):
    theirs_x = paddle.to_tensor(np.full((2, 3), -0.5, "float32"))
    theirs = paddle.static.nn.cond(
        theirs_x.sum() > 0, lambda: theirs_x * 2.0 + 1.0, lambda: paddle.tanh(theirs_x) - 3.0
    )
    x = framework.to_tensor(np.full((2, 3), -0.5, "float32"))
    np.testing.assert_allclose(branchy(x).numpy(), theirs.numpy(), rtol=1e-6)
    n = paddle.to_tensor(np.array(3, "int64"))
    i, s = paddle.static.nn.while_loop(
        lambda i, s: i < n, lambda i, s: [i + 1, s * theirs_x + 0.5],
        [paddle.zeros([], "int64"), theirs_x.clone()],  # Paddle assigns into the loop vars
    )  # fmt: skip
    np.testing.assert_allclose(power_loop(x, _n(3)).numpy(), s.numpy(), rtol=1e-6)


def test_a_tensor_leaked_out_of_a_branch_is_reported():
    kept = []

    def leaky(x):
        def true_fn():
            kept.append(x * 2.0)
            return x

        out = cond(x.sum() > 0, true_fn, lambda: -x)
        return out + kept[-1]

    with pytest.raises(framework.jit.TracingError, match="does not return"):
        framework.jit.trace_layer(leaky, [InputSpec([None, 3], "float32")])
