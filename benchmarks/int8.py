"""INT8 post-training quantization: latency, accuracy and size, float32 against int8, in our
predictor and in onnxruntime, on the same weights.

    python benchmarks/int8.py                        # LeNet and ResNet-18, batches 1 and 32
    python benchmarks/int8.py --models lenet --batches 1 --repeats 5

Models, trained here on scikit-learn's digits (upsampled, 80/20 stratified split):
`lenet` (framework.vision.models.LeNet, 1x28x28, trained with framework.Model) and `resnet18`
(framework.vision.models.resnet18, 3x32x32, 10 classes, `--resnet-steps` SGD steps then
batch-norm statistics of training images). Each is quantized with the default `QuantConfig`
(99.99th-percentile activations, per-channel weights) from `--calibration` training images,
and saved four ways: our float32 model (`framework.jit.save`) and its ONNX export, our int8
model (`QuantizedModel.save`) and its QDQ ONNX export. Runners:

- `predictor_fp32`, `predictor_int8`: `framework.inference` (the int8 one with its INT8 kernels);
- `onnxruntime_fp32`, `onnxruntime_int8`: onnxruntime CPU (the int8 one fused to QLinearConv /
  QGemm; the kernels it chose are reported).

Latency: each runner in its own process with `--threads` BLAS/OpenMP/onnxruntime threads; after
`--warmup` runs the runners take turns, one run each, so all see the same machine load; median,
minimum and median CPU time of `--repeats` runs. Accuracy on the test split (and top-1 agreement
with float32 on 500 held-out images for ResNet-18), and file sizes. Prints JSON.
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
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

SHAPES = {"lenet": (1, 28, 28), "resnet18": (3, 32, 32)}
RUNNERS = ("predictor_fp32", "predictor_int8", "onnxruntime_fp32", "onnxruntime_int8")
FILES = {
    "predictor_fp32": "fp32.safetensors",
    "predictor_int8": "int8.safetensors",
    "onnxruntime_fp32": "fp32.onnx",
    "onnxruntime_int8": "int8.onnx",
}


# --- data and models -----------------------------------------------------------------------------
def digits(size: int, channels: int):
    """(train_x, train_y, test_x, test_y): digits as float32 in [-1, 1], NCHW."""
    import numpy as np
    from PIL import Image
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    data = load_digits()
    images = np.stack(
        [
            np.asarray(Image.fromarray((im * 255 / 16).astype(np.uint8)).resize((size, size)))
            for im in data.images
        ]
    ).astype(np.float32)
    images = np.repeat(((images / 255.0 - 0.5) / 0.5)[:, None], channels, axis=1)
    return train_test_split(
        images.astype(np.float32), data.target.astype(np.int64), test_size=0.2,
        stratify=data.target, random_state=0,
    )  # fmt: skip


def train_lenet(train_x, train_y):
    import framework
    from framework import nn
    from framework.io import TensorDataset
    from framework.vision.models import LeNet

    framework.seed(0)
    network = LeNet()
    model = framework.Model(network)
    model.prepare(
        framework.optimizer.Adam(learning_rate=1e-3, parameters=network.parameters()),
        nn.CrossEntropyLoss(),
    )
    data = TensorDataset([framework.to_tensor(train_x), framework.to_tensor(train_y[:, None])])
    model.fit(data, batch_size=32, epochs=6, verbose=0)
    return network


def train_resnet18(train_x, train_y, steps: int):
    import framework
    from framework import nn
    from framework.vision.models import resnet18

    framework.seed(0)
    network = resnet18(num_classes=10)
    optimizer = framework.optimizer.Momentum(0.02, momentum=0.9, parameters=network.parameters())
    loss_fn = nn.CrossEntropyLoss()
    network.train()
    for step in range(steps):
        batch = slice(step * 32, step * 32 + 32)
        loss = loss_fn(
            network(framework.to_tensor(train_x[batch])), framework.to_tensor(train_y[batch])
        )
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
    norms = [layer for layer in network.sublayers() if isinstance(layer, nn.BatchNorm2D)]
    for layer in norms:
        layer._momentum = 0.0  # running statistics := those of the next batch
    with framework.no_grad():
        network(framework.to_tensor(train_x[-256:]))
    for layer in norms:
        layer._momentum = 0.9
    return network


def prepare(name: str, folder: str, opts) -> dict:
    """Train, quantize and save `name` in `folder`; returns accuracy, agreement and kernels."""
    import numpy as np

    import framework
    from framework.jit import InputSpec
    from framework.quantization import PTQ, QuantConfig, export_onnx

    channels, size, _ = SHAPES[name]
    train_x, test_x, train_y, test_y = digits(size, channels)
    started = time.perf_counter()
    if name == "lenet":
        network, unused = train_lenet(train_x, train_y), train_x
    else:
        network = train_resnet18(train_x, train_y, opts.resnet_steps)
        unused = train_x[opts.resnet_steps * 32 : -256]
    network.eval()
    trained = time.perf_counter()
    prefix = os.path.join(folder, name)
    spec = [InputSpec([None, *SHAPES[name]], "float32", "x")]
    framework.jit.save(network, prefix + ".fp32", input_spec=spec)
    framework.onnx.export(network, prefix + ".fp32", input_spec=spec)
    ptq = PTQ(QuantConfig())
    observed = ptq.quantize(network, input_spec=spec)
    calibration = unused[-opts.calibration :]
    ptq.calibrate(observed, [calibration[i : i + 64] for i in range(0, len(calibration), 64)])
    int8 = ptq.convert(observed)
    int8.save(prefix + ".int8")
    export_onnx(int8, prefix + ".int8")
    quantized = time.perf_counter()

    held_out = np.concatenate([test_x, unused[: max(0, 500 - len(test_x))]])
    outputs = {runner: make_runner(runner, prefix, opts.threads)(held_out) for runner in RUNNERS}
    reference = outputs["predictor_fp32"].argmax(1)
    tested = len(test_x)
    return {
        "train_s": round(trained - started, 1),
        "quantize_s": round(quantized - trained, 1),
        "calibration_images": len(calibration),
        "accuracy": {r: round(float((o[:tested].argmax(1) == test_y).mean()), 4)
                     for r, o in outputs.items()},
        "top1_agreement_with_fp32": {r: round(float((o.argmax(1) == reference).mean()), 4)
                                     for r, o in outputs.items() if r != "predictor_fp32"},
        "held_out_images": len(held_out),
        "test_images": tested,
        "bytes": {r: os.path.getsize(f"{prefix}.{f}") for r, f in FILES.items()},
        "weights_fp32_over_int8": round(
            os.path.getsize(prefix + ".fp32.safetensors")
            / os.path.getsize(prefix + ".int8.safetensors"), 3),
        "predictor_int8_ops": int8.program.op_counts(),
        "onnxruntime_int8_kernels": onnxruntime_kernels(prefix + ".int8.onnx", folder),
    }  # fmt: skip


def onnxruntime_kernels(path: str, folder: str) -> dict:
    """The op counts of onnxruntime's optimised graph of `path`."""
    import onnxruntime

    import framework

    options = onnxruntime.SessionOptions()
    options.optimized_model_filepath = os.path.join(folder, "optimized.onnx")
    options.log_severity_level = 3
    onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    graph = framework.onnx.read_model(options.optimized_model_filepath).graph
    return dict(Counter(node.op_type for node in graph.nodes).most_common())


