"""What the array formula of a double-formula backward is worth (issue 22 item 3).

    python benchmarks/backward_formulas.py [--repeats 5] [--only ReLU,GELU]

Some Functions write their backward twice: on raw arrays (plain backward) and in Tensor ops
(recorded under `create_graph=True`). This times one `backward` call of each, both formulas,
with no graph being recorded: the Tensor formula is run by making its module's
`is_grad_enabled` answer True while grad mode stays off, which is exactly what a plain backward
would cost if the array formula were deleted. Activations are float32 [32, 64, 56, 56] (a
ResNet stage), softmax [32, 8, 128, 128] (attention scores), cross-entropy [256, 1000]. The
Functions listed are those that keep two formulas because the array one paid here; the ones
whose array formula was deleted (leaky_relu, prelu, elu, celu, rrelu, log_sigmoid, hardswish,
mish, Linear, the elementwise losses, nll_loss) were measured at commit 36ffce9
(benchmarks/README.md). The two formulas take turns within each repeat, in alternating
order, so other load and warm caches fall on both alike. Prints JSON: per Function, the
median wall and process-CPU milliseconds of each and their ratios; on a loaded machine the CPU
ratio is the steadier one.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

import framework  # noqa: E402
import framework.nn.functional as F  # noqa: E402
from framework.core.autograd import no_grad  # noqa: E402

ACTIVATION = (32, 64, 56, 56)
SCORES = (32, 8, 128, 128)
LOGITS = (256, 1000)


def _tensor(rng, shape, low=-3.0, high=3.0, grad=True):
    array = rng.uniform(low, high, size=shape).astype(np.float32)
    return framework.to_tensor(array, stop_gradient=not grad)


def _labels(rng):
    return framework.to_tensor(rng.integers(0, LOGITS[1], size=LOGITS[0]))


def cases(rng):
    """name: (module whose is_grad_enabled picks the formula, zero-argument forward)."""
    masks = "framework.nn.functional.activation.masks"
    shrinks = "framework.nn.functional.activation.shrinks"
    sig = "framework.nn.functional.sigmoid"
    ce = "framework.nn.functional.cross_entropy"
    x = _tensor(rng, ACTIVATION)
    scores = _tensor(rng, SCORES)
    logits = _tensor(rng, LOGITS)
    labels = _labels(rng)
    return {
        "ReLU": (masks, lambda: F.relu(x)),
        "ClipActivation": (masks, lambda: F.relu6(x)),
        "Shrink": (masks, lambda: F.softshrink(x)),
        "ThresholdedReLU": (masks, lambda: F.thresholded_relu(x)),
        "TanhShrink": (shrinks, lambda: F.tanhshrink(x)),
        "Softsign": (shrinks, lambda: F.softsign(x)),
        "Sigmoid": (sig, lambda: F.sigmoid(x)),
        "SiLU": (sig, lambda: F.silu(x)),
        "HardSigmoid": (sig, lambda: F.hardsigmoid(x)),
        "GELU": ("framework.nn.functional.gelu", lambda: F.gelu(x)),
        "GELUTanh": ("framework.nn.functional.gelu", lambda: F.gelu(x, approximate=True)),
        "Softplus": ("framework.nn.functional.softplus", lambda: F.softplus(x)),
        "Softmax": ("framework.nn.functional.softmax", lambda: F.softmax(scores)),
        "LogSoftmax": ("framework.nn.functional.softmax", lambda: F.log_softmax(scores)),
        "SoftmaxCrossEntropy": (ce, lambda: F.cross_entropy(logits, labels)),
    }


@contextlib.contextmanager
def tensor_formula(module_name: str, on: bool):
    """Make `module_name`'s backward take its Tensor-op branch (grad mode itself stays off)."""
    module = sys.modules[module_name]
    original = module.is_grad_enabled
    if on:
        module.is_grad_enabled = lambda: True
    try:
        yield
    finally:
        module.is_grad_enabled = original


def time_backward(module_name: str, forward, repeats: int) -> dict:
    out = forward()
    node = out._node
    gy = framework.to_tensor(np.ones(out.shape, dtype=np.float32))
    wall = {"array": [], "tensor": []}
    cpu = {"array": [], "tensor": []}
    for round_ in range(repeats + 1):  # the first round warms up
        for path in ("array", "tensor") if round_ % 2 else ("tensor", "array"):
            with no_grad(), tensor_formula(module_name, path == "tensor"):
                start, start_cpu = time.perf_counter(), time.process_time()
                node.backward(gy)
                elapsed, elapsed_cpu = time.perf_counter() - start, time.process_time() - start_cpu
            if round_:
                wall[path].append(elapsed * 1e3)
                cpu[path].append(elapsed_cpu * 1e3)
    result = {}
    for clock, samples in (("", wall), ("cpu_", cpu)):
        array_ms = statistics.median(samples["array"])
        tensor_ms = statistics.median(samples["tensor"])
        result[f"array_{clock}ms"] = round(array_ms, 2)
        result[f"tensor_{clock}ms"] = round(tensor_ms, 2)
        ratio = round(tensor_ms / max(array_ms, 1e-9), 3)
        result[f"tensor_over_array_{clock.rstrip('_') or 'wall'}"] = ratio
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", default="", help="comma-separated Function names")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    only = set(filter(None, args.only.split(",")))
    results = {}
    for name, (module_name, forward) in cases(rng).items():
        if only and name not in only:
            continue
        results[name] = time_backward(module_name, forward, args.repeats)
        print(name, results[name], file=sys.stderr, flush=True)
    print(json.dumps({"repeats": args.repeats, "functions": results}, indent=2))


if __name__ == "__main__":
    main()
