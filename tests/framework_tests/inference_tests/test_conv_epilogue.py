"""The GEMM convolution's fused epilogue (bias tiled over several output rows, then the
activation) for chunks whose row count is and is not a multiple of the tiling."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.backends.cpu.tuning import TUNING
from framework.inference import Executor
from framework.inference.passes import optimize
from framework.jit import InputSpec, trace_layer

RNG = np.random.default_rng(5)
W3 = framework.to_tensor(RNG.standard_normal((5, 3, 3, 3)).astype(np.float32))
W1 = framework.to_tensor(RNG.standard_normal((7, 5, 1, 1)).astype(np.float32))
B5 = framework.to_tensor(RNG.standard_normal(5).astype(np.float32))
B7 = framework.to_tensor(RNG.standard_normal(7).astype(np.float32))


def _block(x):
    y = F.relu6(F.conv2d(x, W3, B5, padding=1))  # im2col GEMM, bias + relu6 fused
    return F.conv2d(y, W1, B7, stride=2) + F.conv2d(y, W1, B7)[:, :, ::2, ::2]


@pytest.mark.parametrize("bias_run", [1, 12, 4096])  # tile 1 row, 2 rows, whole chunks
@pytest.mark.parametrize("chunk", [200, 1 << 20])  # 5 rows (odd) per chunk, or whole images
@pytest.mark.parametrize("batch", [1, 3])
def test_fused_bias_and_activation_match_eager(monkeypatch, bias_run, chunk, batch) -> None:
    monkeypatch.setattr(TUNING, "bias_run", bias_run)
    monkeypatch.setattr(TUNING, "predictor_chunk_bytes", chunk)
    graph = optimize(trace_layer(_block, [InputSpec([None, 3, 7, 9], "float32", "x")]))
    assert graph.nodes[0].attrs.get("activation") is not None
    x = RNG.standard_normal((batch, 3, 7, 9)).astype(np.float32) * 2
    with framework.no_grad():
        want = _block(framework.to_tensor(x)).numpy()
    for workers in (1, 2):
        got = Executor(graph, workers=workers).run([x])[0]
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
