"""Full training-step times of ours against PyTorch and PaddlePaddle, printed as JSON.

    python benchmarks/train_step.py [--models mlp,lenet,resnet18,mobilenetv2] [--repeats 5]
        [--warmup 2] [--device cpu|gpu] [--batch-size N] [--threads 2]
        [--frameworks ours,torch,paddle] [--set-to-zero]

A step is forward, cross-entropy, backward, a Momentum(0.9) update and clearing the gradients,
on random float32 data (fixed seed), ending with the loss read back to the host (which also
synchronises a GPU).

Each framework runs in its own worker process, pinned to `--threads` cores with matching
BLAS/OpenMP thread counts, so that its peak memory (the RSS high-water mark, imports included)
is its own. The workers take turns: after `--warmup` steps each, every round times a turn of
each framework in a rotating order while the others wait, so load from anything else on the
machine falls on all of them alike. Each turn starts with untimed steps, at least
`--turn-warmup` of them for at least `--turn-warmup-seconds`: a step right after another
framework's turn runs on cold caches, and alongside the threads the other framework leaves
spinning (Intel OpenMP's default block time is 200 ms), while a training job runs its steps
back to back. `--steps-per-turn N` times N consecutive steps per turn (the median is then over
`repeats * N` steps). Peers that are not installed are skipped.

Gradients are cleared the way each framework does by default fastest: `zero_grad()` (to None)
in PyTorch, `clear_grad()` in Paddle, `clear_grad(set_to_zero=False)` for ours
(`--set-to-zero` uses Paddle's default `clear_grad()` for ours too).

A framework may be a variant, `ours+SAMPAN_MKL=0` (`variants.py`): ours with that environment,
taking turns with plain `ours` in the same run; its ratio to it is reported.

Output: the machine's load average before and after; per model, each framework's median step
time (ms), all samples, the median CPU time per step (all the process's threads; with
`--threads 1` it is the step time the machine would show unloaded, so it is the number to
compare on a busy machine), peak RSS (MiB) and the RSS before training; then ours/torch and
ours/paddle ratios of time, CPU time and peak memory.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import variants  # noqa: E402
from models import MODELS, NUM_CLASSES, build_model, torch_nn  # noqa: E402
from worker_lines import WorkerLines  # noqa: E402

FRAMEWORKS = ("ours", "torch", "paddle")
LEARNING_RATE = 0.01


def main() -> None:
    args = parse_args()
    if args.worker:
        serve_worker(args)
        return
    report = {
        "device": args.device,
        "threads": args.threads,
        "repeats": args.repeats,
        "warmup": args.warmup,
        "load_average_before": _load_average(),
        "models": {},
    }
    frameworks = [f for f in args.frameworks.split(",") if _installed(f)]
    for model in args.models.split(","):
        batch = args.batch_size or MODELS[model][0]
        row = {"batch": batch, **benchmark_model(args, frameworks, model, batch)}
        row.update(ratios(row))
        report["models"][model] = row
        print(json.dumps({model: row}), file=sys.stderr, flush=True)
    report["load_average_after"] = _load_average()
    print(json.dumps(report, indent=2))


def _load_average() -> list[float] | None:
    """The 1, 5 and 15 minute load averages: on a shared machine, how much the numbers mean."""
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:
        return None


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--device", choices=("cpu", "gpu"), default="cpu")
    parser.add_argument("--batch-size", type=int, default=None)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--frameworks", default=",".join(FRAMEWORKS))
    parser.add_argument("--set-to-zero", action="store_true")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per request")
    parser.add_argument(
        "--turn-warmup", type=int, default=2, help="untimed steps at the start of every turn"
    )
    parser.add_argument(
        "--turn-warmup-seconds",
        type=float,
        default=0.25,
        help="and untimed steps for at least this long (the previous framework's spinning "
        "OpenMP threads go idle)",
    )
    parser.add_argument(
        "--steps-per-turn", type=int, default=1, help="timed steps, back to back, per turn"
    )
    parser.add_argument("--worker", nargs=2, metavar=("FRAMEWORK", "MODEL"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    for model in args.models.split(","):
        if model not in MODELS:
            parser.error(f"unknown model {model!r}; choose from {', '.join(MODELS)}")
    return args


def _installed(name: str) -> bool:
    base = variants.parse(name).base
    return base == "ours" or importlib.util.find_spec(base) is not None


# --- the orchestrator: persistent workers taking turns ----------------------------------------
class Worker:
    """One framework's worker process, driven line by line over its stdin/stdout."""

    def __init__(self, args, framework_name: str, model: str, batch: int) -> None:
        variant = variants.parse(framework_name)  # e.g. ours+SAMPAN_MKL=0 (`variants.py`)
        threads = variant.threads or args.threads
        command = [
            sys.executable, os.path.abspath(__file__), "--worker", variant.base, model,
            "--batch-size", str(batch), "--device", args.device, "--threads", str(threads),
        ]  # fmt: skip
        if args.set_to_zero:
            command.append("--set-to-zero")
        env = dict(os.environ)
        for variable in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "CPU_NUM"):
            env[variable] = str(threads)
        env.update(variant.env)
        env.setdefault("GLOG_minloglevel", "2")
        self.stderr = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(
            command, env=env, text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.stderr,
        )  # fmt: skip
        self.lines = WorkerLines(self.process.stdout)
        self.timeout = args.timeout
        self.error: str | None = None
        self.ask(None)  # wait until the model is built

    def ask(self, request: str | None) -> dict:
        if self.error:
            return {"error": self.error}
        if request is not None:
            self.process.stdin.write(request + "\n")
            self.process.stdin.flush()
        while True:
            try:
                line = self.lines.readline(self.timeout)
            except TimeoutError as error:
                self.process.kill()
                self.error = str(error)
                return {"error": self.error}
            if not line:
                self.process.wait()
                self.stderr.seek(0)
                self.error = _error_summary(self.stderr.read())
                return {"error": self.error}
            if line.startswith("{"):
                return json.loads(line)

    def close(self) -> dict:
        final = self.ask("quit")
        self.process.wait()
        return final