# --- runners -------------------------------------------------------------------------------------
def make_runner(runner: str, prefix: str, threads: int):
    """A function running a batch (NumPy) through `runner`, returning NumPy logits; batches
    larger than 100 are cut into pieces of 100."""
    import numpy as np

    kind, precision = runner.split("_")
    if kind == "predictor":
        from framework.inference import Config, create_predictor

        config = Config(f"{prefix}.{precision}")
        config.set_cpu_math_library_num_threads(threads)
        predictor = create_predictor(config)
        run_one = lambda x: predictor.run([x])[0]  # noqa: E731
    else:
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        session = onnxruntime.InferenceSession(
            f"{prefix}.{precision}.onnx", options, providers=["CPUExecutionProvider"]
        )
        run_one = lambda x: session.run(None, {"x": x})[0]  # noqa: E731
    return lambda x: np.concatenate([run_one(x[i : i + 100]) for i in range(0, len(x), 100)])


def worker(opts) -> None:
    """Serve timed runs over stdin/stdout: 'run' -> wall and CPU milliseconds."""
    import numpy as np

    run = make_runner(opts.worker, opts.prefix, opts.threads)
    x = np.random.default_rng(0).uniform(-1, 1, (opts.batch, *SHAPES[opts.model]))
    x = x.astype(np.float32)
    for _ in range(opts.warmup):
        run(x)
    print("ready", flush=True)
    for line in sys.stdin:
        if line.strip() != "run":
            return
        start, cpu = time.perf_counter(), time.process_time()
        run(x)
        print(f"{(time.perf_counter() - start) * 1e3} {(time.process_time() - cpu) * 1e3}",
              flush=True)  # fmt: skip


