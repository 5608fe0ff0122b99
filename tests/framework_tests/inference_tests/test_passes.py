"""Each graph pass on its own: the rewritten graph computes the same, with fewer ops."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.inference import Executor
from framework.inference.passes import (
    DEFAULT_PIPELINE,
    activation_fusion,
    constant_folding,
    conv_bn_fold,
    dead_code_elimination,
    identity_removal,
    linear_bn_fold,
    optimize,
)
from framework.inference.passes.memory_plan import plan_memory
from framework.jit import InputSpec, trace_layer


def _trace(model, *shape, seed: int = 0):
    rng = np.random.default_rng(seed)
    for name, tensor in model.state_dict().items():  # non-trivial batch-norm statistics
        if name.endswith("_mean"):
            tensor.set_value(rng.normal(0, 0.5, tensor.shape).astype(np.float32))
        elif name.endswith("_variance"):
            tensor.set_value(rng.uniform(0.5, 2.0, tensor.shape).astype(np.float32))
    model.eval()
    return trace_layer(model, [InputSpec([None, *shape], "float32", "x")])


def _same_outputs(before, after, *shape) -> None:
    x = np.random.default_rng(3).standard_normal((3, *shape)).astype(np.float32)
    want = Executor(before).run([x])
    got = Executor(after).run([x])
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
    after.validate()


class ConvBN(nn.Layer):
    def __init__(self, act=nn.ReLU, bias=False) -> None:
        super().__init__()
        self.conv = nn.Conv2D(3, 4, 3, padding=1, bias_attr=None if bias else False)
        self.bn = nn.BatchNorm2D(4)
        self.act = act()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


@pytest.mark.parametrize("bias", [False, True])
def test_conv_bn_fold_removes_the_batch_norm(bias) -> None:
    graph = _trace(ConvBN(bias=bias), 3, 6, 6)
    folded = conv_bn_fold.run(graph)
    assert graph.op_counts()["batch_norm"] == 1
    assert "batch_norm" not in folded.op_counts()
    assert folded.op_counts()["conv2d"] == 1
    assert len(folded.nodes) == len(graph.nodes) - 1
    assert graph.op_counts()["batch_norm"] == 1  # the input graph is left as it was
    _same_outputs(graph, folded, 3, 6, 6)


def test_conv_bn_fold_leaves_a_shared_conv_output() -> None:
    class Shared(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.conv = nn.Conv2D(3, 4, 1)
            self.bn = nn.BatchNorm2D(4)

        def forward(self, x):
            y = self.conv(x)
            return self.bn(y) + y

    graph = _trace(Shared(), 3, 4, 4)
    assert conv_bn_fold.run(graph).op_counts() == graph.op_counts()


def test_linear_bn_fold() -> None:
    model = nn.Sequential(nn.Linear(5, 4), nn.BatchNorm1D(4), nn.ReLU())
    graph = _trace(model, 5)
    folded = linear_bn_fold.run(graph)
    assert folded.op_counts() == {"linear": 1, "relu": 1}
    _same_outputs(graph, folded, 5)


@pytest.mark.parametrize(
    "act, spec",
    [
        (nn.ReLU, {"type": "relu"}),
        (nn.ReLU6, {"type": "clip", "min": 0.0, "max": 6.0}),
        (nn.Hardswish, {"type": "hardswish"}),
        (nn.Hardsigmoid, {"type": "hard_sigmoid", "slope": 0.1666667, "offset": 0.5}),
        (nn.Sigmoid, {"type": "sigmoid"}),
        (nn.Swish, {"type": "silu"}),
    ],
)
def test_activation_fusion_moves_the_activation_into_the_conv(act, spec) -> None:
    graph = conv_bn_fold.run(_trace(ConvBN(act), 3, 6, 6))
    fused = activation_fusion.run(graph)
    assert [n.op_type for n in fused.nodes] == ["conv2d"]
    assert fused.nodes[0].attrs["activation"] == spec
    assert fused.outputs == graph.outputs  # the output keeps its name
    _same_outputs(graph, fused, 3, 6, 6)


def test_activation_fusion_on_linear_add_and_batch_norm() -> None:
    class Residual(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(4, 4)
            self.bn = nn.BatchNorm1D(4)

        def forward(self, x):
            y = F.relu(self.fc(x))
            z = F.leaky_relu(y + x, 0.1)
            return F.hardswish(self.bn(z + 1.0))

    graph = _trace(Residual(), 4)
    fused = activation_fusion.run(graph)
    assert fused.op_counts() == {"linear": 1, "add": 2, "batch_norm": 1}
    kinds = [n.attrs.get("activation", {}).get("type") for n in fused.nodes]
    assert kinds == ["relu", "leaky_relu", None, "hardswish"]
    _same_outputs(graph, fused, 4)


def test_activation_fusion_needs_a_sole_reader() -> None:
    class TwoReaders(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, x):
            y = self.fc(x)
            return F.relu(y) + y

    graph = _trace(TwoReaders(), 4)
    assert activation_fusion.run(graph).op_counts() == graph.op_counts()


def test_identity_removal() -> None:
    class Identities(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(4, 4)
            self.drop = nn.Dropout(0.0, mode="downscale_in_infer")  # scale by 1 - 0

        def forward(self, x):
            y = self.drop(framework.clone(self.fc(x)))
            return framework.clone(F.relu(y))

    graph = _trace(Identities(), 4)
    assert graph.op_counts() == {"linear": 1, "identity": 2, "scale": 1, "relu": 1}
    cleaned = identity_removal.run(graph)
    assert cleaned.op_counts() == {"linear": 1, "relu": 1}
    assert cleaned.outputs == graph.outputs
    _same_outputs(graph, cleaned, 4)


def test_constant_folding_computes_weight_only_ops_once() -> None:
    class Scaled(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.w = self.create_parameter([4, 3])

        def forward(self, x):
            return framework.matmul(x, framework.transpose(self.w * 2.0, [1, 0]).T)

    graph = _trace(Scaled(), 4)
    assert graph.op_counts() == {"multiply": 1, "transpose": 2, "matmul": 1}
    folded = constant_folding.run(graph)
    assert folded.op_counts() == {"matmul": 1}
    matmul = folded.nodes[0]
    assert folded.initializers[matmul.inputs[1]].kind == "constant"
    _same_outputs(graph, folded, 4)


def test_constant_folding_does_not_blow_up_constants() -> None:
    def spread(x):
        return x + framework.broadcast_to(framework.ones([1, 1]), [512, 512])

    graph = trace_layer(spread, [InputSpec([512, 512], "float32", "x")])
    assert constant_folding.run(graph).op_counts() == {"expand": 1, "add": 1}


def test_dead_code_elimination_drops_unused_ops_and_weights() -> None:
    class Wasteful(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.used = nn.Linear(4, 2)
            self.unused = nn.Linear(4, 2)

        def forward(self, x):
            self.unused(x)  # computed, never returned
            return self.used(x)

    graph = _trace(Wasteful(), 4)
    assert graph.op_counts() == {"linear": 2}
    cleaned = dead_code_elimination.run(graph)
    assert cleaned.op_counts() == {"linear": 1}
    assert set(cleaned.initializers) == {"used.weight", "used.bias"}
    _same_outputs(graph, cleaned, 4)


def test_the_default_pipeline_on_a_residual_network() -> None:
    from framework.vision.models import resnet18

    graph = _trace(resnet18(num_classes=10), 3, 32, 32)
    optimized = optimize(graph, DEFAULT_PIPELINE)
    before, after = graph.op_counts(), optimized.op_counts()
    assert before["batch_norm"] == 20 and "batch_norm" not in after
    assert "relu" not in after  # every relu fused into a conv or a residual add
    assert len(optimized.nodes) == before["conv2d"] + 12  # + 8 adds, pool, avgpool, reshape, fc
    _same_outputs(graph, optimized, 3, 32, 32)


def test_memory_plan_reuses_buffers_and_writes_in_place() -> None:
    from framework.vision.models import resnet18

    graph = optimize(_trace(resnet18(num_classes=10), 3, 32, 32))
    plan = plan_memory(graph)
    adds = [i for i, n in enumerate(graph.nodes) if n.op_type == "add"]
    assert all(plan.inplace[i] is not None for i in adds)  # residual adds overwrite a branch
    intermediate = sum(len(n.outputs) for n in graph.nodes)
    executor = Executor(graph)
    x = np.random.default_rng(0).standard_normal((2, 3, 32, 32)).astype(np.float32)
    first = executor.run([x])[0]
    buffers = len(executor.arena._keep)
    second = executor.run([x])[0]
    assert len(executor.arena._keep) == buffers  # the second run allocates nothing new
    assert buffers < intermediate / 2  # dead activations were handed on to later ops
    np.testing.assert_array_equal(first, second)
    assert first is not second  # outputs are never recycled


def test_memory_plan_never_writes_into_inputs_or_weights() -> None:
    class InPlaceCandidates(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.bias = self.create_parameter([4], is_bias=True)

        def forward(self, x):
            return F.relu(x + self.bias) * 2.0

    graph = _trace(InPlaceCandidates(), 4)
    plan = plan_memory(graph)
    # The add may not overwrite the input x or the bias; the relu overwrites the add's dead
    # result; the multiply's result is the graph output, which never lives in a reused buffer.
    assert plan.inplace == [None, 0, None]
    x = np.ones((2, 4), np.float32)
    Executor(graph).run([x])
    np.testing.assert_array_equal(x, np.ones((2, 4), np.float32))