def benchmark_model(args, frameworks: list[str], model: str, batch: int) -> dict:
    workers = {name: Worker(args, name, model, batch) for name in frameworks}
    samples: dict[str, list[float]] = {name: [] for name in frameworks}
    cpu: dict[str, list[float]] = {name: [] for name in frameworks}
    for worker in workers.values():
        worker.ask(f"run {args.warmup}")
    order = list(frameworks)
    for _ in range(args.repeats):
        for name in order:
            workers[name].ask(f"warm {args.turn_warmup} {args.turn_warmup_seconds}")
            reply = workers[name].ask(f"run {args.steps_per_turn}")
            samples[name].extend(reply.get("samples_ms", []))
            cpu[name].extend(reply.get("cpu_ms", []))
        order = order[1:] + order[:1]
    results = {}
    for name, worker in workers.items():
        final = worker.close()
        if "error" in final or not samples[name]:
            results[name] = {"error": final.get("error", "no samples")}
            continue
        results[name] = {
            "median_ms": round(statistics.median(samples[name]), 3),
            "samples_ms": [round(s, 3) for s in samples[name]],
            "median_cpu_ms": round(statistics.median(cpu[name]), 3),
            **final,
        }
    return results


def _error_summary(stderr: str) -> str:
    """The exception line of a worker's traceback (and a note after it, if any)."""
    tail = stderr.strip().splitlines()
    for i in range(len(tail) - 1, -1, -1):
        if (
            tail[i]
            and not tail[i].startswith(" ")
            and ("Error" in tail[i] or "Exception" in tail[i])
        ):
            return " | ".join(tail[i : i + 2])[:400]
    return (tail or ["no output"])[-1][:400]


def ratios(row: dict) -> dict:
    result = {}
    ours = row.get("ours", {})
    for peer in ("torch", "paddle"):
        theirs = row.get(peer, {})
        if "median_ms" in ours and "median_ms" in theirs:
            result[f"time_ours_over_{peer}"] = round(ours["median_ms"] / theirs["median_ms"], 3)
            result[f"cpu_ours_over_{peer}"] = round(
                ours["median_cpu_ms"] / theirs["median_cpu_ms"], 3
            )
            result[f"peak_rss_ours_over_{peer}"] = round(
                ours["peak_rss_mib"] / theirs["peak_rss_mib"], 3
            )
    for name, variant in row.items():  # a variant against the runner it varies
        base = row.get(variants.parse(name).base, {}) if "+" in name else {}
        if isinstance(variant, dict) and "median_ms" in variant and "median_ms" in base:
            result[f"time_{name}_over_base"] = round(variant["median_ms"] / base["median_ms"], 3)
            result[f"cpu_{name}_over_base"] = round(
                variant["median_cpu_ms"] / base["median_cpu_ms"], 3
            )
    return result