def measure(prefix: str, model: str, batch: int, opts) -> dict:
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = str(opts.threads)
    processes = {
        runner: subprocess.Popen(
            [
                sys.executable,
                os.path.abspath(__file__),
                "--worker",
                runner,
                "--prefix",
                prefix,
                "--model",
                model,
                "--batch",
                str(batch),
                "--threads",
                str(opts.threads),
                "--warmup",
                str(opts.warmup),
            ],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for runner in RUNNERS
    }
    try:
        for process in processes.values():
            assert process.stdout.readline().strip() == "ready"
        samples: dict[str, list[tuple[float, float]]] = {r: [] for r in RUNNERS}
        repeats = opts.repeats if batch < 8 else max(3, opts.repeats // 2)
        for _ in range(repeats):
            for runner, process in processes.items():
                time.sleep(opts.cooldown)  # let the last runner's spinning threads sleep
                process.stdin.write("run\n")
                process.stdin.flush()
                wall, cpu = process.stdout.readline().split()
                samples[runner].append((float(wall), float(cpu)))
    finally:
        for process in processes.values():
            process.stdin.close()
            process.wait(timeout=60)
    row = {}
    for runner, pairs in samples.items():
        walls, cpus = [w for w, _ in pairs], [c for _, c in pairs]
        row[runner] = {
            "median_ms": round(statistics.median(walls), 2),
            "min_ms": round(min(walls), 2),
            "cpu_median_ms": round(statistics.median(cpus), 2),
        }
    ms = {runner: row[runner]["median_ms"] for runner in RUNNERS}
    row["ratios"] = {
        "predictor_int8_over_fp32": round(ms["predictor_int8"] / ms["predictor_fp32"], 3),
        "onnxruntime_int8_over_fp32": round(ms["onnxruntime_int8"] / ms["onnxruntime_fp32"], 3),
        "predictor_int8_over_onnxruntime_int8": round(
            ms["predictor_int8"] / ms["onnxruntime_int8"], 3
        ),
    }
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", default=",".join(SHAPES))
    parser.add_argument("--batches", default="1,32")
    parser.add_argument("--repeats", type=int, default=9, help="timed runs (halved at batch >= 8)")
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--cooldown", type=float, default=0.3, help="seconds between runs")
    parser.add_argument("--calibration", type=int, default=256, help="calibration images")
    parser.add_argument("--resnet-steps", type=int, default=24, help="ResNet-18 SGD steps")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--prefix", help=argparse.SUPPRESS)
    parser.add_argument("--model", help=argparse.SUPPRESS)
    parser.add_argument("--batch", type=int, help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.worker:
        worker(opts)
        return
    report = {
        "threads": opts.threads,
        "repeats": opts.repeats,
        "load_average_before": round(os.getloadavg()[0], 2),
        "results": {},
    }
    with tempfile.TemporaryDirectory() as folder:
        for model in opts.models.split(","):
            prefix = os.path.join(folder, model)
            result = prepare(model, folder, opts)
            result["latency"] = {
                f"batch_{batch}": measure(prefix, model, batch, opts)
                for batch in [int(b) for b in opts.batches.split(",")]
            }
            report["results"][model] = result
            print(json.dumps({model: result}), file=sys.stderr)
    report["load_average_after"] = round(os.getloadavg()[0], 2)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
