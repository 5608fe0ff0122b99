"""The predictor's depthwise convolution (`kernels/depthwise.py`) against a direct NumPy sum
over the taps, and through the predictor against the eager model (MobileNet-style blocks)."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.backends.cpu.tuning import TUNING
from framework.core.conv_geometry import ConvGeometry
from framework.inference import Executor
from framework.inference.kernels import depthwise
from framework.inference.passes import optimize
from framework.jit import InputSpec, trace_layer


def _reference(x, w, bias, stride, pads, dilation):
    """NCHW depthwise convolution by an explicit loop over the taps (float64)."""
    n, c, h, wd = x.shape
    (top, bottom), (left, right) = pads
    padded = np.zeros((n, c, h + top + bottom, wd + left + right))
    padded[:, :, top : top + h, left : left + wd] = x
    kh, kw = w.shape[2:]
    (sh, sw), (dh, dw) = stride, dilation
    ho = (padded.shape[2] - dh * (kh - 1) - 1) // sh + 1
    wo = (padded.shape[3] - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, c, ho, wo))
    for i in range(kh):
        for j in range(kw):
            window = padded[:, :, i * dh : i * dh + sh * (ho - 1) + 1 : sh]
            window = window[:, :, :, j * dw : j * dw + sw * (wo - 1) + 1 : sw]
            out += window * w[None, :, 0, i, j, None, None]
    if bias is not None:
        out += bias[None, :, None, None]
    return out


CASES = [
    # batch, channels, height, width, kernel, stride, pads ((top, bottom), (left, right)), dilation
    (1, 1, 5, 5, (3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1)),
    (2, 7, 9, 7, (3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1)),
    (3, 5, 10, 11, (3, 3), (2, 2), ((1, 1), (1, 1)), (1, 1)),
    (2, 33, 7, 8, (3, 3), (2, 2), ((1, 1), (1, 1)), (1, 1)),
    (1, 13, 8, 9, (5, 5), (2, 2), ((3, 3), (3, 3)), (2, 2)),  # padding wider than the reach
    (2, 3, 6, 5, (3, 3), (3, 3), ((0, 0), (0, 0)), (1, 1)),
    (2, 6, 7, 9, (3, 2), (1, 2), ((0, 2), (1, 0)), (1, 1)),  # asymmetric everything
    (1, 4, 9, 9, (3, 3), (1, 3), ((2, 2), (2, 2)), (2, 3)),  # dilation not a stride multiple
    (2, 8, 6, 6, (3, 3), (2, 2), ((1, 1), (1, 1)), (2, 2)),  # dilation a stride multiple
    (2, 3, 4, 4, (1, 1), (1, 1), ((0, 0), (0, 0)), (1, 1)),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: "x".join(map(str, c[:4])))
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("band_bytes", [1, 256 << 10])  # one output row per band, or images
def test_depthwise_matches_a_direct_sum(monkeypatch, case, workers, band_bytes) -> None:
    monkeypatch.setattr(TUNING, "depthwise_band_bytes", band_bytes)
    n, c, h, w, kernel, stride, pads, dilation = case
    rng = np.random.default_rng(c * h + w)
    x = rng.standard_normal((n, c, h, w)).astype(np.float32)
    weight = rng.standard_normal((c, 1, *kernel)).astype(np.float32)
    bias = rng.standard_normal(c).astype(np.float32)
    geom = ConvGeometry.for_input((h, w), kernel, stride, pads, dilation, c)
    plan = depthwise.DepthwisePlan(np, depthwise.taps_of(np, weight), bias, geom)
    out = np.full((n, *geom.out_size, c), np.nan, np.float32)
    relu6 = lambda y: np.clip(y, 0, 6, out=y)  # noqa: E731
    depthwise.depthwise_into(np, x.transpose(0, 2, 3, 1), plan, out, relu6, workers)
    want = np.clip(_reference(x, weight, bias, stride, pads, dilation), 0, 6)
    np.testing.assert_allclose(out.transpose(0, 3, 1, 2), want, rtol=1e-5, atol=1e-5)


def test_depthwise_without_bias_or_activation_reads_strided_input() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 6, 7, 5)).astype(np.float32)  # NCHW memory, read as NHWC view
    weight = rng.standard_normal((6, 1, 3, 3)).astype(np.float32)
    geom = ConvGeometry.for_input((7, 5), (3, 3), (2, 1), ((1, 1), (1, 1)), (1, 1), 6)
    plan = depthwise.DepthwisePlan(np, depthwise.taps_of(np, weight), None, geom)
    out = np.empty((2, *geom.out_size, 6), np.float32)
    depthwise.depthwise_into(np, x.transpose(0, 2, 3, 1), plan, out)
    want = _reference(x, weight, None, (2, 1), ((1, 1), (1, 1)), (1, 1))
    np.testing.assert_allclose(out.transpose(0, 3, 1, 2), want, rtol=1e-5, atol=1e-5)


class InvertedResidual(framework.nn.Layer):
    """MobileNetV2's block: 1x1 expand, depthwise 3x3, 1x1 project, residual add."""

    def __init__(self, channels: int, expand: int, stride: int) -> None:
        super().__init__()
        nn = framework.nn
        hidden = channels * expand
        self.stride = stride
        self.expand = nn.Conv2D(channels, hidden, 1, bias_attr=False)
        self.bn1 = nn.BatchNorm2D(hidden)
        self.dw = nn.Conv2D(hidden, hidden, 3, stride, 1, groups=hidden, bias_attr=False)
        self.bn2 = nn.BatchNorm2D(hidden)
        self.project = nn.Conv2D(hidden, channels, 1, bias_attr=False)
        self.bn3 = nn.BatchNorm2D(channels)

    def forward(self, x):
        y = F.relu6(self.bn1(self.expand(x)))
        y = F.relu6(self.bn2(self.dw(y)))
        y = self.bn3(self.project(y))
        return x + y if self.stride == 1 else y


