"""Non-convolution training ops against PyTorch: 2x2 max pooling, batch norm, Momentum steps.

    python benchmarks/layer_ops.py [--repeat 20] [--threads 2] [--clock wall|cpu]

Prints JSON: per case the median milliseconds of ours and of PyTorch (same process, in turns,
`torch.set_num_threads(threads)`) and their ratio.

- `max_pool2d_2x2`: forward + backward of `max_pool2d(x, 2, 2)` on LeNet's two pooling
  shapes (batch 64), NCHW memory and channel-last memory (as a convolution leaves it; PyTorch
  gets `channels_last` tensors there).
- `batch_norm_train`: forward + backward of training-mode batch norm on channel-last
  CIFAR ResNet-18 and MobileNetV2 activations (batch 32; PyTorch `channels_last`), ours on
  oneDNN where it is installed and on our NumPy passes (`ours_numpy`).
- `momentum_step`: one `Momentum(0.9)` step over each benchmark model's parameters (gradients
  set once), ours through BLAS scal/axpy (`framework/backends/cpu/vector_blas.py`) and through NumPy
  ufuncs, against `torch.optim.SGD(momentum=0.9)`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from models import build_model, torch_nn  # noqa: E402

import framework  # noqa: E402
import framework.nn.functional as F  # noqa: E402
from framework.backends.cpu import vector_blas  # noqa: E402
from framework.backends.cpu.onednn import training as onednn  # noqa: E402

POOL_SHAPES = [(64, 6, 28, 28), (64, 16, 10, 10)]
NORM_SHAPES = [(32, 64, 32, 32), (32, 256, 8, 8), (32, 96, 32, 32), (32, 144, 16, 16)]
MODELS = ["mlp", "lenet", "resnet18", "mobilenetv2"]
PAUSE_SECONDS = 0.3  # for the last runner's spinning threads to go to sleep


def _channel_last(array: np.ndarray) -> np.ndarray:
    """The same NCHW-shaped values, laid out NHWC in memory."""
    return np.ascontiguousarray(array.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)


def _time(runners: dict, repeat: int, clock) -> dict:
    """Median milliseconds of each runner: `repeat` calls in a row after three warm-up calls.

    Runners take turns as blocks, a pause apart, not call by call: each framework's thread
    pool (OpenBLAS's, PyTorch's OpenMP) keeps spinning for a while after its last call and
    would take cores from the other's next call.
    """
    samples: dict[str, list[float]] = {key: [] for key in runners}
    for key, run in runners.items():
        time.sleep(PAUSE_SECONDS)
        for _ in range(3):
            run()
        for _ in range(repeat):
            start = clock()
            run()
            samples[key].append(clock() - start)
    row = {f"{key}_ms": round(statistics.median(s) * 1e3, 3) for key, s in samples.items()}
    if "torch_ms" in row:
        row["ratio"] = round(row["ours_ms"] / row["torch_ms"], 3)
    return row


def pool_cases(torch, repeat: int, clock) -> list[dict]:
    rows = []
    rng = np.random.default_rng(0)
    for shape in POOL_SHAPES:
        for channel_last in (False, True):
            x = np.maximum(rng.standard_normal(shape, dtype=np.float32), 0)  # after a ReLU
            gy = rng.standard_normal((*shape[:2], shape[2] // 2, shape[3] // 2), np.float32)
            xt = framework.Tensor(_channel_last(x) if channel_last else x, stop_gradient=False)
            gyt = framework.Tensor(gy)

            def ours(xt=xt, gyt=gyt) -> None:
                F.max_pool2d(xt, 2, 2).backward(gyt)
                xt.clear_grad()

            runners = {"ours": ours}
            if torch is not None:
                fmt = torch.channels_last if channel_last else torch.contiguous_format
                tx = torch.from_numpy(x).contiguous(memory_format=fmt).requires_grad_(True)
                tgy = torch.from_numpy(gy)

                def theirs(tx=tx, tgy=tgy) -> None:
                    torch.nn.functional.max_pool2d(tx, 2, 2).backward(tgy)
                    tx.grad = None

                runners["torch"] = theirs
            layout = "channel_last" if channel_last else "nchw"
            rows.append({"shape": list(shape), "memory": layout, **_time(runners, repeat, clock)})
    return rows


def norm_cases(torch, repeat: int, clock) -> list[dict]:
    rows = []
    rng = np.random.default_rng(1)
    for shape in NORM_SHAPES:
        c = shape[1]
        x = rng.standard_normal(shape, dtype=np.float32)
        gy = rng.standard_normal(shape, dtype=np.float32)
        layer = framework.nn.BatchNorm2D(c)
        layer.train()
        xt = framework.Tensor(_channel_last(x), stop_gradient=False)
        gyt = framework.Tensor(_channel_last(gy))

        def ours(layer=layer, xt=xt, gyt=gyt) -> None:
            layer(xt).backward(gyt)
            xt.clear_grad()
            layer.clear_gradients()

        def through_numpy(ours=ours, batch_norm=onednn.batch_norm_primitive) -> None:
            onednn.batch_norm_primitive = lambda x, eps: None  # oneDNN declines: NumPy passes
            try:
                ours()
            finally:
                onednn.batch_norm_primitive = batch_norm

        runners = {"ours": ours, "ours_numpy": through_numpy}
        if torch is not None:
            module = torch.nn.BatchNorm2d(c).train()
            last = torch.channels_last
            tx = torch.from_numpy(x).contiguous(memory_format=last).requires_grad_(True)
            tgy = torch.from_numpy(gy).contiguous(memory_format=last)

            def theirs(module=module, tx=tx, tgy=tgy) -> None:
                module(tx).backward(tgy)
                tx.grad = None
                module.zero_grad()

            runners["torch"] = theirs
        rows.append({"shape": list(shape), **_time(runners, repeat, clock)})
    return rows


def momentum_cases(torch, repeat: int, clock) -> list[dict]:
    rows = []
    rng = np.random.default_rng(2)
    for name in MODELS:
        params = build_model(framework.nn, name).parameters()
        grads = [rng.standard_normal(p.shape, dtype=np.float32) * 1e-3 for p in params]
        for p, g in zip(params, grads, strict=True):
            p.grad = framework.to_tensor(g)
        optimizer = framework.optimizer.Momentum(0.01, momentum=0.9, parameters=params)

        def through_numpy(optimizer=optimizer, routines=vector_blas._routines) -> None:
            vector_blas._routines = {}  # no BLAS routines: every update runs NumPy's ufuncs
            try:
                optimizer.step()
            finally:
                vector_blas._routines = routines

        runners = {"ours": optimizer.step, "ours_numpy": through_numpy}
        if torch is not None:
            module = build_model(torch_nn(), name)
            for p in module.parameters():
                p.grad = torch.from_numpy(rng.standard_normal(tuple(p.shape), np.float32) * 1e-3)
            runners["torch"] = torch.optim.SGD(module.parameters(), lr=0.01, momentum=0.9).step
        count = sum(p.size for p in params)
        rows.append({"model": name, "parameters": count, **_time(runners, repeat, clock)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall")
    args = parser.parse_args()
    try:
        import torch

        torch.set_num_threads(args.threads)
    except ImportError:
        torch = None
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    vector_blas.available()  # look the routines up before anything is timed
    report = {
        "threads": args.threads,
        "repeat": args.repeat,
        "clock": args.clock,
        "torch": torch is not None,
        "vector_blas": vector_blas.available(),
        "max_pool2d_2x2": pool_cases(torch, args.repeat, clock),
        "batch_norm_train": norm_cases(torch, args.repeat, clock),
        "momentum_step": momentum_cases(torch, args.repeat, clock),
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
