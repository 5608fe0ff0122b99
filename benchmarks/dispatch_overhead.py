"""Per-op dispatch overhead: a tiny add with autograd on, ours against PyTorch and PaddlePaddle.

    python benchmarks/dispatch_overhead.py [--ops 20000] [--rounds 7] [--size 4]

`c = a + b` on two `size`-element float32 tensors that require gradients, so every call pays
the framework's whole Python/C++ dispatch path plus graph recording; the arithmetic itself is
negligible. Also timed: the same add with gradients off, and add plus backward through it.
Prints JSON: CPU microseconds per op (median over rounds; CPU time rather than wall time, so
that other load on a shared machine does not leak in -- `--wall` switches to wall time) and
ours/peer ratios. Peers that are not installed are skipped.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def per_op_us(function, ops: int, rounds: int, clock=time.process_time) -> float:
    function()  # warm up caches and lazy imports
    samples = []
    for _ in range(rounds):
        start = clock()
        for _ in range(ops):
            function()
        samples.append((clock() - start) / ops * 1e6)
    return round(statistics.median(samples), 3)


def ours_cases(size: int):
    import numpy as np

    import framework

    a = framework.to_tensor(np.ones(size, np.float32), stop_gradient=False)
    b = framework.to_tensor(np.ones(size, np.float32), stop_gradient=False)

    def add_no_grad():
        with framework.no_grad():
            return a + b

    def add_backward():
        (a + b).backward(framework.to_tensor(np.ones(size, np.float32)))

    return {"add": lambda: a + b, "add_no_grad": add_no_grad, "add_backward": add_backward}


def torch_cases(size: int):
    import torch

    torch.set_num_threads(1)
    a = torch.ones(size, requires_grad=True)
    b = torch.ones(size, requires_grad=True)
    ones = torch.ones(size)

    def add_no_grad():
        with torch.no_grad():
            return a + b

    def add_backward():
        (a + b).backward(ones)

    return {"add": lambda: a + b, "add_no_grad": add_no_grad, "add_backward": add_backward}


def paddle_cases(size: int):
    import paddle

    paddle.set_device("cpu")
    a = paddle.ones([size], dtype="float32")
    b = paddle.ones([size], dtype="float32")
    a.stop_gradient = False
    b.stop_gradient = False
    ones = paddle.ones([size], dtype="float32")

    def add_no_grad():
        with paddle.no_grad():
            return a + b

    def add_backward():
        (a + b).backward(ones)

    return {"add": lambda: a + b, "add_no_grad": add_no_grad, "add_backward": add_backward}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--wall", action="store_true", help="time with the wall clock")
    args = parser.parse_args()
    clock = time.perf_counter if args.wall else time.process_time
    builders = {"ours": ours_cases, "torch": torch_cases, "paddle": paddle_cases}
    results: dict = {
        "size": args.size,
        "ops_per_round": args.ops,
        "clock": "wall" if args.wall else "cpu",
        "us_per_op": {},
    }
    for name, build in builders.items():
        if name != "ours" and importlib.util.find_spec(name) is None:
            continue
        cases = build(args.size)
        results["us_per_op"][name] = {
            case: per_op_us(function, args.ops, args.rounds, clock)
            for case, function in cases.items()
        }
    ours = results["us_per_op"]["ours"]
    for peer in ("torch", "paddle"):
        if peer in results["us_per_op"]:
            theirs = results["us_per_op"][peer]
            results[f"ours_over_{peer}"] = {k: round(ours[k] / theirs[k], 3) for k in ours}
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
