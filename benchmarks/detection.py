"""PicoDet-S against its peers, printed as JSON: the training step against the same
architecture in PyTorch, the exported model in our predictor against onnxruntime, and the
mAP@.5 it reaches on the generated shapes dataset within a training-time budget.

    python benchmarks/detection.py                       # all parts, 5 repeats, 2 threads
    python benchmarks/detection.py --parts train --batch-size 16 --size 320 --repeats 3
    python benchmarks/detection.py --parts predict --repeats 20
    python benchmarks/detection.py --parts map --minutes 5,15

- `train`: forward, the loss (label assignment, VFL + GIoU + DFL), backward, a Momentum(0.9)
  update and clearing the gradients, on random images with a few random boxes each. Ours is
  `framework.vision.models.picodet_s`; the peer is the same network written in torch (its
  layer shapes and loss terms one for one) and assigns labels with the same NumPy assigner.
- `predict`: `picodet_s` exported once (`export_layer`), saved with `framework.jit.save` for
  our predictor and with `framework.onnx.export` for onnxruntime: the same weights, batch 1.
- `map`: `picodet_s(num_classes=3, pretrained_backbone=True)` (the shipped ImageNet
  MobileNetV2 from the local weight store: `make weights`) trained with AdamW (2e-3) at batch
  `--map-batch-size` on `--map-train` generated images of `--map-size` pixels
  (`tests/framework_tests/vision_tests/shapes_data.py`: coloured shapes on skimage photos), and
  evaluated with `framework.metric.coco_evaluate` on `--map-eval` held-out images each time
  the training wall time reaches one of `--minutes` (one run; evaluation is not counted).

Each runner is a process of its own on `--threads` cores; the runners take turns as in
`train_step.py` (untimed steps first in every turn, then one timed), and medians over
`--repeats` turns are reported with CPU times (read those on a busy machine) and the
ours-over-peer ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks.worker_lines import WorkerLines  # noqa: E402

PARTS = {"train": ("ours", "torch"), "predict": ("predictor", "onnxruntime"), "map": ("map",)}


def main() -> None:
    args = parse_args()
    if args.worker:
        serve(args)
        return
    report = {"threads": args.threads, "repeats": args.repeats, "load_before": _load()}
    with tempfile.TemporaryDirectory() as folder:
        for part in args.parts.split(","):
            if part == "predict":
                args.prefix = export(folder, args)
            report[part] = run_map(args) if part == "map" else run_part(args, part)
            print(json.dumps({part: report[part]}), file=sys.stderr, flush=True)
    report["load_after"] = _load()
    print(json.dumps(report, indent=2))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="train,predict,map")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--turn-warmup", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16, help="training batch")
    parser.add_argument("--size", type=int, default=320)
    parser.add_argument("--num-classes", type=int, default=80)
    parser.add_argument("--timeout", type=float, default=1800.0)
    parser.add_argument(
        "--minutes", default="5,15", help="map: training wall-time budgets, comma-separated"
    )
    parser.add_argument("--map-size", type=int, default=320, help="map: image side")
    parser.add_argument("--map-batch-size", type=int, default=8)
    parser.add_argument("--map-train", type=int, default=400, help="map: training images")
    parser.add_argument("--map-eval", type=int, default=100, help="map: held-out images")
    parser.add_argument("--prefix", help=argparse.SUPPRESS)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    return parser.parse_args()


def _load() -> list[float]:
    return [round(v, 2) for v in os.getloadavg()]


WORKER_FLAGS = ("threads", "batch_size", "size", "num_classes", "prefix", "minutes",
                "map_size", "map_batch_size", "map_train", "map_eval")  # fmt: skip


# --- the orchestrator ----------------------------------------------------------------------------
def worker_command(args, runner: str) -> tuple[list[str], dict[str, str]]:
    """The command line and environment of a worker process on `--threads` cores."""
    command = [sys.executable, os.path.abspath(__file__), "--worker", runner]
    for flag in WORKER_FLAGS:
        value = getattr(args, flag)
        if value is not None:
            command += [f"--{flag.replace('_', '-')}", str(value)]
    env = dict(os.environ)
    for variable in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        env[variable] = str(args.threads)
    return command, env


class Worker:
    def __init__(self, args, runner: str) -> None:
        command, env = worker_command(args, runner)
        self.process = subprocess.Popen(
            command, env=env, text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self.lines = WorkerLines(self.process.stdout)
        self.timeout = args.timeout
        self.ask(None)

    def ask(self, request: str | None) -> dict:
        if request is not None:
            self.process.stdin.write(request + "\n")
            self.process.stdin.flush()
        while True:
            line = self.lines.readline(self.timeout)
            if not line:
                raise RuntimeError(f"worker {self.process.args[-1]} exited")
            if line.startswith("{"):
                return json.loads(line)


def run_part(args, part: str) -> dict:
    runners = PARTS[part]
    workers = {name: Worker(args, name) for name in runners}
    wall: dict[str, list[float]] = {name: [] for name in runners}
    cpu: dict[str, list[float]] = {name: [] for name in runners}
    for worker in workers.values():
        worker.ask(f"warm {args.warmup}")
    order = list(runners)
    for _ in range(args.repeats):
        for name in order:
            workers[name].ask(f"warm {args.turn_warmup}")
            reply = workers[name].ask("run")
            wall[name].append(reply["ms"])
            cpu[name].append(reply["cpu_ms"])
        order = order[1:] + order[:1]
    result: dict = {}
    for name, worker in workers.items():
        final = worker.ask("quit")
        result[name] = {
            "median_ms": round(statistics.median(wall[name]), 2),
            "median_cpu_ms": round(statistics.median(cpu[name]), 2),
            "samples_ms": [round(s, 2) for s in wall[name]],
            **final,
        }
    ours, peer = runners
    result[f"time_{ours}_over_{peer}"] = round(
        result[ours]["median_ms"] / result[peer]["median_ms"], 3
    )
    result[f"cpu_{ours}_over_{peer}"] = round(
        result[ours]["median_cpu_ms"] / result[peer]["median_cpu_ms"], 3
    )
    return result


def run_map(args) -> dict:
    """The `map` part in a worker process of its own; its last stdout line is the result."""
    command, env = worker_command(args, "map")
    budget = sum(float(m) for m in args.minutes.split(",")) * 60
    done = subprocess.run(
        command, env=env, text=True, stdout=subprocess.PIPE, timeout=budget + args.timeout
    )
    if done.returncode != 0:
        return {"error": f"the map worker exited with status {done.returncode}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def export(folder: str, args) -> str:
    """Save PicoDet-S (realistic batch-norm statistics) for the predictor and as ONNX."""
    import numpy as np

    import framework
    from framework.jit import InputSpec
    from framework.vision.models import picodet_s

    framework.seed(0)
    model = picodet_s(num_classes=args.num_classes)
    rng = np.random.default_rng(1)
    for key, tensor in model.state_dict().items():
        if key.endswith("_mean"):
            tensor.set_value(rng.normal(0, 0.1, tensor.shape).astype(np.float32))
        elif key.endswith("_variance"):
            tensor.set_value(rng.uniform(0.5, 1.5, tensor.shape).astype(np.float32))
    exportable = model.export_layer()
    prefix = os.path.join(folder, "picodet_s")
    spec = [InputSpec([None, 3, args.size, args.size], "float32", "images")]
    framework.jit.save(exportable, prefix, input_spec=spec)
    framework.onnx.export(exportable, prefix, input_spec=spec)
    return prefix


# --- the workers ----------------------------------------------------------------------------------
def serve(args) -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[: args.threads])
    import resource

    if args.worker == "map":
        print(json.dumps(shapes_map(args)), flush=True)
        return
    builders = {"ours": ours_step, "torch": torch_step, "predictor": predictor_run,
                "onnxruntime": onnxruntime_run}  # fmt: skip
    step = builders[args.worker](args)
    print(json.dumps({"ready": True}), flush=True)
    for request in sys.stdin:
        command, *rest = request.split()
        if command == "quit":
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(json.dumps({"peak_rss_mib": round(peak, 1)}), flush=True)
            return
        if command == "warm":
            for _ in range(int(rest[0])):
                step()
            print(json.dumps({}), flush=True)
            continue
        start, start_cpu = time.perf_counter(), time.process_time()
        step()
        wall, spent = time.perf_counter() - start, time.process_time() - start_cpu
        print(json.dumps({"ms": wall * 1e3, "cpu_ms": spent * 1e3}), flush=True)


def batch(args):
    """Random normalised images and 1-4 random boxes per image, the same in every worker."""
    import numpy as np

    rng = np.random.default_rng(0)
    images = rng.standard_normal((args.batch_size, 3, args.size, args.size)).astype(np.float32)
    targets = []
    for _ in range(args.batch_size):
        count = int(rng.integers(1, 5))
        xy = rng.uniform(0, args.size * 0.7, (count, 2))
        wh = rng.uniform(args.size * 0.05, args.size * 0.3, (count, 2))
        boxes = np.concatenate([xy, xy + wh], 1).astype(np.float32)
        targets.append({"boxes": boxes, "labels": rng.integers(0, args.num_classes, count)})
    return images, targets


def ours_step(args):
    import framework
    from framework.vision.models import picodet_s

    framework.seed(0)
    model = picodet_s(num_classes=args.num_classes)
    model.train()
    optimizer = framework.optimizer.Momentum(0.01, momentum=0.9, parameters=model.parameters())
    images, targets = batch(args)
    x = framework.to_tensor(images)

    def step() -> float:
        losses = model.loss(model(x), targets)
        losses["loss"].backward()
        optimizer.step()
        optimizer.clear_grad(set_to_zero=False)
        return float(losses["loss"])

    return step


def torch_step(args):
    import torch

    import framework
    from framework.vision.detection.gfl_loss import GFLLoss
    from tests.framework_tests.vision_tests.picodet_torch import torch_gfl_loss, torch_picodet_s

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    net = torch_picodet_s(args.num_classes)
    net.train()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    images, targets = batch(args)
    x = torch.from_numpy(images)
    criterion = GFLLoss(args.num_classes, (8, 16, 32, 64), reg_max=7)

    def step() -> float:
        cls, reg = net(x)
        wrapped = [framework.to_tensor(t.detach().numpy()) for t in cls + reg]
        assignment = criterion.assign(wrapped[:4], wrapped[4:], targets)  # the same NumPy code
        grid = criterion.grid(wrapped[:4])
        loss = torch_gfl_loss(cls, reg, assignment, grid, args.num_classes)["loss"]
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        return float(loss.detach())

    return step


def shapes_map(args) -> dict:
    """Train PicoDet-S on generated shapes; mAP after each of `--minutes` of training."""
    import framework
    from framework.vision.models import picodet_s
    from tests.framework_tests.vision_tests import shapes_data

    framework.seed(0)
    model = picodet_s(num_classes=3, pretrained_backbone=True)
    photos = shapes_data.backgrounds(args.map_size)
    train = shapes_data.shapes_dataset(args.map_train, 0, photos, args.map_size)
    held_out = shapes_data.shapes_dataset(args.map_eval, 1, photos, args.map_size)
    budgets = sorted(float(m) for m in args.minutes.split(","))
    optimizer = shapes_data.adamw(model)
    points, steps, trained_s, cpu_s = [], 0, 0.0, 0.0
    for minutes in budgets:
        start, cpu_start = time.perf_counter(), time.process_time()
        steps += shapes_data.train(
            model, train, args.map_batch_size, seconds=minutes * 60 - trained_s,
            optimizer=optimizer, seed=1 + steps,
        )  # fmt: skip
        trained_s += time.perf_counter() - start
        cpu_s += time.process_time() - cpu_start
        evaluation_start = time.perf_counter()
        result = shapes_data.evaluate(held_out, shapes_data.detect(model, held_out))
        points.append(
            {"minutes": minutes, "steps": steps, "images_seen": steps * args.map_batch_size,
             "trained_s": round(trained_s, 1), "trained_cpu_s": round(cpu_s, 1),
             "map_50": round(float(result.map_50), 4), "map": round(float(result.map), 4),
             "ap_50_per_class": [round(float(a), 4) for a in result.ap_50_per_class],
             "evaluation_s": round(time.perf_counter() - evaluation_start, 1)}
        )  # fmt: skip
        print(json.dumps(points[-1]), file=sys.stderr, flush=True)
    return {"size": args.map_size, "batch_size": args.map_batch_size, "train_images": len(train),
            "eval_images": len(held_out), "points": points}  # fmt: skip


def predictor_run(args):
    import numpy as np

    from framework.inference import Config, create_predictor

    predictor = create_predictor(Config(args.prefix))
    x = np.random.default_rng(0).standard_normal((1, 3, args.size, args.size)).astype(np.float32)
    return lambda: predictor.run([x])


def onnxruntime_run(args):
    import numpy as np
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = args.threads
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(
        args.prefix + ".onnx", options, providers=["CPUExecutionProvider"]
    )
    x = np.random.default_rng(0).standard_normal((1, 3, args.size, args.size)).astype(np.float32)
    return lambda: session.run(None, {"images": x})


if __name__ == "__main__":
    main()
