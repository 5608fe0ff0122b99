"""INT8 kernels: QuantizeLinear/DequantizeLinear semantics (ONNX), the exact int8 GEMM, and
quantized conv/linear kernels against the fake-quantized float graph they replace."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn
from framework.inference.executor import Executor
from framework.inference.kernels import KernelContext, builder_for
from framework.inference.kernels.int8_gemm import EXACT_LIMIT, IntegerGemm, exact_pieces
from framework.inference.kernels.quantize_linear import dequantize, quantize
from framework.jit.graph import Node
from framework.quantization import PTQ, AbsmaxObserver, QuantConfig, QuantizedModel


def _onnx_quantize(x, scale, zero, low, high):
    """The ONNX QuantizeLinear formula, element by element in Python."""
    out = []
    for value in np.ravel(x):
        r = round(float(value) / float(scale))  # Python rounds half to even, as ONNX
        out.append(min(max(r + int(zero), low), high))
    return np.array(out).reshape(np.shape(x))


@pytest.mark.parametrize(
    "dtype, zero, low, high",
    [(np.int8, 0, -128, 127), (np.int8, -128, -128, 127), (np.uint8, 128, 0, 255)],
)
def test_quantize_rounds_half_to_even_and_saturates(dtype, zero, low, high) -> None:
    x = np.array(
        [-300.0, -2.5, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.49, 126.5, 127.5, 300.0], np.float32
    )
    scale = np.asarray(1.0, np.float32)
    q = quantize(np, x, scale, np.asarray(zero, dtype))
    assert q.dtype == dtype
    np.testing.assert_array_equal(q, _onnx_quantize(x, 1.0, zero, low, high))
    back = dequantize(np, q, scale, np.asarray(zero, dtype))
    np.testing.assert_array_equal(back, (q.astype(np.float32) - zero) * scale)


def test_quantize_and_dequantize_kernels_work_per_axis() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 3, 4)).astype(np.float32)
    scale = np.array([0.01, 0.02, 0.05], np.float32)
    zero = np.array([0, -128, 10], np.int8)
    node_q = Node("quantize_linear", ["x", "s", "z"], ["q"], {"axis": 1}, "q")
    node_dq = Node("dequantize_linear", ["q", "s", "z"], ["y"], {"axis": 1}, "dq")
    q = builder_for("quantize_linear")(node_q, KernelContext(np))(x, scale, zero)
    y = builder_for("dequantize_linear")(node_dq, KernelContext(np))(q, scale, zero)
    for c in range(3):
        expected = _onnx_quantize(x[:, c], scale[c], zero[c], -128, 127)
        np.testing.assert_array_equal(q[:, c], expected)
        np.testing.assert_allclose(y[:, c], (expected - zero[c]) * scale[c], rtol=1e-6)
    with pytest.raises(ValueError, match="3 scales along axis 2"):
        bad = Node("quantize_linear", ["x", "s", "z"], ["q"], {"axis": 2}, "bad")
        builder_for("quantize_linear")(bad, KernelContext(np))(x, scale, zero)


def test_integer_gemm_is_exact_where_one_float32_gemm_is_not() -> None:
    rng = np.random.default_rng(1)
    k = 4096  # 128 * 127 * 4096 is far beyond 2**24
    weight = rng.choice(np.array([-127, 127], np.int8), size=(8, k))
    rows = rng.choice(np.array([-128, 127], np.int8), size=(5, k))
    rows[:, : k // 2] = np.where(weight[0, : k // 2] > 0, 127, -128)  # a near-worst case
    exact = rows.astype(np.int64) @ weight.T.astype(np.int64)
    gemm = IntegerGemm(np, weight)
    assert len(gemm.pieces) > 1
    assert all(
        128 * np.abs(weight[:, p]).astype(np.int64).sum(1).max() <= EXACT_LIMIT for p in gemm.pieces
    )
    np.testing.assert_array_equal(gemm(rows.astype(np.float32)), exact)
    single = rows.astype(np.float32) @ weight.T.astype(np.float32)
    assert np.abs(single.astype(np.int64) - exact).max() > 0  # what the pieces avoid


def test_typical_weights_need_a_single_gemm() -> None:
    weight = np.clip(np.rint(np.random.default_rng(2).normal(size=(64, 1152)) * 40), -127, 127)
    assert exact_pieces(weight.astype(np.int8)) == [slice(0, 1152)]


def _int8_values(program, x) -> dict[str, np.ndarray]:
    """Every int8 tensor the program computes for input x, by name."""
    graph = program.copy()
    names = [n for node in graph.nodes for n in node.outputs if graph.values[n].dtype == "int8"]
    graph.outputs = list(graph.outputs) + names
    values = Executor(graph).run([x])
    return dict(zip(graph.outputs, values, strict=True))


class Residual(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2D(8, 8, 3, padding=1)
        self.bn = nn.BatchNorm2D(8)
        self.conv2 = nn.Conv2D(8, 8, 3, padding=1)
        self.head = nn.Linear(8 * 6 * 6, 5)

    def forward(self, x):
        y = self.conv2(nn.functional.relu(self.bn(self.conv1(x))))
        return self.head(framework.flatten(nn.functional.relu(y + x), 1))


_MODELS = {
    "conv-stride-dilation": (lambda: nn.Sequential(
        nn.Conv2D(3, 16, 3, stride=2, padding=2, dilation=2), nn.ReLU(), nn.Flatten(),
        nn.Linear(16 * 7 * 7, 4)), (4, 3, 14, 14)),
    "pointwise-stride": (lambda: nn.Sequential(
        nn.Conv2D(3, 16, 1, stride=2), nn.Flatten(), nn.Linear(16 * 7 * 7, 4)), (4, 3, 14, 14)),
    "grouped-relu6": (lambda: nn.Sequential(
        nn.Conv2D(4, 8, 3, padding=1, groups=2), nn.ReLU6(), nn.Conv2D(8, 8, 3, padding=1),
        nn.Flatten(), nn.Linear(8 * 8 * 8, 3)), (2, 4, 8, 8)),
    "depthwise-hardswish": (lambda: nn.Sequential(
        nn.Conv2D(3, 6, 1), nn.Conv2D(6, 6, 3, padding=1, groups=6), nn.Hardswish(),
        nn.Conv2D(6, 4, 1), nn.Flatten(), nn.Linear(4 * 8 * 8, 3)), (3, 3, 8, 8)),
    "pool-bn-linear-chain": (lambda: nn.Sequential(
        nn.Conv2D(1, 6, 3, padding=1), nn.BatchNorm2D(6), nn.ReLU(), nn.MaxPool2D(2, 2),
        nn.Flatten(), nn.Linear(6 * 5 * 5, 12), nn.Linear(12, 4)), (5, 1, 10, 10)),
    "residual": (Residual, (4, 8, 6, 6)),
}  # fmt: skip


@pytest.mark.parametrize("name", list(_MODELS))
def test_int8_kernels_agree_with_fake_quantization_within_one_step(name) -> None:
    build, shape = _MODELS[name]
    framework.seed(3)
    model = build()
    model.eval()
    rng = np.random.default_rng(4)
    x = rng.normal(size=shape).astype(np.float32)
    ptq = PTQ(QuantConfig(activation=AbsmaxObserver()))
    observed = ptq.quantize(model)
    observed(x)
    observed(rng.normal(size=shape).astype(np.float32))
    int8 = ptq.convert(observed)
    fake = QuantizedModel(int8.graph, int8_kernels=False)
    counts = int8.program.op_counts()
    assert counts.get("conv2d", 0) == counts.get("linear", 0) == 0, counts
    assert not {"quantized_conv2d", "quantized_linear"} & set(fake.program.op_counts())
    # every int8 tensor within one quantization step, nearly all identical
    ours, reference = _int8_values(int8.program, x), _int8_values(fake.program, x)
    shared = [n for n in ours if n in reference]
    assert shared
    for n in shared:
        diff = np.abs(ours[n].astype(np.int32) - reference[n].astype(np.int32))
        assert diff.max() <= 1 and diff.mean() < 1e-3, (n, diff.max(), diff.mean())
    # the float outputs: one output step of the last op (its scale times the weight scale)
    got, want = int8(x).numpy(), fake(x).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())


@pytest.mark.parametrize(
    "channels, groups, x_zero, extreme, workers",
    [(5, 1, -3, False, 1), (6, 2, 0, False, 2), (512, 1, -128, True, 2), (4, 4, -128, True, 1)],
    ids=["one-gemm", "grouped", "channel-pieces", "depthwise"],
)
def test_quantized_conv_output_is_the_exact_integer_result(
    channels, groups, x_zero, extreme, workers
) -> None:
    rng = np.random.default_rng(5)
    x_q = rng.integers(-128, 128, size=(2, channels, 5, 5)).astype(np.int8)
    shape = (8 if groups == 1 else channels, channels // groups, 3, 3)
    w_q = rng.integers(-127, 128, size=shape).astype(np.int8)
    if extreme:  # sums far beyond 2**24 with odd values: one float32 GEMM would round
        w_q = np.where(w_q >= 0, 127, -127).astype(np.int8)
        w_q[0] = 127
        x_q = rng.integers(126, 128, size=x_q.shape).astype(np.int8)
    node = Node(
        "quantized_conv2d",
        ["x", "xs", "xz", "w", "ws"],
        ["y"],
        {"strides": [1, 1], "pads": [1, 1, 1, 1], "dilations": [1, 1], "groups": groups},
        "qconv",
    )
    zero = np.asarray(x_zero, np.int8)
    statics = [None, np.asarray(1.0, np.float32), zero, w_q, np.ones(shape[0], np.float32)]
    ctx = KernelContext(np, static_inputs=statics, workers=workers)
    y = builder_for("quantized_conv2d")(node, ctx)(x_q, *statics[1:])
    shifted = np.pad(x_q.astype(np.int64) - int(zero), ((0, 0), (0, 0), (1, 1), (1, 1)))
    windows = np.lib.stride_tricks.sliding_window_view(shifted, (3, 3), axis=(2, 3))
    per_group = channels // groups
    out_per_group = shape[0] // groups
    exact = np.concatenate(
        [
            np.einsum(
                "nchwij,ocij->nohw",
                windows[:, g * per_group : (g + 1) * per_group],
                w_q[g * out_per_group : (g + 1) * out_per_group].astype(np.int64),
            )
            for g in range(groups)
        ],
        axis=1,
    )
    assert np.abs(exact).max() < 2**31  # an int32 accumulator holds it
    if extreme and groups == 1:
        assert np.any(exact.astype(np.float32).astype(np.int64) != exact)  # beyond float32
    np.testing.assert_array_equal(y, exact.astype(np.float32))  # rounded once, at the end
