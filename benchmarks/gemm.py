"""Single-threaded GEMMs on our conv and linear shapes: `framework.backends.cpu.gemm` (MKL's
sequential sgemm when the mkl wheel is installed) against NumPy's own BLAS and PyTorch, one thread
each.

    python benchmarks/gemm.py
    python benchmarks/gemm.py --repeats 100

Conv chunks run one GEMM per core (see framework/backends/cpu/blas_threads.py), so one thread is
the case that matters. Each shape is `[M, K] @ [K, N]` with the right operand a transposed
weight, as the conv kernels call it. Prints JSON: median GFLOP/s per library and the ratios
to NumPy.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys

for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[variable] = "1"  # before NumPy loads its BLAS
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from timing import median_seconds  # noqa: E402

from framework.backends.cpu import blas_threads, gemm  # noqa: E402

SHAPES = {  # (M, K, N) -> where it comes from
    (3136, 576, 64): "ResNet-18 224 stage 1, 3x3 conv, one image",
    (1024, 1152, 128): "CIFAR ResNet-18 stage 2, 3x3 conv, 4 images",
    (256, 4608, 512): "CIFAR ResNet-18 stage 4, 3x3 conv, 16 images",
    (16, 4608, 512): "CIFAR ResNet-18 stage 4 at batch 1 (the weight streams past)",
    (9856, 147, 64): "ResNet-18 224 stem, 7x7 conv, a band of rows",
    (4096, 144, 24): "MobileNetV2 1x1 projection, a chunk of pixels",
    (256, 2304, 256): "Winograd tile GEMM, 8x8x256 stage, 16 images",
    (128, 784, 512): "MLP first layer, batch 128",
}


def measure(m: int, k: int, n: int, repeats: int, torch) -> dict:
    """GFLOP/s of `[m, k] @ weight.T` (`weight` `[n, k]`) through each library."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k), dtype=np.float32)
    weight = rng.standard_normal((n, k), dtype=np.float32)
    out = np.empty((m, n), np.float32)
    flops = 2 * m * k * n
    with blas_threads.single_threaded_blas():  # where the framework calls it
        ours = median_seconds(lambda: gemm.matmul(np, a, weight.T, out), repeats)
    row = {
        "ours_gflops": round(flops / ours / 1e9, 1),
        "numpy_gflops": round(
            flops / median_seconds(lambda: np.matmul(a, weight.T, out=out), repeats) / 1e9, 1
        ),
    }
    row["ours_over_numpy_speed"] = round(row["ours_gflops"] / row["numpy_gflops"], 3)
    if torch is not None:
        ta, tw, tout = (torch.from_numpy(v) for v in (a, weight, out))
        seconds = median_seconds(lambda: torch.mm(ta, tw.t(), out=tout), repeats)
        row["torch_gflops"] = round(flops / seconds / 1e9, 1)
        row["ours_over_torch_speed"] = round(row["ours_gflops"] / row["torch_gflops"], 3)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=50)
    opts = parser.parse_args()
    torch = None
    if importlib.util.find_spec("torch") is not None:
        import torch

        torch.set_num_threads(1)
    report = {"threads": 1, "mkl": gemm.available(), "shapes": []}
    for (m, k, n), origin in SHAPES.items():
        row = {"m": m, "k": k, "n": n, "origin": origin, **measure(m, k, n, opts.repeats, torch)}
        report["shapes"].append(row)
        print(json.dumps(row), file=sys.stderr)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
