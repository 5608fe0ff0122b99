"""Inference latency and throughput: our predictor against our eager model, onnxruntime and
PyTorch, on the same weights.

    python benchmarks/predictor.py                         # all models, batches 1 and 32
    python benchmarks/predictor.py --models cifar_resnet18 --batches 1 --repeats 5

Models: `cifar_resnet18` (benchmarks/models.py's CIFAR ResNet-18, 3x32x32), `resnet18` and
`mobilenet_v2` (framework.vision.models, 3x224x224). Each model is saved once with
`framework.jit.save` (dynamic batch); every runner reads those same weights:

- `predictor`: `framework.inference` with the default passes and memory optimisation;
- `eager`: the framework model itself (eval mode, no_grad), weights loaded from the file;
- `torch`: a PyTorch module that executes the saved graph op by op with torch functionals
  (identical weights; torch's own NCHW kernels);
- `onnxruntime`: that torch module exported with `torch.onnx.export` (opset 17, dynamic batch).

Each runner runs in its own process with `--threads` BLAS/OpenMP threads (and
`torch.set_num_threads`, onnxruntime `intra_op_num_threads`); after `--warmup` runs, the runners
take turns (round robin) so that all of them see the same load on a shared machine. A turn
waits `--cooldown` seconds (the previous runner's OpenMP/BLAS threads spin for a while after
their work), then makes `--turn-warmup` untimed runs and one timed run: on these virtual
machines a core that sat idle runs the next few milliseconds several times slower, so the
timed run sees the steady state of a busy server. Median and minimum wall time of `--repeats`
runs are reported, throughput = batch / median, and the median CPU time (all threads of the
runner's process).
A runner may be a variant, `predictor+GOMP_SPINCOUNT=20000` or `predictor+threads=1`
(`variants.py`): that runner with other environment settings or its own thread count, taking
turns with the others; its ratios to its base runner and to onnxruntime are reported. (The
predictor with a team lets idle OpenMP threads sleep at once, `routing.wait_policy`;
`+GOMP_SPINCOUNT=20000` is the spinning that training keeps, a wait policy the user chose.)
Outputs of every runner are checked against the eager model (which runs, untimed, also when
`--runners` leaves it out). Prints JSON with the ratios the
targets are stated in: predictor >= 1.3x faster than eager; predictor <= 2x onnxruntime at
batch 1 and <= 1.5x at batch 32.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks import variants  # noqa: E402
from benchmarks.worker_lines import WorkerLines  # noqa: E402

MODELS = {
    "cifar_resnet18": (3, 32, 32),
    "resnet18": (3, 224, 224),
    "mobilenet_v2": (3, 224, 224),
}
RUNNERS = ("predictor", "eager", "onnxruntime", "torch")


# --- building and saving the models --------------------------------------------------------------
def build_model(name: str):
    import framework

    framework.seed(0)
    if name == "cifar_resnet18":
        from benchmarks.models import build_model as build

        return build(framework.nn, "resnet18")
    from framework.vision import models

    return getattr(models, name)()


def prepare(name: str, folder: str) -> str:
    """Save the model (graph + weights) and its ONNX twin in `folder`; returns the prefix."""
    import numpy as np

    import framework
    from framework.jit import InputSpec

    model = build_model(name)
    rng = np.random.default_rng(1)
    for key, tensor in model.state_dict().items():  # realistic batch-norm statistics
        if key.endswith("_mean"):
            tensor.set_value(rng.normal(0, 0.1, tensor.shape).astype(np.float32))
        elif key.endswith("_variance"):
            tensor.set_value(rng.uniform(0.5, 1.5, tensor.shape).astype(np.float32))
    model.eval()
    prefix = os.path.join(folder, name)
    spec = [InputSpec([None, *MODELS[name]], "float32", "x")]
    framework.jit.save(model, prefix, input_spec=spec)
    if importlib.util.find_spec("torch") is not None:
        export_onnx(prefix, MODELS[name])
    return prefix


class TorchGraph:
    """Builds a torch.nn.Module that runs a saved graph with torch functionals."""

    @staticmethod
    def load(prefix: str):
        import numpy as np
        import torch
        import torch.nn.functional as tf

        from framework.jit.serialization import load_graph, model_paths

        graph = load_graph(*model_paths(prefix))

        class Interpreter(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.nodes = graph.nodes
                self.names = {}
                for index, name in enumerate(graph.initializers):
                    array = np.ascontiguousarray(graph.tensors[name])
                    self.register_buffer(f"t{index}", torch.from_numpy(array.copy()))
                    self.names[name] = f"t{index}"
                for node in graph.nodes:  # torch's Linear layout, prepared once
                    if node.op_type == "linear":
                        key = self.names[node.inputs[1]]
                        transposed = getattr(self, key).t().contiguous()
                        self.register_buffer(key + "_t", transposed)

            def forward(self, x):
                env = {graph.inputs[0]: x, "": None}
                for name, key in self.names.items():
                    env[name] = getattr(self, key)
                for node in self.nodes:
                    args = [env[n] for n in node.inputs]
                    env[node.outputs[0]] = self.apply_node(node, args, tf)
                return env[graph.outputs[0]]

            def apply_node(self, node, args, tf):
                op, a = node.op_type, node.attrs
                if op == "conv2d":
                    bias = args[2] if len(args) > 2 else None
                    padding = (a["pads"][0], a["pads"][1])
                    stride, dilation = a["strides"], a["dilations"]
                    return tf.conv2d(args[0], args[1], bias, stride, padding, dilation, a["groups"])
                if op == "batch_norm":
                    x, scale, bias, mean, var = args
                    return tf.batch_norm(x, mean, var, scale, bias, False, 0.0, a["epsilon"])
                if op == "relu":
                    return tf.relu(args[0])
                if op == "clip":
                    return torch.clamp(args[0], a["min"], a["max"])
                if op == "add":
                    return args[0] + args[1]
                if op == "max_pool2d":
                    padding = (a["pads"][0], a["pads"][1])
                    kernel, stride, ceil = a["kernel_shape"], a["strides"], a["ceil_mode"]
                    return tf.max_pool2d(args[0], kernel, stride, padding, ceil_mode=ceil)
                if op == "adaptive_avg_pool2d":
                    return tf.adaptive_avg_pool2d(args[0], a["output_size"])
                if op == "reshape":
                    if len(a["shape"]) == 2 and a["shape"][0] == 0:
                        return torch.flatten(args[0], 1)  # keeps the batch dynamic in ONNX
                    x = args[0]
                    return x.reshape(
                        [x.shape[i] if d == 0 else d for i, d in enumerate(a["shape"])]
                    )
                if op == "linear":
                    weight = getattr(self, self.names[node.inputs[1]] + "_t")
                    return tf.linear(args[0], weight, args[2] if len(args) > 2 else None)
                raise NotImplementedError(f"the torch twin has no {op}")

        return Interpreter().eval()


def export_onnx(prefix: str, shape: tuple) -> None:
    import torch

    module = TorchGraph.load(prefix)
    example = torch.zeros(1, *shape)
    torch.onnx.export(
        module,
        (example,),
        prefix + ".onnx",
        input_names=["x"],
        output_names=["y"],
        dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}},
        opset_version=17,
        dynamo=False,
    )


# --- the timed runners (each in its own process) -----------------------------------------------
def make_runner(runner: str, prefix: str, name: str, threads: int):
    """A function running one batch (a NumPy array) and returning the output as NumPy."""
    if runner == "predictor":
        from framework.inference import Config, create_predictor

        config = Config(prefix)
        config.set_cpu_math_library_num_threads(threads)
        predictor = create_predictor(config)
        return lambda x: predictor.run([x])[0]
    if runner == "eager":
        from safetensors.numpy import load_file

        import framework

        model = build_model(name)
        model.set_state_dict(load_file(prefix + ".safetensors"))
        model.eval()

        def eager(x):
            with framework.no_grad():
                return model(framework.to_tensor(x)).numpy()

        return eager
    if runner == "torch":
        import torch

        torch.set_num_threads(threads)
        module = TorchGraph.load(prefix)

        def torch_run(x):
            with torch.inference_mode():
                return module(torch.from_numpy(x)).numpy()

        return torch_run
    if runner == "onnxruntime":
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        session = onnxruntime.InferenceSession(
            prefix + ".onnx", options, providers=["CPUExecutionProvider"]
        )
        return lambda x: session.run(None, {"x": x})[0]
    raise ValueError(f"unknown runner {runner!r}")


def worker(args: argparse.Namespace) -> None:
    """Serve timed runs over stdin/stdout: 'run' -> milliseconds, 'save' -> writes the output."""
    import numpy as np

    run = make_runner(args.worker, args.prefix, args.model, args.threads)
    x = np.random.default_rng(0).standard_normal((args.batch, *MODELS[args.model]))
    x = x.astype(np.float32)
    for _ in range(args.warmup):
        out = run(x)
    print("ready", flush=True)
    for line in sys.stdin:
        command = line.strip()
        if command == "run":
            start, cpu = time.perf_counter(), time.process_time()
            out = run(x)
            wall, cpu = time.perf_counter() - start, time.process_time() - cpu
            print(f"{wall * 1e3} {cpu * 1e3}", flush=True)
        elif command == "save":
            np.save(f"{args.prefix}.{args.name or args.worker}.b{args.batch}.npy", out)
            print("saved", flush=True)
        else:
            return


class Worker:
    """One runner in its own process, with `threads` BLAS/OpenMP threads."""

    def __init__(self, runner: str, prefix: str, model: str, batch: int, opts) -> None:
        variant = variants.parse(runner)  # e.g. predictor+GOMP_SPINCOUNT=20000
        threads = variant.threads or opts.threads
        env = dict(os.environ)
        for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
            env[var] = str(threads)
        env.update(variant.env)
        command = [sys.executable, os.path.abspath(__file__), "--worker", variant.base,
                   "--prefix", prefix, "--model", model, "--batch", str(batch),
                   "--threads", str(threads), "--warmup", str(opts.warmup),
                   "--name", runner]  # fmt: skip
        self.runner = runner
        self.timeout = opts.timeout
        self.stderr = tempfile.TemporaryFile(mode="w+")  # a pipe nobody reads could fill up
        self.process = subprocess.Popen(
            command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.stderr, text=True,
        )  # fmt: skip
        self.lines = WorkerLines(self.process.stdout)
        self.error = None

    def ask(self, command: str) -> str | None:
        if self.error is not None:
            return None
        try:
            if command != "wait":
                self.process.stdin.write(command + "\n")
                self.process.stdin.flush()
            reply = self.lines.readline(self.timeout).strip()
        except TimeoutError as error:  # before OSError, its base class
            self.process.kill()
            self.error = str(error)
            return None
        except (BrokenPipeError, OSError):
            reply = ""
        if not reply:
            if self.process.poll() is None:  # alive but answering nothing useful: stop it
                self.process.kill()
            self.process.wait()
            self.stderr.seek(0)
            lines = self.stderr.read().strip().splitlines()
            self.error = lines[-1] if lines else "the worker exited"
            return None
        return reply

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.process.stdin.write("quit\n")
                self.process.stdin.flush()
            except (BrokenPipeError, OSError):
                pass
            self.process.wait(timeout=60)


def measure(runners: list[str], prefix: str, model: str, batch: int, opts) -> dict:
    """Round-robin timed runs, so every runner sees the same machine load."""
    workers = [Worker(r, prefix, model, batch, opts) for r in runners]
    if "eager" not in runners:  # untimed: its output is the reference every runner is checked on
        workers.append(Worker("eager", prefix, model, batch, opts))
    try:
        for worker in workers:
            worker.ask("wait")  # loaded and warmed up
        samples: dict[str, list[tuple[float, float]]] = {w.runner: [] for w in workers}
        repeats = opts.repeats if batch < 8 else max(3, opts.repeats // 2)
        for _ in range(repeats):
            for worker in workers[: len(runners)]:
                # Idle BLAS/OpenMP threads of the previous runner spin for a while; let them
                # go to sleep so that they do not steal this runner's cores.
                time.sleep(opts.cooldown)
                for _ in range(opts.turn_warmup):  # untimed: caches and cores warm again
                    worker.ask("run")
                reply = worker.ask("run")
                if reply is not None:
                    wall, cpu = reply.split()
                    samples[worker.runner].append((float(wall), float(cpu)))
        row = {}
        for worker in workers:
            if worker.error is not None or worker.ask("save") is None:
                row[worker.runner] = {"error": worker.error}
                continue
            if worker.runner not in runners:
                continue
            walls = [wall for wall, _ in samples[worker.runner]]
            cpus = [cpu for _, cpu in samples[worker.runner]]
            row[worker.runner] = {
                "median_ms": round(statistics.median(walls), 2),
                "min_ms": round(min(walls), 2),
                "cpu_median_ms": round(statistics.median(cpus), 2),
                "runs": len(walls),
            }
        return row
    finally:
        for worker in workers:
            worker.close()


def available(runner: str) -> bool:
    needs = {"onnxruntime": ("onnxruntime", "torch"), "torch": ("torch",)}
    base = variants.parse(runner).base
    return all(importlib.util.find_spec(m) is not None for m in needs.get(base, ()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--batches", default="1,32")
    parser.add_argument("--repeats", type=int, default=9, help="timed runs (halved at batch >= 8)")
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--cooldown", type=float, default=0.5, help="seconds between runs")
    parser.add_argument(
        "--turn-warmup", type=int, default=2, help="untimed runs at the start of every turn"
    )
    parser.add_argument("--runners", default=",".join(RUNNERS))
    parser.add_argument(
        "--timeout", type=float, default=600.0, help="seconds to wait for a worker's reply"
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--prefix", help=argparse.SUPPRESS)
    parser.add_argument("--model", help=argparse.SUPPRESS)
    parser.add_argument("--batch", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--name", help=argparse.SUPPRESS)  # the variant's name (its output file)
    opts = parser.parse_args()
    if opts.worker:
        worker(opts)
        return
    import numpy as np

    report = {
        "threads": opts.threads,
        "repeats": opts.repeats,
        "load_average_before": os.getloadavg()[0],
        "results": {},
    }
    runners = [r for r in opts.runners.split(",") if available(r)]
    if importlib.util.find_spec("torch") is not None:
        import torch

        torch.set_num_threads(opts.threads)  # the ONNX export here, like the runners
    with tempfile.TemporaryDirectory() as folder:
        for model in opts.models.split(","):
            prefix = prepare(model, folder)
            report["results"][model] = per_batch = {}
            for batch in [int(b) for b in opts.batches.split(",")]:
                row = measure(runners, prefix, model, batch, opts)
                reference_path = f"{prefix}.eager.b{batch}.npy"
                reference = np.load(reference_path) if os.path.exists(reference_path) else None
                for runner, result in row.items():
                    if "error" in result:
                        continue
                    out = np.load(f"{prefix}.{runner}.b{batch}.npy")
                    result["max_abs_diff_vs_eager"] = (
                        None if reference is None else float(np.abs(out - reference).max())
                    )  # None: the eager runner failed, so nothing to check against
                    result["throughput_images_per_s"] = round(batch / result["median_ms"] * 1e3, 2)
                per_batch[f"batch_{batch}"] = {**row, "ratios": ratios(row)}
                print(json.dumps({model: {batch: per_batch[f"batch_{batch}"]}}), file=sys.stderr)
    report["load_average_after"] = os.getloadavg()[0]
    print(json.dumps(report, indent=2))


def ratios(row: dict) -> dict:
    """Speed ratios on wall-clock medians, on minimums, and on CPU time (process time of all
    threads: the work done, which other load on a shared machine disturbs least)."""
    out = {}
    for stat in ("median_ms", "min_ms", "cpu_median_ms"):

        def ms(runner: str, stat: str = stat) -> float | None:
            return (row.get(runner) or {}).get(stat)

        suffix = {"median_ms": "", "min_ms": "_min", "cpu_median_ms": "_cpu"}[stat]
        ours = ms("predictor")
        if ours and ms("eager"):
            out["eager_over_predictor" + suffix] = round(ms("eager") / ours, 3)
        for peer in ("onnxruntime", "torch"):
            if ours and ms(peer):
                out[f"predictor_over_{peer}" + suffix] = round(ours / ms(peer), 3)
        for name in row:  # a variant against the runner it varies, and against onnxruntime
            base = variants.parse(name).base
            if "+" in name and ms(name) and ms(base):
                out[f"{name}_over_base" + suffix] = round(ms(name) / ms(base), 3)
            if "+" in name and ms(name) and ms("onnxruntime"):
                out[f"{name}_over_onnxruntime" + suffix] = round(ms(name) / ms("onnxruntime"), 3)
    return out


if __name__ == "__main__":
    main()
