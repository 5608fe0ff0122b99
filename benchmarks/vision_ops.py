"""RoI pooling and deformable convolution against PaddlePaddle's CPU kernels.

    python benchmarks/vision_ops.py [--repeat 5] [--threads 2]

Prints JSON: per case the median milliseconds of forward + backward (gradient of `x`; for
`deform_conv2d` also of offset, mask and weight) of ours and of Paddle (same process, in
turns, `paddle.set_num_threads`-free: Paddle's CPU kernels for these ops are single-threaded
loops) and their ratio, with the peak RSS of the process at the end.

- `roi_align` / `roi_pool` / `psroi_pool`: 100 boxes of 5 to 20 pixels on a `[2, 256, 50, 50]`
  map (`psroi_pool`: `[2, 16 * 49, 50, 50]`), 7x7 bins (Faster R-CNN's RoI head at stride 16).
- `deform_conv2d`: DCN v2, 3x3, 64 to 64 channels on `[2, 64, 32, 32]`, padding 1.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import framework.vision.ops  # noqa: E402


def roi_inputs(channels: int) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    corner = rng.uniform(0, 30, (100, 2))
    boxes = np.concatenate([corner, corner + rng.uniform(5, 20, (100, 2))], 1)
    x = rng.standard_normal((2, channels, 50, 50))
    return [x.astype(np.float32), boxes.astype(np.float32), np.array([50, 50], np.int32)]


def deform_inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    arrays = [
        rng.standard_normal((2, 64, 32, 32)),
        rng.standard_normal((2, 18, 32, 32)),
        rng.standard_normal((64, 64, 3, 3)) * 0.05,
        rng.uniform(0, 1, (2, 9, 32, 32)),
    ]
    return [a.astype(np.float32) for a in arrays]


CASES = {
    "roi_align": (
        lambda m, x, b, n: m.vision.ops.roi_align(x, b, n, 7, 1.0, 2),
        roi_inputs(256),
        1,
    ),
    "roi_pool": (lambda m, x, b, n: m.vision.ops.roi_pool(x, b, n, 7), roi_inputs(256), 1),
    "psroi_pool": (lambda m, x, b, n: m.vision.ops.psroi_pool(x, b, n, 7), roi_inputs(784), 1),
    "deform_conv2d": (
        lambda m, x, o, w, k: m.vision.ops.deform_conv2d(x, o, w, padding=1, mask=k),
        deform_inputs(),
        4,
    ),
}


def step(module, fn, arrays, wrt: int) -> float:
    tensors = [module.to_tensor(a, stop_gradient=i >= wrt) for i, a in enumerate(arrays)]
    start = time.perf_counter()
    fn(module, *tensors).sum().backward()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(name, str(args.threads))
    peers = {"ours": framework}
    try:
        import paddle

        peers["paddle"] = paddle
    except ImportError:
        pass
    report = {"threads": args.threads, "repeat": args.repeat, "cases": {}}
    for case, (fn, arrays, wrt) in CASES.items():
        times: dict[str, list[float]] = {name: [] for name in peers}
        for module in peers.values():
            step(module, fn, arrays, wrt)  # warm-up
        for _ in range(args.repeat):
            for name, module in peers.items():
                times[name].append(step(module, fn, arrays, wrt))
        result = {f"{name}_ms": round(statistics.median(t), 2) for name, t in times.items()}
        if "paddle" in peers:
            result["ours_over_paddle"] = round(result["ours_ms"] / result["paddle_ms"], 2)
        report["cases"][case] = result
        print(json.dumps({case: result}), file=sys.stderr, flush=True)
    report["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
