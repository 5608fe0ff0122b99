"""The predictor's Winograd F(2x2, 3x3) convolution: equal to a direct float64 convolution
on every tiling (odd sizes, asymmetric padding, bands of tile rows, several cores), and run by
the predictor where the policy picks it (`test_cpu_routes` holds where that is)."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.backends.cpu import routing
from framework.backends.cpu.tuning import TUNING
from framework.core.conv_geometry import ConvGeometry
from framework.inference import Config, create_predictor
from framework.inference.kernels import conv_gemm, winograd
from framework.jit import InputSpec

RNG = np.random.default_rng(11)


def _direct(x, weight, padding) -> np.ndarray:
    """NHWC `x` by `[O, C, 3, 3]` `weight`, stride 1, in float64: the reference."""
    (top, bottom), (left, right) = padding
    padded = np.pad(x.astype(np.float64), ((0, 0), (top, bottom), (left, right), (0, 0)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(1, 2))
    return np.einsum("nhwcij,ocij->nhwo", windows, weight.astype(np.float64))


@pytest.mark.parametrize(
    "batch, size, padding",
    [
        (2, (8, 8), ((1, 1), (1, 1))),  # whole 2x2 tiles
        (3, (7, 5), ((1, 1), (1, 1))),  # odd output: tiles overhang, cropped
        (1, (9, 6), ((0, 2), (2, 1))),  # asymmetric padding
        (2, (3, 3), ((0, 0), (0, 0))),  # one output pixel per image
        (1, (33, 17), ((1, 1), (1, 1))),  # bands of tile rows (small chunks below)
    ],
)
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("chunk", [4096, 8 << 20])
def test_winograd_equals_the_direct_convolution(monkeypatch, batch, size, padding, workers, chunk):
    monkeypatch.setattr(TUNING, "predictor_chunk_bytes", chunk)
    c, o = 6, 5
    x = RNG.standard_normal((batch, *size, c)).astype(np.float32)
    weight = RNG.standard_normal((o, c, 3, 3)).astype(np.float32)
    bias = RNG.standard_normal(o).astype(np.float32)
    geom = ConvGeometry.for_input(size, (3, 3), (1, 1), padding, (1, 1), 1)
    assert routing.winograd_applies(geom)
    want = np.maximum(_direct(x, weight, padding) + bias, 0)
    assert want.shape[1:3] == geom.out_size
    out = np.full(want.shape, np.nan, np.float32)
    finished_rows = []

    def epilogue(rows):  # bias and ReLU, as the conv kernel's fused epilogue does
        finished_rows.append(rows.shape[0])
        rows += bias
        np.maximum(rows, 0, out=rows)

    u = winograd.transformed_weight(weight)
    assert u.shape == (16, c, o) and u.dtype == np.float32
    winograd.conv_into(np, x, u, geom, out, epilogue, workers)
    scale = np.abs(want).max()
    np.testing.assert_allclose(out, want, rtol=0, atol=2e-6 * scale)
    assert sum(finished_rows) == out.size // o  # every output pixel finished exactly once
    if chunk == 4096 and size == (33, 17):
        assert len(finished_rows) > batch  # cut into bands of tile rows


class WideConvNet(nn.Layer):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv = nn.Conv2D(channels, channels, 3, padding=1)

    def forward(self, x):
        return F.relu(self.conv(x))


def test_the_predictor_runs_batches_by_winograd_and_a_single_sample_by_im2col(
    tmp_path, monkeypatch
):
    """A batch runs the Winograd kernel (same results as eager); a single sample, whose GEMMs
    BLAS spreads over the lent cores, keeps the im2col GEMM. The transformed weight is made
    once, on first use, for all the cores."""
    pytest.importorskip("threadpoolctl")
    from framework.backends.cpu import blas_threads, threads
    from framework.backends.cpu.onednn import library as onednn

    if not blas_threads.available():
        pytest.skip("no BLAS library reachable through threadpoolctl")
    monkeypatch.setattr(onednn, "available", lambda: False)  # single samples on our kernels
    monkeypatch.setattr(threads, "CPU_WORKERS", 2)
    monkeypatch.setattr(threads, "_pool", None)
    channels = 16
    monkeypatch.setattr(TUNING, "winograd_min_channels", channels)
    model = WideConvNet(channels)
    model.eval()
    path = str(tmp_path / "wide")
    spec = [InputSpec([None, channels, 12, 12], "float32", "x")]
    framework.jit.save(model, path, input_spec=spec)
    calls = {"winograd": 0, "im2col": 0, "weights": 0}
    for module, name, key in [
        (winograd, "conv_into", "winograd"),
        (conv_gemm, "conv_into", "im2col"),
        (winograd, "transformed_weight", "weights"),
    ]:
        original = getattr(module, name)

        def counting(*args, _original=original, _key=key, **kwargs):
            calls[_key] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(module, name, counting)
    config = Config(path)
    config.set_cpu_math_library_num_threads(2)
    predictor = create_predictor(config)
    x = RNG.standard_normal((4, channels, 12, 12)).astype(np.float32)
    several = predictor.run([x])[0]
    predictor.run([x])
    batched = calls["winograd"]  # per run: one call per core's slice of the batch
    assert batched >= 2 and calls["im2col"] == 0
    assert calls["weights"] == 1  # shared by the slices' executors, kept across runs
    one = predictor.run([x[:1]])[0]
    assert calls == {"winograd": batched, "im2col": 1, "weights": 1}
    with framework.no_grad():
        eager = model(framework.to_tensor(x)).numpy()
    np.testing.assert_allclose(several, eager, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(one, eager[:1], rtol=1e-4, atol=1e-4)