# --- the worker: one framework, one model, in its own process -------------------------------------
def serve_worker(args) -> None:
    """Build the model, then answer `run N` (time N steps) and `quit` (memory, last loss)."""
    framework_name, model = args.worker
    if args.device == "cpu" and hasattr(os, "sched_setaffinity"):
        cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, cores[: args.threads])
    import numpy as np

    rng = np.random.default_rng(0)
    shape = (args.batch_size, *MODELS[model][1])
    inputs = rng.standard_normal(shape).astype(np.float32)
    labels = rng.integers(0, NUM_CLASSES, size=(args.batch_size,)).astype(np.int64)
    builders = {"ours": _ours_step, "torch": _torch_step, "paddle": _paddle_step}
    step = builders[framework_name](model, inputs, labels, args)
    rss_before = _current_rss_mib()
    _reply({"ready": True})
    loss = float("nan")
    for request in sys.stdin:
        command, *rest = request.split()
        if command == "quit":
            break
        if command == "warm":  # untimed steps: at least this many, for at least this long
            steps, until = 0, time.perf_counter() + float(rest[1])
            while steps < int(rest[0]) or time.perf_counter() < until:
                step()
                steps += 1
            _reply({"steps": steps})
            continue
        samples, cpu = [], []
        for _ in range(int(rest[0])):
            start, start_cpu = time.perf_counter(), time.process_time()
            loss = step()
            samples.append((time.perf_counter() - start) * 1e3)
            cpu.append((time.process_time() - start_cpu) * 1e3)
        if not np.isfinite(loss):
            raise RuntimeError(f"{framework_name} {model}: the loss is {loss}")
        _reply({"samples_ms": samples, "cpu_ms": cpu})
    _reply(
        {
            "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "rss_before_training_mib": round(rss_before, 1),
            "loss": round(float(loss), 5),
        }
    )


def _reply(message: dict) -> None:
    print(json.dumps(message), flush=True)


def _current_rss_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _ours_step(model, inputs, labels, args):
    import framework
    import framework.nn.functional as F

    framework.set_device(args.device)
    framework.seed(0)
    net = build_model(framework.nn, model)
    net.train()
    opt = framework.optimizer.Momentum(LEARNING_RATE, momentum=0.9, parameters=net.parameters())
    x, y = framework.to_tensor(inputs), framework.to_tensor(labels)

    def step() -> float:
        loss = F.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad(set_to_zero=args.set_to_zero)
        return float(loss)

    return step


def _torch_step(model, inputs, labels, args):
    import torch

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    device = "cuda" if args.device == "gpu" else "cpu"
    net = build_model(torch_nn(), model).to(device)
    net.train()
    opt = torch.optim.SGD(net.parameters(), lr=LEARNING_RATE, momentum=0.9)
    x, y = torch.from_numpy(inputs).to(device), torch.from_numpy(labels).to(device)

    def step() -> float:
        loss = torch.nn.functional.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
        return float(loss)

    return step


def _paddle_step(model, inputs, labels, args):
    import paddle

    if args.device == "gpu" and not paddle.is_compiled_with_cuda():
        raise RuntimeError("this PaddlePaddle build has no CUDA")
    paddle.set_device("gpu" if args.device == "gpu" else "cpu")
    paddle.seed(0)
    net = build_model(paddle.nn, model)
    net.train()
    opt = paddle.optimizer.Momentum(LEARNING_RATE, momentum=0.9, parameters=net.parameters())
    x, y = paddle.to_tensor(inputs), paddle.to_tensor(labels)

    def step() -> float:
        loss = paddle.nn.functional.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return float(loss)

    return step


if __name__ == "__main__":
    main()
