"""Op by op: a traced graph run by the executor (raw and optimised) and replayed with autograd
matches the eager ops, at a batch size it was not traced with."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.backends.cpu.tuning import TUNING
from framework.inference import Executor
from framework.inference.passes import optimize
from framework.jit import InputSpec, trace_layer
from framework.jit.replay import replay

RNG = np.random.default_rng(7)
W = framework.to_tensor(RNG.standard_normal((4, 3, 3, 3)).astype(np.float32))
W3 = framework.to_tensor(RNG.standard_normal((6, 1, 3, 3)).astype(np.float32))
W1 = framework.to_tensor(RNG.standard_normal((4, 3, 3)).astype(np.float32))
WT = framework.to_tensor(RNG.standard_normal((3, 2, 3, 3)).astype(np.float32))
B = framework.to_tensor(RNG.standard_normal(4).astype(np.float32))
G = framework.to_tensor(RNG.uniform(0.5, 1.5, 3).astype(np.float32))
MASK = framework.to_tensor(RNG.random((3, 6, 6)) > 0.5)
TABLE = framework.to_tensor(RNG.standard_normal((10, 4)).astype(np.float32))
INDEX = framework.to_tensor(np.array([2, 0, 1]))

# name -> (function of x, per-sample input shape)
CASES = {
    "conv2d_stride_dilation": (
        lambda x: F.conv2d(x, W, B, stride=2, padding=2, dilation=2),
        (3, 6, 6),
    ),
    "conv2d_nhwc": (lambda x: F.conv2d(x, W, None, padding=1, data_format="NHWC"), (6, 6, 3)),
    "conv2d_groups": (lambda x: F.conv2d(x, W3, None, groups=3), (3, 6, 6)),
    "conv2d_same": (lambda x: F.conv2d(x, W, B, padding="same"), (3, 6, 6)),
    "conv1d": (lambda x: F.conv1d(x, W1, B, padding=1), (3, 8)),
    "conv1d_nlc": (lambda x: F.conv1d(x, W1, None, stride=2, data_format="NLC"), (8, 3)),
    "conv2d_transpose": (
        lambda x: F.conv2d_transpose(x, WT, stride=2, padding=1, output_padding=1),
        (3, 5, 5),
    ),
    "max_pool_ceil": (lambda x: F.max_pool2d(x, 3, 2, padding=1, ceil_mode=True), (3, 6, 6)),
    "max_pool1d": (lambda x: F.max_pool1d(x, 2), (3, 8)),
    "avg_pool_exclusive": (lambda x: F.avg_pool2d(x, 3, 2, padding=1), (3, 6, 6)),
    "avg_pool_inclusive": (lambda x: F.avg_pool2d(x, 2, 1, padding=1, exclusive=False), (3, 5, 5)),
    "avg_pool_divisor": (lambda x: F.avg_pool2d(x, 2, divisor_override=3), (3, 6, 6)),
    "adaptive_avg_uneven": (lambda x: F.adaptive_avg_pool2d(x, (4, 3)), (3, 7, 5)),
    "adaptive_avg_global": (lambda x: F.adaptive_avg_pool2d(x, 1), (3, 5, 5)),
    "adaptive_max_uneven": (lambda x: F.adaptive_max_pool2d(x, (2, 3)), (3, 5, 7)),
    "batch_norm_nhwc": (
        lambda x: F.batch_norm(x, B[:3], G, G, B[:3], data_format="NHWC"),
        (4, 4, 3),
    ),
    "layer_norm": (lambda x: F.layer_norm(x, [4, 5], None, None), (3, 4, 5)),
    "group_norm": (lambda x: F.group_norm(x, 3, 1e-5, G, B[:3]), (3, 4, 4)),
    "instance_norm": (lambda x: F.instance_norm(x, weight=G, bias=B[:3]), (3, 4, 4)),
    "softmax": (lambda x: F.softmax(x, axis=1), (5,)),
    "log_softmax": (lambda x: F.log_softmax(x, axis=-1), (5,)),
    "gelu": (lambda x: F.gelu(x) + F.gelu(x, approximate=True), (5,)),
    "activations": (
        lambda x: (
            F.elu(x)
            + F.selu(x)
            + F.celu(x, 0.5)
            + F.leaky_relu(x, 0.2)
            + F.silu(x)
            + F.hardsigmoid(x)
            + F.hardswish(x)
            + F.relu6(x)
            + F.mish(x)
            + F.softplus(x, 2.0)
            + F.softsign(x)
            + F.tanhshrink(x)
            + F.log_sigmoid(x)
            + F.sigmoid(x)
            + F.hardshrink(x, 0.3)
            + F.softshrink(x, 0.3)
            + F.thresholded_relu(x, 0.2)
        ),
        (6,),
    ),  # fmt: skip
    "prelu": (lambda x: F.prelu(x, G), (3, 4)),
    "math": (
        lambda x: (
            framework.exp(x)
            - framework.log(framework.abs(x) + 1.0)
            + framework.sqrt(framework.square(x) + 1.0) * framework.rsqrt(x * x + 2.0)
            + framework.sin(x) * framework.cos(x)
            + framework.tanh(x) / (framework.erf(x) + 2.0)
            + framework.maximum(x, -x)
            + framework.minimum(x, x * 0.5)
            + framework.floor(x)
            + framework.pow(framework.abs(x), 1.5)
            + framework.scale(x, 2.0, 1.0)
            + framework.clip(x, -0.5, 0.5)
            + framework.atan(x)
            + framework.log1p(framework.abs(x))
        ),
        (6,),
    ),  # fmt: skip
    "slicing": (lambda x: x[:, 1:3] * 2.0 + x[:, ::2][:, :2] + x[..., -1:][:, :2], (4, 5)),
    "int_index": (lambda x: x[:, 0] + x[:, -1], (3, 4)),
    "concat_split": (
        lambda x: framework.concat(framework.split(x, [1, 2], axis=1)[::-1], axis=1),
        (3, 4),
    ),
    "stack_unstack": (lambda x: framework.stack(framework.unstack(x, axis=1)[::-1], 2), (3, 4)),
    "transpose_reshape": (
        lambda x: framework.reshape(framework.transpose(x, [0, 2, 1]), [-1, 12]),
        (3, 4),
    ),
    "broadcast_tile": (
        lambda x: framework.broadcast_to(x[:, :1], [x.shape[0], 4]) + framework.tile(x, [1, 1]),
        (4,),
    ),
    "pad": (lambda x: F.pad(x, [1, 2, 0, 1], mode="reflect") + 1.0, (3, 4, 4)),
    "flip_roll": (lambda x: framework.flip(x, [1]) + framework.roll(x, 1, axis=1), (5,)),
    "gather": (lambda x: framework.index_select(x, INDEX, axis=1), (4,)),
    "reductions": (
        lambda x: (
            framework.sum(x, axis=1)
            + framework.mean(x, axis=[1, 2])[:, None]
            + framework.max(x, axis=1)
            + framework.min(x, axis=1, keepdim=True)[:, 0]
            + framework.prod(x, axis=1)
            + framework.logsumexp(x, axis=1)
            + framework.var(x, axis=1)
        ),
        (3, 4),
    ),  # fmt: skip
    "matmul": (
        lambda x: framework.matmul(x, x, transpose_y=True) + framework.matmul(x, W1[0]),
        (3, 3),
    ),
    "where_cast": (lambda x: framework.where(MASK, x, -x).astype("float64"), (3, 6, 6)),
    "linear_dropout": (
        lambda x: F.dropout(F.linear(x, TABLE.T), 0.3, training=False, mode="downscale_in_infer"),
        (4,),
    ),
}


def _run_cases():
    return sorted(CASES)


@pytest.mark.parametrize("name", _run_cases())
def test_executor_and_replay_match_eager(name) -> None:
    function, shape = CASES[name]
    graph = trace_layer(function, [InputSpec([None, *shape], "float32", "x")])
    x = RNG.standard_normal((3, *shape)).astype(np.float32)
    with framework.no_grad():
        want = function(framework.to_tensor(x)).numpy()
    for runnable in (graph, optimize(graph)):
        got = Executor(runnable).run([x])[0]
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    replayed = replay(
        graph,
        [framework.to_tensor(x)],
        [framework.to_tensor(graph.tensors[n]) for n in graph.initializers],
    )[0]
    np.testing.assert_allclose(replayed.numpy(), want, rtol=1e-5, atol=1e-5)


def test_embedding_with_integer_ids() -> None:
    def lookup(ids):
        return F.embedding(ids, TABLE, padding_idx=0)

    graph = trace_layer(lookup, [InputSpec([None, 3], "int64", "ids")])
    ids = np.array([[1, 0, 9], [4, 4, 2]], dtype=np.int64)
    with framework.no_grad():
        want = lookup(framework.to_tensor(ids)).numpy()
    np.testing.assert_array_equal(Executor(graph).run([ids])[0], want)
    assert graph.nodes[0].op_type == "embedding"


def test_replay_gradients_equal_eager_gradients() -> None:
    def block(x):
        y = F.conv2d(x, W, B, padding=1)
        return F.adaptive_avg_pool2d(F.relu(y), 1).sum()

    graph = trace_layer(block, [InputSpec([None, 3, 6, 6], "float32", "x")])
    x = RNG.standard_normal((2, 3, 6, 6)).astype(np.float32)
    weights = {
        n: framework.to_tensor(graph.tensors[n], stop_gradient=False) for n in graph.initializers
    }
    eager_x = framework.to_tensor(x, stop_gradient=False)
    block(eager_x).backward()
    replay_x = framework.to_tensor(x, stop_gradient=False)
    replay(graph, [replay_x], list(weights.values()))[0].backward()
    np.testing.assert_allclose(replay_x.grad.numpy(), eager_x.grad.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("chunk", [64, 4096, 1 << 20])
def test_chunked_kernels_give_the_same_result_for_any_chunk_size(monkeypatch, chunk) -> None:

    monkeypatch.setattr(TUNING, "predictor_chunk_bytes", chunk)
    monkeypatch.setattr(TUNING, "predictor_pool_chunk_bytes", chunk)
    w2 = framework.to_tensor(RNG.standard_normal((5, 4, 1, 1)).astype(np.float32))

    def block(x):
        z = F.relu(F.conv2d(x, W, B, padding=1))  # row bands of one image, or whole images
        y = F.max_pool2d(z, 3, 2, padding=1)
        return F.conv2d(y, w2, None, stride=2) + F.conv2d(z, w2, None, stride=4)

    graph = optimize(trace_layer(block, [InputSpec([None, 3, 8, 8], "float32", "x")]))
    assert graph.nodes[0].attrs.get("activation") == {"type": "relu"}
    x = RNG.standard_normal((3, 3, 8, 8)).astype(np.float32)
    with framework.no_grad():
        want = block(framework.to_tensor(x)).numpy()
    np.testing.assert_allclose(Executor(graph).run([x])[0], want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("batch", [1, 3])
def test_conv_work_shared_over_cores_matches(batch) -> None:
    from framework.core.conv_geometry import ConvGeometry
    from framework.inference.kernels import conv_gemm

    rng = np.random.default_rng(batch)
    for kernel, size, channels in ((3, 8, 16), (1, 6, 32), (3, 2, 64)):
        x = rng.standard_normal((batch, size, size, 8)).astype(np.float32)
        w = rng.standard_normal((channels, 8, kernel, kernel)).astype(np.float32)
        pad = kernel // 2
        geom = ConvGeometry.for_input(
            (size, size), (kernel, kernel), (1, 1), ((pad, pad), (pad, pad)), (1, 1), 1
        )
        weight_t = np.ascontiguousarray(w.transpose(0, 2, 3, 1)).reshape(channels, -1)
        want = F.conv2d(
            framework.to_tensor(x.transpose(0, 3, 1, 2)), framework.to_tensor(w), padding=pad
        ).numpy()
        for workers in (1, 2, 3):  # whole chunks per core, or output channels per core
            out = np.empty((batch, *geom.out_size, channels), np.float32)
            conv_gemm.conv_into(np, x, weight_t, geom, out, workers=workers)
            np.testing.assert_allclose(out.transpose(0, 3, 1, 2), want, rtol=1e-4, atol=1e-4)
