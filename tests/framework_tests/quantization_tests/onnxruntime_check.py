"""Helpers for running exported INT8 models in onnxruntime (a test oracle) and seeing which
kernels its optimiser chose."""

from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest

import framework

INT8_KERNELS = {"QLinearConv", "ConvInteger", "QGemm", "QLinearMatMul", "MatMulInteger"}
FLOAT_KERNELS = {"Conv", "Gemm", "MatMul", "FusedConv", "FusedGemm", "FusedMatMul"}


def session(path: str, folder: str):
    """An onnxruntime CPU session of `path` and the op counts of its optimised graph."""
    ort = pytest.importorskip("onnxruntime")
    options = ort.SessionOptions()
    optimized = os.path.join(folder, os.path.basename(path) + ".optimized.onnx")
    options.optimized_model_filepath = optimized
    options.log_severity_level = 3  # no warning about hardware-specific optimised models
    options.intra_op_num_threads = 1
    runner = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    graph = framework.onnx.read_model(optimized).graph
    return runner, Counter(node.op_type for node in graph.nodes)


def run(runner, images: np.ndarray, batch: int = 100) -> np.ndarray:
    name = runner.get_inputs()[0].name
    return np.concatenate(
        [runner.run(None, {name: images[i : i + batch]})[0] for i in range(0, len(images), batch)]
    )
