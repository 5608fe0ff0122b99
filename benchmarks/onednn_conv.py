"""Convolution forward: ours against Intel oneDNN (called through ctypes) and PyTorch.

    python benchmarks/onednn_conv.py [--repeat 30] [--threads 2]

A measurement for a decision, not a runtime path: would oneDNN's JIT convolutions (what
PyTorch's CPU convolutions run on) close the gap to PyTorch in training and to onnxruntime in
the predictor? oneDNN is a peer here, like onnxruntime elsewhere: it runs when the
`onednn-cpu-gomp` wheel (oneDNN 3.2, OpenMP runtime, CPU only, a 54 MB library) is installed,
and is skipped otherwise. The newer `onednn` wheels run the CPU through SYCL and pull in about
2 GB of runtime; their CPU engine did not start on our machines.

Cases: the 3x3 convolutions of CIFAR ResNet-18 at batch 32 (training forward) and at batch 1
(a predictor run), and ResNet-18's 56x56 stage at batch 1. Inputs and outputs are channel-last
for all three (`channels_last` tensors for PyTorch). oneDNN picks its own weight layout; the
one-time reorder into it is timed apart (`onednn_reorder_ms`), as a predictor would do it once.
Each runner makes `repeat` calls in a row after warm-up calls, a pause after the previous
runner, so that one runtime's spinning threads do not slow the other's calls.

Prints JSON: per case the median milliseconds of each runner, oneDNN's largest relative
difference from ours, and the ratios ours / oneDNN and ours / PyTorch.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from framework.ops.nn.conv_geometry import ConvGeometry  # noqa: E402
from framework.ops.nn.conv_kernels import conv_forward  # noqa: E402

# (batch, channels in = out, size)
CASES = [
    (32, 64, 32),
    (32, 128, 16),
    (32, 256, 8),
    (32, 512, 4),
    (1, 64, 32),
    (1, 128, 16),
    (1, 256, 8),
    (1, 512, 4),
    (1, 64, 56),
]
PAUSE_SECONDS = 0.3

# oneDNN C API constants (dnnl_types.h, v3)
_F32 = 3
_FORMAT_ANY = 1
_ENGINE_CPU = 1
_STREAM_IN_ORDER = 1
_FORWARD_TRAINING, _FORWARD_INFERENCE = 64, 96
_CONVOLUTION_DIRECT = 1
_QUERY_WEIGHTS_MD = 131
_ARG_SRC, _ARG_DST, _ARG_WEIGHTS = 1, 17, 33
_ALLOCATE = ctypes.c_void_p(2**64 - 1)  # DNNL_MEMORY_ALLOCATE: the library owns the buffer


class _Arg(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_int), ("memory", ctypes.c_void_p)]


class OneDNN:
    """The few oneDNN calls a convolution forward needs, on one CPU engine and stream."""

    def __init__(self, path: str) -> None:
        lib = self.lib = ctypes.CDLL(path)
        ptr, out, dims = ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int64 * 12
        i = ctypes.c_int
        self.dims = dims
        signatures = {
            "dnnl_engine_create": [out, ctypes.c_int, ctypes.c_size_t],
            "dnnl_stream_create": [out, ptr, ctypes.c_uint],
            "dnnl_memory_desc_create_with_strides": [out, i, dims, i, dims],
            "dnnl_memory_desc_create_with_tag": [out, i, dims, i, i],
            "dnnl_convolution_forward_primitive_desc_create": [out, ptr, i, i]
            + [ptr] * 4
            + [dims] * 4
            + [ptr],
            "dnnl_reorder_primitive_desc_create": [out, ptr, ptr, ptr, ptr, ptr],
            "dnnl_primitive_create": [out, ptr],
            "dnnl_memory_create": [out, ptr, ptr, ptr],
            "dnnl_primitive_execute": [ptr, ptr, ctypes.c_int, ptr],
            "dnnl_stream_wait": [ptr],
        }
        for name, argtypes in signatures.items():
            function = getattr(lib, name)
            function.argtypes, function.restype = argtypes, ctypes.c_int
        lib.dnnl_primitive_desc_query_md.argtypes = [ptr, ctypes.c_int, ctypes.c_int]
        lib.dnnl_primitive_desc_query_md.restype = ptr
        self.engine = self._make("dnnl_engine_create", _ENGINE_CPU, 0)
        self.stream = self._make("dnnl_stream_create", self.engine, _STREAM_IN_ORDER)

    def _make(self, name: str, *args):
        handle = ctypes.c_void_p()
        status = getattr(self.lib, name)(ctypes.byref(handle), *args)
        if status != 0:
            raise RuntimeError(f"{name} failed with oneDNN status {status}")
        return handle

    def desc(self, shape, strides=None):
        """A float32 memory descriptor: given strides (in elements), or any layout."""
        if strides is None:
            return self._make(
                "dnnl_memory_desc_create_with_tag",
                len(shape),
                self.dims(*shape),
                _F32,
                _FORMAT_ANY,
            )
        return self._make(
            "dnnl_memory_desc_create_with_strides",
            len(shape),
            self.dims(*shape),
            _F32,
            self.dims(*strides),
        )

    def memory(self, desc, array=None):
        handle = ctypes.c_void_p(array.ctypes.data) if array is not None else _ALLOCATE
        return self._make("dnnl_memory_create", desc, self.engine, handle)

    def primitive(self, pd):
        return self._make("dnnl_primitive_create", pd)

    def execute(self, primitive, args: list[tuple[int, object]]) -> None:
        packed = (_Arg * len(args))(*[_Arg(a, m) for a, m in args])
        status = self.lib.dnnl_primitive_execute(
            primitive, self.stream, len(args), ctypes.cast(packed, ctypes.c_void_p)
        )
        if status != 0 or self.lib.dnnl_stream_wait(self.stream) != 0:
            raise RuntimeError(f"dnnl_primitive_execute failed with oneDNN status {status}")

    def conv3x3(self, x_nhwc: np.ndarray, weight: np.ndarray, prop_kind: int):
        """`(run, reorder, out)`: a 3x3 stride-1 pad-1 convolution of the channel-last `x`;
        `reorder()` puts `weight` into the layout oneDNN chose, `run()` convolves into `out`."""
        n, h, w, c = x_nhwc.shape
        o = weight.shape[0]
        out = np.empty((n, h, w, o), np.float32)
        src = self.desc((n, c, h, w), (h * w * c, 1, w * c, c))
        dst = self.desc((n, o, h, w), (h * w * o, 1, w * o, o))
        pd = self._make(
            "dnnl_convolution_forward_primitive_desc_create",
            self.engine,
            prop_kind,
            _CONVOLUTION_DIRECT,
            src,
            self.desc(weight.shape),
            None,
            dst,
            self.dims(1, 1),
            self.dims(0, 0),
            self.dims(1, 1),
            self.dims(1, 1),
            None,
        )
        conv = self.primitive(pd)
        chosen = self.lib.dnnl_primitive_desc_query_md(pd, _QUERY_WEIGHTS_MD, 0)
        plain = self.desc(weight.shape, (c * 9, 9, 3, 1))
        reorder_pd = self._make(
            "dnnl_reorder_primitive_desc_create", plain, self.engine, chosen, self.engine, None
        )
        reorder_primitive = self.primitive(reorder_pd)
        memories = {
            "x": self.memory(src, x_nhwc),
            "out": self.memory(dst, out),
            "plain": self.memory(plain, weight),
            "chosen": self.memory(chosen),
        }

        def reorder() -> None:
            self.execute(
                reorder_primitive, [(_ARG_SRC, memories["plain"]), (_ARG_DST, memories["chosen"])]
            )

        def run() -> None:
            self.execute(
                conv,
                [
                    (_ARG_SRC, memories["x"]),
                    (_ARG_WEIGHTS, memories["chosen"]),
                    (_ARG_DST, memories["out"]),
                ],
            )

        return run, reorder, out


def load_onednn() -> OneDNN | None:
    path = os.path.join(sys.prefix, "lib", "libdnnl.so.3")
    if not os.path.exists(path):
        return None
    return OneDNN(path)


def _median_ms(run, repeat: int, warmup: int = 5) -> float:
    time.sleep(PAUSE_SECONDS)
    for _ in range(warmup):
        run()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return round(statistics.median(samples) * 1e3, 3)


def bench_case(case, onednn: OneDNN | None, torch, repeat: int) -> dict:
    n, c, size = case
    rng = np.random.default_rng(0)
    x_nhwc = rng.standard_normal((n, size, size, c), dtype=np.float32)
    weight = (rng.standard_normal((c, c, 3, 3)) * 0.05).astype(np.float32)
    geom = ConvGeometry((3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), 1, (size, size), (size, size))
    x = x_nhwc.transpose(0, 3, 1, 2)  # NCHW-shaped, channel-last memory, as layers pass it
    row: dict = {"batch": n, "channels": c, "size": size}
    row["ours_ms"] = _median_ms(lambda: conv_forward(x, weight, None, geom), repeat)
    ours = conv_forward(x, weight, None, geom)
    if onednn is not None:
        prop = _FORWARD_TRAINING if n > 1 else _FORWARD_INFERENCE
        run, reorder, out = onednn.conv3x3(x_nhwc, weight, prop)
        row["onednn_reorder_ms"] = _median_ms(reorder, repeat)
        reorder()
        row["onednn_ms"] = _median_ms(run, repeat)
        run()
        difference = np.abs(out.transpose(0, 3, 1, 2) - ours).max() / np.abs(ours).max()
        row["onednn_max_relative_difference"] = float(f"{difference:.2e}")
        row["ours_over_onednn"] = round(row["ours_ms"] / row["onednn_ms"], 3)
    if torch is not None:
        tx = torch.from_numpy(x_nhwc).permute(0, 3, 1, 2)  # a channels_last view
        tw = torch.from_numpy(weight).contiguous(memory_format=torch.channels_last)
        with torch.no_grad():
            row["torch_ms"] = _median_ms(
                lambda: torch.nn.functional.conv2d(tx, tw, padding=1), repeat
            )
        row["ours_over_torch"] = round(row["ours_ms"] / row["torch_ms"], 3)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    try:
        import torch

        torch.set_num_threads(args.threads)
    except ImportError:
        torch = None
    onednn = load_onednn()
    report = {
        "threads": args.threads,
        "repeat": args.repeat,
        "onednn": onednn is not None,
        "torch": torch is not None,
        "cases": [bench_case(case, onednn, torch, args.repeat) for case in CASES],
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
