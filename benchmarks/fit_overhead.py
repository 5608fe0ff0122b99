"""Model.fit's overhead over a hand-written training loop, on the same model and batches.

    python benchmarks/fit_overhead.py                 # LeNet, 64 steps of batch 64, 5 repeats
    python benchmarks/fit_overhead.py --steps 128 --repeats 7

Both sides train a LeNet (Paddle's) with Momentum on the same in-memory float32 batches (a
`framework.io.DataLoader` over a TensorDataset, no workers), with cross-entropy and an Accuracy
metric. The loop does what a careful user writes by hand: forward, loss, backward, step,
clear_grad, and the metric update. The runs alternate so load on the machine falls on both
alike; the target is `fit_over_loop <= 1.05` on the medians. CPU time is reported beside wall
time because the machines these run on are shared.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

import framework
from framework import nn
from framework.io import DataLoader, TensorDataset
from framework.vision.models import LeNet


def make_data(steps: int, batch_size: int) -> TensorDataset:
    rng = np.random.default_rng(0)
    images = rng.standard_normal((steps * batch_size, 1, 28, 28)).astype(np.float32)
    labels = rng.integers(0, 10, (steps * batch_size, 1)).astype(np.int64)
    return TensorDataset([framework.to_tensor(images), framework.to_tensor(labels)])


def build():
    framework.seed(0)
    network = LeNet()
    optimizer = framework.optimizer.Momentum(
        learning_rate=0.01, momentum=0.9, parameters=network.parameters()
    )
    return network, optimizer, nn.CrossEntropyLoss(), framework.metric.Accuracy()


def run_loop(dataset: TensorDataset, batch_size: int) -> tuple[float, float]:
    network, optimizer, loss_fn, metric = build()
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=False)
    network.train()
    wall, cpu = time.perf_counter(), time.process_time()
    for images, labels in loader:
        logits = network(images)
        loss = loss_fn(logits, labels)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        metric.update(metric.compute(logits, labels).numpy())
        float(loss)
    return time.perf_counter() - wall, time.process_time() - cpu


def run_fit(dataset: TensorDataset, batch_size: int) -> tuple[float, float]:
    network, optimizer, loss_fn, metric = build()
    model = framework.Model(network)
    model.prepare(optimizer=optimizer, loss=loss_fn, metrics=metric)
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=False)
    wall, cpu = time.perf_counter(), time.process_time()
    model.fit(loader, epochs=1, verbose=0)
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=64)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    dataset = make_data(args.steps, args.batch_size)
    run_loop(dataset, args.batch_size)  # warm-up: allocator, workspaces, imports
    run_fit(dataset, args.batch_size)
    loop_wall, loop_cpu, fit_wall, fit_cpu = [], [], [], []
    for _ in range(args.repeats):
        wall, cpu = run_loop(dataset, args.batch_size)
        loop_wall.append(wall)
        loop_cpu.append(cpu)
        wall, cpu = run_fit(dataset, args.batch_size)
        fit_wall.append(wall)
        fit_cpu.append(cpu)
    result = {
        "benchmark": "fit_overhead",
        "model": "LeNet",
        "steps": args.steps,
        "batch_size": args.batch_size,
        "repeats": args.repeats,
        "loop_median_s": statistics.median(loop_wall),
        "fit_median_s": statistics.median(fit_wall),
        "loop_median_cpu_s": statistics.median(loop_cpu),
        "fit_median_cpu_s": statistics.median(fit_cpu),
    }
    result["fit_over_loop"] = result["fit_median_s"] / result["loop_median_s"]
    result["fit_over_loop_cpu"] = result["fit_median_cpu_s"] / result["loop_median_cpu_s"]
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
