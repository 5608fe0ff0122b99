"""Running a batch as one independent slice per core: which graphs qualify, and the results
equal an unsplit run, also for graphs that mix the samples (which must not be split)."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.inference import Executor
from framework.inference.passes import optimize
from framework.inference.passes.batch_split import batch_separable
from framework.jit import InputSpec, trace_layer

RNG = np.random.default_rng(11)
W = framework.to_tensor(RNG.standard_normal((6, 3, 3, 3)).astype(np.float32))
B = framework.to_tensor(RNG.standard_normal(6).astype(np.float32))
FC = framework.to_tensor(RNG.standard_normal((24, 5)).astype(np.float32))
ROW = framework.to_tensor(RNG.standard_normal((1, 5)).astype(np.float32))
SPEC = [InputSpec([None, 3, 4, 4], "float32", "x")]


def _features(x):
    y = F.relu6(F.conv2d(x, W, B, padding=1))
    return F.max_pool2d(y, 2).reshape([0, -1])  # [N, 24]


SEPARABLE = {
    "conv_pool_linear_softmax": lambda x: F.softmax(F.linear(_features(x), FC), axis=-1),
    "flatten_and_concat": lambda x: framework.concat([_features(x), x.flatten(1)], axis=1),
}
MIXING = {
    "mean_over_batch": lambda x: _features(x) - _features(x).mean(axis=0),
    "softmax_over_batch": lambda x: F.softmax(_features(x), axis=0),
    "reshape_across_samples": lambda x: _features(x).reshape([-1]),
}


def _graph(function):
    return optimize(trace_layer(function, SPEC))


@pytest.mark.parametrize("name", sorted(SEPARABLE))
def test_per_sample_graphs_are_separable(name) -> None:
    assert batch_separable(_graph(SEPARABLE[name]))


@pytest.mark.parametrize("name", sorted(MIXING))
def test_graphs_mixing_samples_are_not_separable(name) -> None:
    assert not batch_separable(_graph(MIXING[name]))


def test_weight_as_big_as_the_batch_is_not_separable() -> None:
    graph = _graph(lambda x: F.linear(_features(x), FC) + ROW)
    assert batch_separable(graph)  # a [1, 5] row broadcasts over the batch
    (name,) = [n for n in graph.initializers if graph.tensors[n].shape == (1, 5)]
    # A [2, 5] one adds row i to sample i at batch 2: slices would break that.
    graph.tensors[name] = RNG.standard_normal((2, 5)).astype(np.float32)
    assert not batch_separable(graph)
    x = RNG.standard_normal((2, 3, 4, 4)).astype(np.float32)
    want = Executor(graph).run([x])[0]
    np.testing.assert_allclose(Executor(graph, workers=2).run([x])[0], want, rtol=1e-6)


@pytest.mark.parametrize("batch", [1, 2, 5])
@pytest.mark.parametrize("name", sorted(SEPARABLE) + sorted(MIXING))
def test_split_runs_equal_unsplit_runs(name, batch) -> None:
    function = {**SEPARABLE, **MIXING}[name]
    graph = _graph(function)
    x = RNG.standard_normal((batch, 3, 4, 4)).astype(np.float32)
    with framework.no_grad():
        want = function(framework.to_tensor(x)).numpy()
    split = Executor(graph, workers=2)
    for _ in range(2):  # again with the twins' buffers reused
        np.testing.assert_allclose(split.run([x])[0], want, rtol=1e-5, atol=1e-5)
    used_twins = name in SEPARABLE and batch > 1
    assert len(split._twins) == (2 if used_twins else 0)


def test_inputs_with_different_batch_sizes_are_an_error() -> None:
    def two(x, y):
        return F.linear(_features(x), FC) + y

    graph = optimize(trace_layer(two, [*SPEC, InputSpec([None, 5], "float32", "y")]))
    assert batch_separable(graph)
    x = RNG.standard_normal((3, 3, 4, 4)).astype(np.float32)
    y = RNG.standard_normal((2, 5)).astype(np.float32)
    with pytest.raises(ValueError, match="batch"):
        Executor(graph, workers=2).run([x, y])
