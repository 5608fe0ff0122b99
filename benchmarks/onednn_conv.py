"""Convolutions: our NumPy kernels against Intel oneDNN (framework/backends/cpu/onednn/)
and PyTorch.

    python benchmarks/onednn_conv.py [--repeat 30] [--threads 2]

The predictor and training run their convolutions on oneDNN's JIT kernels when the
`onednn-cpu-gomp` wheel (oneDNN 3.2, OpenMP runtime, CPU only, a 54 MB library) is
installed, and on ours (im2col + GEMM) otherwise. This compares them directly on the 3x3
convolutions of CIFAR ResNet-18 at batch 32 (training's shapes) and batch 1 (a predictor
run), and ResNet-18's 56x56 stage at batch 1, with PyTorch (whose CPU convolutions are
oneDNN's) beside them. At batch 32 it also times training's three passes (`training`):
forward, input gradient and weight gradient, ours and oneDNN's (`TrainingConv2d`, which
reorders this step's weight on every call), against PyTorch's forward + backward. Inputs and
outputs are channel-last for all three (`channels_last` tensors for PyTorch). oneDNN runs
with `--threads` OpenMP threads; making the predictor's primitive (which reorders the weight
into oneDNN's layout once) is timed apart as `onednn_setup_ms`. Each
runner makes `repeat` calls in a row after warm-up calls, a pause after the previous runner,
so that one runtime's spinning threads do not slow the other's calls. oneDNN is skipped when
it is not installed. (The newer `onednn` wheels run the CPU through SYCL and pull in about
2 GB of runtime; their CPU engine did not start on our machines.)

Prints JSON: per case the median milliseconds of each runner, oneDNN's largest relative
difference from ours, and the ratios ours / oneDNN and ours / PyTorch.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from timing import median_seconds  # noqa: E402

from framework.backends.cpu.onednn import library as onednn  # noqa: E402
from framework.backends.cpu.onednn import primitives  # noqa: E402
from framework.core.conv_geometry import ConvGeometry  # noqa: E402
from framework.ops.nn.conv_kernels import (  # noqa: E402
    conv_forward,
    conv_input_grad,
    conv_weight_grad,
)

# (batch, channels in = out, size)
CASES = [
    (32, 64, 32),
    (32, 128, 16),
    (32, 256, 8),
    (32, 512, 4),
    (1, 64, 32),
    (1, 128, 16),
    (1, 256, 8),
    (1, 512, 4),
    (1, 64, 56),
]
PAUSE_SECONDS = 0.3


def _median_ms(run, repeat: int) -> float:
    time.sleep(PAUSE_SECONDS)
    return round(median_seconds(run, repeat) * 1e3, 3)


def bench_case(case, torch, repeat: int, threads: int) -> dict:
    n, c, size = case
    rng = np.random.default_rng(0)
    x_nhwc = rng.standard_normal((n, size, size, c), dtype=np.float32)
    weight = (rng.standard_normal((c, c, 3, 3)) * 0.05).astype(np.float32)
    geom = ConvGeometry((3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), 1, (size, size), (size, size))
    x = x_nhwc.transpose(0, 3, 1, 2)  # NCHW-shaped, channel-last memory, as layers pass it
    row: dict = {"batch": n, "channels": c, "size": size}
    with numpy_kernels():
        row["ours_ms"] = _median_ms(lambda: conv_forward(x, weight, None, geom), repeat)
        ours = conv_forward(x, weight, None, geom)
    if onednn.available():
        out = np.empty((n, size, size, c), np.float32)
        with onednn.cores(threads):
            start = time.perf_counter()
            conv = primitives.Conv2d(x.shape, [s // 4 for s in x.strides], weight, None, geom)
            row["onednn_setup_ms"] = round((time.perf_counter() - start) * 1e3, 3)
            row["onednn_ms"] = _median_ms(lambda: conv(x, out), repeat)
        difference = np.abs(out.transpose(0, 3, 1, 2) - ours).max() / np.abs(ours).max()
        row["onednn_max_relative_difference"] = float(f"{difference:.2e}")
        row["ours_over_onednn"] = round(row["ours_ms"] / row["onednn_ms"], 3)
    if torch is not None:
        tx = torch.from_numpy(x_nhwc).permute(0, 3, 1, 2)  # a channels_last view
        tw = torch.from_numpy(weight).contiguous(memory_format=torch.channels_last)
        with torch.no_grad():
            row["torch_ms"] = _median_ms(
                lambda: torch.nn.functional.conv2d(tx, tw, padding=1), repeat
            )
        row["ours_over_torch"] = round(row["ours_ms"] / row["torch_ms"], 3)
    if n > 1:
        row["training"] = training_passes(x, weight, geom, torch, repeat, threads)
    return row


class numpy_kernels:  # noqa: N801 - used as a context manager
    """Context: oneDNN is off for the routing policy, so our NumPy kernels run training's
    convolutions."""

    def __enter__(self) -> None:
        self.real = onednn.available
        onednn.available = lambda: False

    def __exit__(self, *exc: object) -> None:
        onednn.available = self.real


def training_passes(x, weight, geom, torch, repeat: int, threads: int) -> dict:
    """Forward, input-gradient and weight-gradient ms of ours and oneDNN's; PyTorch's forward +
    backward; totals and their ratios."""
    gy = conv_forward(x, weight, None, geom)  # channel-last, like a gradient arriving
    passes = {
        "forward": lambda: conv_forward(x, weight, None, geom),
        "input_grad": lambda: conv_input_grad(gy, weight, geom),
        "weight_grad": lambda: conv_weight_grad(x, gy, geom, weight.shape),
    }
    result: dict = {}
    with numpy_kernels():
        result["ours"] = {name: _median_ms(run, repeat) for name, run in passes.items()}
    if onednn.available():
        result["onednn"] = {name: _median_ms(run, repeat) for name, run in passes.items()}
    if torch is not None:
        tx = torch.from_numpy(np.ascontiguousarray(x)).requires_grad_(True)
        tx = tx.contiguous(memory_format=torch.channels_last)
        tw = torch.from_numpy(weight).requires_grad_(True)
        tgy = torch.from_numpy(np.ascontiguousarray(gy)).contiguous(
            memory_format=torch.channels_last
        )

        def forward_backward() -> None:
            torch.nn.functional.conv2d(tx, tw, padding=1).backward(tgy)

        result["torch_forward_backward"] = _median_ms(forward_backward, repeat)
    totals = {k: round(sum(v.values()), 3) for k, v in result.items() if isinstance(v, dict)}
    result["totals"] = totals
    if "onednn" in totals:
        result["ours_over_onednn"] = round(totals["ours"] / totals["onednn"], 3)
    if "onednn" in totals and torch is not None:
        result["onednn_over_torch"] = round(totals["onednn"] / result["torch_forward_backward"], 3)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    try:
        import torch

        torch.set_num_threads(args.threads)
    except ImportError:
        torch = None
    report = {
        "threads": args.threads,
        "repeat": args.repeat,
        "onednn": onednn.available(),
        "torch": torch is not None,
        "cases": [bench_case(case, torch, args.repeat, args.threads) for case in CASES],
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