@pytest.mark.parametrize("stride", [1, 2])
@pytest.mark.parametrize("batch", [1, 3])
def test_inverted_residual_block_matches_eager(stride, batch) -> None:
    framework.seed(stride)
    block = InvertedResidual(5, 3, stride)
    rng = np.random.default_rng(stride)
    for name, tensor in block.state_dict().items():
        if name.endswith("_mean"):
            tensor.set_value(rng.normal(0, 0.3, tensor.shape).astype(np.float32))
        elif name.endswith("_variance"):
            tensor.set_value(rng.uniform(0.5, 1.5, tensor.shape).astype(np.float32))
    block.eval()
    graph = optimize(trace_layer(block, [InputSpec([None, 5, 9, 11], "float32", "x")]))
    depthwise_nodes = [n for n in graph.nodes if n.op_type == "conv2d" and n.attrs["groups"] > 1]
    assert depthwise_nodes and all(n.attrs.get("activation") for n in depthwise_nodes)
    x = rng.standard_normal((batch, 5, 9, 11)).astype(np.float32) * 3
    with framework.no_grad():
        want = block(framework.to_tensor(x)).numpy()
    for workers in (1, 2):
        got = Executor(graph, workers=workers).run([x])[0]
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


POOLS = [  # kernel, stride, padding, ceil_mode, height, width
    (3, 2, 1, False, 9, 11),
    (3, 2, 1, True, 10, 7),
    (2, 2, 0, True, 7, 9),
    (3, 1, 1, False, 5, 6),
    (3, 3, 0, False, 10, 8),
    (5, 2, 2, True, 9, 9),
]


