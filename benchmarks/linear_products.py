"""Linear layers' products on several threads: MKL's team (`gemm.threaded_matmul`, what
`Linear` runs when the mkl wheel and GNU OpenMP are installed) against NumPy's OpenBLAS and
PyTorch, the same thread count each.

    python benchmarks/linear_products.py [--threads 2] [--repeats 300]

The shapes are one training step of the MLP benchmark model (784-512-512-10, batch 128):
three forward products, two weight gradients and two input gradients, the transposed operands
as views, as `framework/ops/nn/linear.py` passes them. Products below `TUNING.small_gemm_macs`
run on one thread in training; they are timed here on the team too. Prints JSON: median
microseconds per product and library, the step's totals, and ours / each peer.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys

THREADS = "2"
if "--threads" in sys.argv:
    THREADS = sys.argv[sys.argv.index("--threads") + 1]
for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[variable] = THREADS  # before NumPy loads its BLAS
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from timing import median_seconds  # noqa: E402

from framework.backends.cpu import gemm  # noqa: E402

# name -> ((rows, cols) of a, (rows, cols) of b, whether a / b are transposed views)
PRODUCTS = {
    "forward 784->512": ((128, 784), (784, 512), False, False),
    "forward 512->512": ((128, 512), (512, 512), False, False),
    "forward 512->10": ((128, 512), (512, 10), False, False),
    "weight grad 784x512": ((784, 128), (128, 512), True, False),
    "weight grad 512x512": ((512, 128), (128, 512), True, False),
    "input grad 512": ((128, 512), (512, 512), False, True),
    "input grad from 10": ((128, 10), (10, 512), False, True),
}


def _operand(rng, shape, transposed: bool):
    if transposed:
        return rng.standard_normal(shape[::-1], dtype=np.float32).T
    return rng.standard_normal(shape, dtype=np.float32)


def median_us(run, repeats: int) -> float:
    return round(median_seconds(run, repeats, warmup=20) * 1e6, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=300)
    opts = parser.parse_args()
    torch = None
    if importlib.util.find_spec("torch") is not None:
        import torch

        torch.set_num_threads(opts.threads)
    rng = np.random.default_rng(0)
    report: dict = {"threads": opts.threads, "mkl_team": gemm.threaded(), "products": []}
    for name, (a_shape, b_shape, a_t, b_t) in PRODUCTS.items():
        a, b = _operand(rng, a_shape, a_t), _operand(rng, b_shape, b_t)
        out = np.empty((a.shape[0], b.shape[1]), np.float32)
        row: dict = {"product": name}
        if gemm.threaded():
            row["ours_us"] = median_us(
                lambda a=a, b=b, out=out: gemm.threaded_matmul(a, b, out, opts.threads),
                opts.repeats,
            )
        row["numpy_us"] = median_us(
            lambda a=a, b=b, out=out: np.matmul(a, b, out=out), opts.repeats
        )
        if torch is not None:
            ta, tb, tout = torch.from_numpy(a), torch.from_numpy(b), torch.from_numpy(out)
            row["torch_us"] = median_us(
                lambda ta=ta, tb=tb, tout=tout: torch.matmul(ta, tb, out=tout), opts.repeats
            )
        report["products"].append(row)
        print(json.dumps(row), file=sys.stderr)
    totals = {}
    for key in ("ours_us", "numpy_us", "torch_us"):
        if all(key in row for row in report["products"]):
            totals[key] = round(sum(row[key] for row in report["products"]), 1)
    report["totals"] = totals
    for peer in ("numpy_us", "torch_us"):
        if "ours_us" in totals and peer in totals:
            report[f"ours_over_{peer[:-3]}"] = round(totals["ours_us"] / totals[peer], 3)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
