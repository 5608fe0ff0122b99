"""Convolution forward+backward times against PyTorch, on ResNet-18 and MobileNetV2 CIFAR shapes.

    python benchmarks/conv_ops.py [--repeat 5] [--threads 2] [--only resnet|mobilenet]
        [--clock wall|cpu]

Prints JSON: one row per layer shape with the median forward+backward milliseconds of ours and
of PyTorch (same process, interleaved, `torch.set_num_threads(threads)`), their ratio, and a
total weighted by how often each shape occurs in the network. Inputs other than the stem's are
channel-last in memory, as the previous layer leaves them.

`--clock cpu` times process CPU time instead of wall time: on a shared, busy machine that is
far steadier, and it is the right measure with `--threads 1` (pin the process with `taskset`
and set OPENBLAS_NUM_THREADS=1 so both sides run on one core).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

import framework
import framework.nn.functional as F

BATCH = 32

# (name, in, out, kernel, stride, size, groups, count in the network, input needs a gradient)
RESNET18 = [
    ("stem 3->64 3x3", 3, 64, 3, 1, 32, 1, 1, False),
    ("64->64 3x3", 64, 64, 3, 1, 32, 1, 4, True),
    ("64->128 3x3 s2", 64, 128, 3, 2, 32, 1, 1, True),
    ("128->128 3x3", 128, 128, 3, 1, 16, 1, 3, True),
    ("128->256 3x3 s2", 128, 256, 3, 2, 16, 1, 1, True),
    ("256->256 3x3", 256, 256, 3, 1, 8, 1, 3, True),
    ("256->512 3x3 s2", 256, 512, 3, 2, 8, 1, 1, True),
    ("512->512 3x3", 512, 512, 3, 1, 4, 1, 3, True),
    ("downsample 64->128 1x1 s2", 64, 128, 1, 2, 32, 1, 1, True),
    ("downsample 128->256 1x1 s2", 128, 256, 1, 2, 16, 1, 1, True),
    ("downsample 256->512 1x1 s2", 256, 512, 1, 2, 8, 1, 1, True),
]

MOBILENET_V2 = [
    ("dw 32 3x3 @32", 32, 32, 3, 1, 32, 32, 1, True),
    ("dw 96 3x3 @32", 96, 96, 3, 1, 32, 96, 1, True),
    ("dw 144 3x3 @32", 144, 144, 3, 1, 32, 144, 1, True),
    ("dw 144 3x3 s2 @32", 144, 144, 3, 2, 32, 144, 1, True),
    ("dw 192 3x3 @16", 192, 192, 3, 1, 16, 192, 2, True),
    ("dw 192 3x3 s2 @16", 192, 192, 3, 2, 16, 192, 1, True),
    ("dw 384 3x3 @8", 384, 384, 3, 1, 8, 384, 4, True),
    ("dw 576 3x3 @8", 576, 576, 3, 1, 8, 576, 2, True),
    ("dw 576 3x3 s2 @8", 576, 576, 3, 2, 8, 576, 1, True),
    ("dw 960 3x3 @4", 960, 960, 3, 1, 4, 960, 3, True),
    ("pw 24->144 @32", 24, 144, 1, 1, 32, 1, 2, True),
    ("pw 144->24 @32", 144, 24, 1, 1, 32, 1, 1, True),
    ("pw 64->384 @8", 64, 384, 1, 1, 8, 1, 4, True),
    ("pw 320->1280 @4", 320, 1280, 1, 1, 4, 1, 1, True),
]


def _median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1e3, 3)


def bench_case(case: tuple, repeat: int, torch, clock=time.perf_counter) -> dict:
    name, cin, cout, k, stride, size, groups, count, input_grad = case
    rng = np.random.default_rng(0)
    pad = k // 2
    x = rng.standard_normal((BATCH, cin, size, size), dtype=np.float32)
    w = rng.standard_normal((cout, cin // groups, k, k), dtype=np.float32) * 0.1
    x_ours = (
        np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2) if input_grad else x
    )
    xt = framework.Tensor(x_ours, stop_gradient=not input_grad)
    wt = framework.Parameter(w)
    out = (size + 2 * pad - k) // stride + 1
    gy = rng.standard_normal((BATCH, cout, out, out), dtype=np.float32)
    gy_ours = framework.Tensor(np.ascontiguousarray(gy.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2))

    def ours() -> None:
        y = F.conv2d(xt, wt, stride=stride, padding=pad, groups=groups)
        y.backward(gy_ours)
        wt.clear_grad()
        xt.clear_grad()

    row: dict = {"layer": name, "count": count}
    timings: dict[str, list[float]] = {"ours": []}
    runners = {"ours": ours}
    if torch is not None:
        tx = torch.from_numpy(x).requires_grad_(input_grad)
        tw = torch.from_numpy(w).requires_grad_(True)
        tgy = torch.from_numpy(gy)

        def theirs() -> None:
            y = torch.nn.functional.conv2d(tx, tw, stride=stride, padding=pad, groups=groups)
            y.backward(tgy)
            tw.grad = None
            tx.grad = None

        runners["torch"] = theirs
        timings["torch"] = []
    for run in runners.values():
        run()
    for _ in range(repeat):
        for key, run in runners.items():
            start = clock()
            run()
            timings[key].append(clock() - start)
    for key, samples in timings.items():
        row[f"{key}_ms"] = _median_ms(samples)
    if torch is not None:
        row["ratio"] = round(row["ours_ms"] / row["torch_ms"], 3)
    return row


def summarize(rows: list[dict]) -> dict:
    total = {"ours_ms": round(sum(r["ours_ms"] * r["count"] for r in rows), 2)}
    if rows and "torch_ms" in rows[0]:
        total["torch_ms"] = round(sum(r["torch_ms"] * r["count"] for r in rows), 2)
        total["ratio"] = round(total["ours_ms"] / total["torch_ms"], 3)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--only", choices=["resnet", "mobilenet"], default=None)
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall")
    args = parser.parse_args()
    try:
        import torch

        torch.set_num_threads(args.threads)
    except ImportError:
        torch = None
    suites = {"resnet18_cifar_batch32": RESNET18, "mobilenet_v2_cifar_batch32": MOBILENET_V2}
    if args.only:
        suites = {k: v for k, v in suites.items() if k.startswith(args.only)}
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    report: dict = {
        "threads": args.threads,
        "repeat": args.repeat,
        "clock": args.clock,
        "torch": torch is not None,
    }
    for suite, cases in suites.items():
        rows = [bench_case(case, args.repeat, torch, clock) for case in cases]
        report[suite] = {"layers": rows, "weighted_total": summarize(rows)}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