@pytest.mark.parametrize("pool", POOLS, ids=lambda p: "-".join(map(str, p)))
@pytest.mark.parametrize("batch", [1, 3])
@pytest.mark.parametrize("band_bytes", [1, 256 << 10])
def test_channel_last_max_pool_bands_match_eager(monkeypatch, pool, batch, band_bytes) -> None:
    """Max pooling of a conv output (channel-last memory) takes the banded phase-split path."""
    monkeypatch.setattr(TUNING, "depthwise_band_bytes", band_bytes)
    kernel, stride, padding, ceil_mode, h, w = pool
    weight = framework.to_tensor(np.random.default_rng(h).standard_normal((6, 3, 1, 1)))
    weight = weight.astype("float32")

    def block(x):
        y = F.conv2d(x, weight)  # NHWC memory from here on
        return F.max_pool2d(y, kernel, stride, padding=padding, ceil_mode=ceil_mode)

    graph = optimize(trace_layer(block, [InputSpec([None, 3, h, w], "float32", "x")]))
    x = np.random.default_rng(w).standard_normal((batch, 3, h, w)).astype(np.float32)
    with framework.no_grad():
        want = block(framework.to_tensor(x)).numpy()
    for workers in (1, 2):
        got = Executor(graph, workers=workers).run([x])[0]
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def _fused_ops(executor) -> list[str]:
    return [step[-1].op_type for step in executor._steps]


class TwoBlocks(framework.nn.Layer):
    """Block input read from the graph input (NCHW memory) and from a block output (NHWC)."""

    def __init__(self) -> None:
        super().__init__()
        self.first = InvertedResidual(4, 6, 2)
        self.second = InvertedResidual(4, 2, 1)

    def forward(self, x):
        return self.second(self.first(x))


@pytest.mark.parametrize("band_bytes", [1, 2 << 20])  # one depthwise row per band, or images
@pytest.mark.parametrize("batch", [1, 3])
def test_fused_inverted_residual_blocks_match_eager(monkeypatch, band_bytes, batch) -> None:

    monkeypatch.setattr(TUNING, "inverted_residual_band_bytes", band_bytes)
    framework.seed(4)
    model = TwoBlocks()
    model.eval()
    graph = optimize(trace_layer(model, [InputSpec([None, 4, 11, 10], "float32", "x")]))
    x = np.random.default_rng(batch).standard_normal((batch, 4, 11, 10)).astype(np.float32)
    with framework.no_grad():
        want = model(framework.to_tensor(x)).numpy()
    for workers in (1, 2):
        executor = Executor(graph, workers=workers)
        assert _fused_ops(executor).count("inverted_residual") == 2
        for _ in range(2):
            np.testing.assert_allclose(executor.run([x])[0], want, rtol=1e-4, atol=1e-4)


def test_fused_chain_without_biases_or_activations_matches_eager() -> None:
    rng = np.random.default_rng(8)
    expand = framework.to_tensor(rng.standard_normal((9, 3, 1, 1)).astype(np.float32))
    dw = framework.to_tensor(rng.standard_normal((9, 1, 3, 3)).astype(np.float32))
    project = framework.to_tensor(rng.standard_normal((5, 9, 1, 1)).astype(np.float32))

    def chain(x):
        y = F.conv2d(F.conv2d(x, expand), dw, padding=2, dilation=2, stride=2, groups=9)
        return F.conv2d(y, project)

    graph = optimize(trace_layer(chain, [InputSpec([None, 3, 9, 8], "float32", "x")]))
    executor = Executor(graph)
    assert _fused_ops(executor) == ["inverted_residual"]
    x = rng.standard_normal((2, 3, 9, 8)).astype(np.float32)
    with framework.no_grad():
        want = chain(framework.to_tensor(x)).numpy()
    np.testing.assert_allclose(executor.run([x])[0], want, rtol=1e-4, atol=1e-4)
    unfused = Executor(graph, precompute=False)  # weights passed per run: no fusion
    assert "inverted_residual" not in _fused_ops(unfused)
    weights = [graph.tensors[n] for n in graph.initializers]
    np.testing.assert_allclose(unfused.run([x], weights)[0], want, rtol=1e-4, atol=1e-4)
