"""Winograd F(2x2, 3x3) convolution against a float64 direct convolution, and in the
predictor (ResNet-style block) against the eager model."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.inference import Executor
from framework.inference.kernels import winograd
from framework.inference.passes import optimize
from framework.jit import InputSpec, trace_layer
from framework.ops.nn.conv_geometry import ConvGeometry

torch = pytest.importorskip("torch")

CASES = [  # batch, in channels, out channels, height, width, (top, bottom, left, right) padding
    (2, 16, 24, 7, 9, (1, 1, 1, 1)),  # odd output rows and columns
    (1, 32, 16, 8, 8, (1, 1, 1, 1)),
    (3, 17, 19, 5, 6, (0, 0, 0, 0)),
    (2, 16, 16, 4, 3, (2, 2, 2, 2)),
    (2, 18, 16, 6, 7, (0, 2, 1, 0)),  # asymmetric
    (1, 16, 20, 1, 1, (1, 1, 1, 1)),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: "x".join(map(str, c[:5])))
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("chunk", [1, 16 << 20])  # one row of tiles per band, or images
def test_winograd_matches_direct_convolution(monkeypatch, case, workers, chunk) -> None:
    monkeypatch.setattr(winograd, "CHUNK_BYTES", chunk)
    n, c, o, h, w, (top, bottom, left, right) = case
    rng = np.random.default_rng(c + o)
    x = rng.standard_normal((n, c, h, w)).astype(np.float32)
    weight = rng.standard_normal((o, c, 3, 3)).astype(np.float32)
    geom = ConvGeometry.for_input((h, w), (3, 3), (1, 1), ((top, bottom), (left, right)), (1, 1), 1)
    assert winograd.suits(weight.shape, geom) == (min(c, o) >= winograd.MIN_CHANNELS)
    out = np.full((n, *geom.out_size, o), np.nan, np.float32)
    calls = []
    winograd.conv_into(
        np, x.transpose(0, 2, 3, 1), winograd.weight_transform(np, weight), geom, out,
        calls.append, workers,
    )  # fmt: skip
    padded = torch.nn.functional.pad(torch.from_numpy(x).double(), (left, right, top, bottom))
    want = torch.nn.functional.conv2d(padded, torch.from_numpy(weight).double()).numpy()
    np.testing.assert_allclose(out.transpose(0, 3, 1, 2), want, rtol=1e-5, atol=1e-4)
    assert sum(rows.shape[0] for rows in calls) == n * geom.out_size[0] * geom.out_size[1]


class Block(framework.nn.Layer):
    def __init__(self, channels: int) -> None:
        super().__init__()
        nn = framework.nn
        self.conv1 = nn.Conv2D(channels, channels, 3, padding=1, bias_attr=False)
        self.bn1 = nn.BatchNorm2D(channels)
        self.conv2 = nn.Conv2D(channels, channels, 3, padding=1, bias_attr=False)
        self.bn2 = nn.BatchNorm2D(channels)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(y)) + x)


@pytest.mark.parametrize("batch", [1, 3])
def test_residual_block_through_winograd_matches_eager(monkeypatch, batch) -> None:
    monkeypatch.setattr(winograd, "MIN_CHANNELS", 16)
    framework.seed(batch)
    block = Block(16)
    block.eval()
    graph = optimize(trace_layer(block, [InputSpec([None, 16, 7, 6], "float32", "x")]))
    x = np.random.default_rng(batch).standard_normal((batch, 16, 7, 6)).astype(np.float32)
    with framework.no_grad():
        want = block(framework.to_tensor(x)).numpy()
    calls = []
    real = winograd.conv_into
    monkeypatch.setattr(winograd, "conv_into", lambda *a: calls.append(1) or real(*a))
    for workers in (1, 2):
        got = Executor(graph, workers=workers).run([x])[0]
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    assert len(calls) == (4 if batch == 1 else 6)  # both convs; batch 3 on 2 cores: twins
