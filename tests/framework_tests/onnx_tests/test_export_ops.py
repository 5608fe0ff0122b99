"""The exporter's op coverage: small models using most graph-IR ops export, pass
onnx.checker and give the eager outputs in onnxruntime at two batch sizes and several
opsets; plus export of jit-loaded layers, metadata, errors and a QDQ input hook."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.jit import InputSpec

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")


class Elementwise(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        # `where` with a constant condition (test_export_logic.py covers computed ones)
        mask = np.random.default_rng(2).uniform(size=(3, 4)) > 0.5
        self.register_buffer("mask", framework.to_tensor(mask))

    def forward(self, x, y):
        a = framework.pow(x * y - x / (framework.abs(y) + 1), 2) + framework.maximum(x, y)
        b = framework.exp(framework.minimum(x, y)) + framework.log1p(framework.abs(x))
        c = framework.expm1(y * 0.1) + framework.log2(framework.abs(x) + 1)
        d = framework.sqrt(framework.abs(y)) + framework.rsqrt(framework.abs(x) + 1)
        e = framework.sin(x) * framework.cos(y) + framework.tanh(x) - framework.erf(y)
        f = framework.floor(x * 3) + framework.ceil(y) + framework.round(x) + framework.trunc(y * 2)
        g = framework.sign(x) - framework.reciprocal(framework.square(y) + 1)
        h = framework.remainder(x, 0.7)
        i = framework.atan2(x, y) + framework.clip(x, -0.5, 0.3) + framework.scale(y, 2.0, 1.0)
        return framework.where(self.mask, a + b + c, d + e + f) + g + h + i


class Activations(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.prelu = nn.PReLU(4)

    def forward(self, x):
        parts = [
            F.relu(x), F.relu6(x * 4), F.leaky_relu(x, 0.2), F.elu(x, 0.5), F.selu(x),
            F.celu(x, 1.5), F.gelu(x), F.gelu(x, approximate=True), F.softplus(x, beta=2.0),
            F.softsign(x), F.silu(x), F.mish(x), F.hardswish(x * 3), F.hardsigmoid(x),
            F.thresholded_relu(x, 0.3), F.softshrink(x, 0.4), F.hardshrink(x, 0.2),
            F.tanhshrink(x), F.log_sigmoid(x), F.softmax(x, axis=1), F.log_softmax(x),
            self.prelu(x), F.sigmoid(x),
        ]  # fmt: skip
        return framework.concat(parts, axis=1)


class Shapes(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.embedding = nn.Embedding(10, 4, padding_idx=0)

    def forward(self, x, ids):
        n = x.shape[0]
        a = framework.reshape(framework.transpose(x, [0, 2, 3, 1]), [-1, 5 * 6, 4])
        first, second = framework.split(a, [10, 20], axis=1)
        b = framework.concat([second, first], axis=1)
        c = framework.stack(framework.unstack(x, axis=1)[::-1], axis=1)
        d = x[:, 1:3, ::-1, 2] + x[:, 0:2, :, -1]
        e = framework.flip(x, [2, 3]) + framework.roll(x, shifts=[1, -2], axis=[2, 3])
        f = framework.expand(x[:, :, :1, :], [n, 4, 5, 6]) + framework.tile(x[:, :1], [1, 4, 1, 1])
        g = F.pad(x, [1, 2, 0, 1], mode="reflect") + F.pad(x, [1, 2, 0, 1], value=0.5)
        h = F.pad(x, [2, 1, 1, 0], mode="replicate")
        emb = self.embedding(ids)
        picked = framework.gather(x, framework.to_tensor([2, 0]), axis=1)
        sums = [
            framework.sum(x, axis=[1, 3]), framework.mean(x, axis=-1).sum(axis=-1, keepdim=True)
            .expand([n, 4, 5]), framework.max(x, axis=2), framework.min(x, axis=2),
            framework.prod(x[:, :, :2], axis=2), framework.logsumexp(x, axis=2),
            framework.var(x, axis=2), framework.std(x, axis=2, unbiased=False),
        ]  # fmt: skip
        cast = framework.cast(framework.cast(x * 10, "float64"), "float32")
        out = framework.matmul(a, b, transpose_y=True).sum(axis=[1, 2])
        total = out + b.sum(axis=[1, 2]) + d.sum(axis=[1, 2])
        for t in (c, e, f, g, h, picked, cast):
            total = total + t.sum(axis=[1, 2, 3])
        return (
            total,
            emb,
            framework.concat([s.reshape([n, -1]) for s in sums], axis=1),
        )  # fmt: skip


class Layers(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.conv1d = nn.Conv1D(4, 6, 3, padding=2, dilation=2)
        self.bn1d = nn.BatchNorm1D(6)
        self.deconv = nn.Conv2DTranspose(4, 3, 3, stride=2, padding=1, output_padding=1)
        self.conv_nhwc = nn.Conv2D(3, 4, 3, padding=1, data_format="NHWC")
        self.layer_norm = nn.LayerNorm([4])
        self.group_norm = nn.GroupNorm(2, 4)
        self.instance_norm = nn.InstanceNorm2D(4)
        self.linear = nn.Linear(4, 5)

    def forward(self, x):
        seq = framework.reshape(x, [-1, 4, 30])
        a = F.max_pool1d(self.bn1d(self.conv1d(seq)), 3, 2, ceil_mode=True)
        b = self.deconv(x)
        c = F.avg_pool2d(b, 3, 2, padding=1, exclusive=False, ceil_mode=True)
        d = F.avg_pool2d(b, 2, 2, divisor_override=3)
        e = F.adaptive_avg_pool2d(b, [3, 4]).sum(axis=[2, 3]) + F.adaptive_max_pool2d(
            b, [5, 3]
        ).sum(axis=[2, 3])
        nhwc = framework.transpose(b, [0, 2, 3, 1])
        f = self.conv_nhwc(nhwc)
        g = self.layer_norm(f) + self.group_norm(framework.transpose(f, [0, 3, 1, 2])).mean()
        h = self.instance_norm(x)
        i = self.linear(g)
        total = a.sum(axis=[1, 2]) + e.sum(axis=1)
        for t in (c, d, h):
            total = total + t.sum(axis=[1, 2, 3])
        return total, i


def _randomise(model) -> None:
    rng = np.random.default_rng(1)
    for name, tensor in model.state_dict().items():
        if name.endswith("_variance"):
            tensor.set_value(rng.uniform(0.5, 1.5, tensor.shape).astype(np.float32))
        elif tensor.dtype == framework.float32:
            tensor.set_value(rng.normal(0, 0.5, tensor.shape).astype(np.float32))


CASES = {
    "elementwise": (Elementwise, [("x", [None, 3, 4]), ("y", [None, 3, 4])]),
    "activations": (Activations, [("x", [None, 4, 5])]),
    "shapes": (Shapes, [("x", [None, 4, 5, 6]), ("ids", [None, 3])]),
    "layers": (Layers, [("x", [None, 4, 5, 6])]),
}


def _inputs(specs, batch: int, rng) -> dict:
    feeds = {}
    for name, shape in specs:
        dims = [batch if d is None else d for d in shape]
        if name == "ids":
            feeds[name] = rng.integers(0, 10, dims).astype(np.int64)
        else:
            feeds[name] = rng.standard_normal(dims).astype(np.float32)
    return feeds


def _eager(model, feeds: dict) -> list[np.ndarray]:
    with framework.no_grad():
        out = model(*(framework.to_tensor(v) for v in feeds.values()))
    return [t.numpy() for t in (out if isinstance(out, tuple) else (out,))]


@pytest.mark.parametrize("opset", [11, 13, 17, 22, 23])
@pytest.mark.parametrize("case", sorted(CASES))
def test_ops_export_and_match_onnxruntime(case, opset, tmp_path) -> None:
    if case == "activations" and opset < 12:
        pytest.skip("celu needs opset 12")
    build, specs = CASES[case]
    model = build()
    _randomise(model)
    model.eval()
    dtypes = {"ids": "int64"}
    spec = [InputSpec(shape, dtypes.get(name, "float32"), name) for name, shape in specs]
    path = framework.onnx.export(model, str(tmp_path / case), spec, opset_version=opset)
    onnx.checker.check_model(path, full_check=True)
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(opset)
    for batch in (1, 3):
        feeds = _inputs(specs, batch, rng)
        for got, want in zip(session.run(None, feeds), _eager(model, feeds), strict=True):
            scale = max(float(np.abs(want).max()), 1.0)
            np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-5 * scale)


def test_a_graph_built_by_hand_exports() -> None:
    """Ops the tracer never emits from these models: integer remainder, fused activations
    (written by the inference passes)."""
    graph = framework.jit.Graph("hand")
    for name, dtype in (("x", "float32"), ("y", "float32"), ("i", "int64"), ("j", "int64")):
        graph.add_value(name, [None, 3], dtype)
        graph.inputs.append(name)
    graph.add_initializer("w", np.full((3, 3), 0.5, np.float32), "parameter", True)
    specs = [
        ("remainder", ["x", "y"], {}, "float32"),
        ("remainder", ["i", "j"], {}, "int64"),
        ("linear", ["x", "w"], {"activation": {"type": "clip", "min": 0.0, "max": 6.0}}, "float32"),
        ("add", ["x", "y"], {"activation": {"type": "hardswish"}}, "float32"),
        ("add", ["y", "x"], {"activation": {"type": "hard_sigmoid", "slope": 0.2, "offset": 0.5}},
         "float32"),
    ]  # fmt: skip
    for k, (op, inputs, attrs, dtype) in enumerate(specs):
        graph.add_value(f"out{k}", [None, 3], dtype)
        graph.nodes.append(framework.jit.Node(op, inputs, [f"out{k}"], attrs, f"n{k}"))
        graph.outputs.append(f"out{k}")
    graph.validate()
    model = framework.onnx.export_graph(graph)
    rng = np.random.default_rng(0)
    feeds = {
        "x": rng.standard_normal((4, 3)).astype(np.float32) * 3,
        "y": (rng.uniform(0.5, 2, (4, 3)) * rng.choice([-1, 1], (4, 3))).astype(np.float32),
        "i": rng.integers(-9, 9, (4, 3)),
        "j": rng.integers(1, 4, (4, 3)) * rng.choice([-1, 1], (4, 3)),
    }
    got = ort.InferenceSession(framework.onnx.serialize_model(model)).run(None, feeds)
    x, y, i, j = feeds.values()
    hard_swish = (x + y) * np.clip((x + y) / 6 + 0.5, 0, 1)
    want = [
        np.remainder(x, y), np.remainder(i, j), np.clip(x @ np.full((3, 3), 0.5), 0, 6),
        hard_swish, np.clip(0.2 * (x + y) + 0.5, 0, 1),
    ]  # fmt: skip
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


def test_jit_loaded_layer_exports_with_its_current_weights(tmp_path) -> None:
    model = framework.vision.models.LeNet()
    model.eval()
    spec = [InputSpec([None, 1, 28, 28], "float32", "x")]
    framework.jit.save(model, str(tmp_path / "lenet"), input_spec=spec)
    loaded = framework.jit.load(str(tmp_path / "lenet"))
    weight = dict(loaded.named_parameters())["fc.2.bias"]
    weight.set_value(weight.numpy() + 1.0)
    path = framework.onnx.export(loaded, str(tmp_path / "lenet_out.onnx"))
    x = np.random.default_rng(0).standard_normal((2, 1, 28, 28)).astype(np.float32)
    got = ort.InferenceSession(path).run(None, {"x": x})[0]
    with framework.no_grad():
        want = model(framework.to_tensor(x)).numpy() + 1.0
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_export_writes_metadata_and_appends_the_suffix(tmp_path) -> None:
    model = nn.Sequential(nn.Linear(3, 2))
    path = framework.onnx.export(
        model, str(tmp_path / "sub" / "tiny"), [InputSpec([None, 3], "float32", "x")],
        metadata={"labels": "cat,dog"}, enable_onnx_checker=True,
    )  # fmt: skip
    assert path == str(tmp_path / "sub" / "tiny.onnx")
    loaded = onnx.load(path)
    assert {p.key: p.value for p in loaded.metadata_props} == {"labels": "cat,dog"}
    assert loaded.opset_import[0].version == 17 and loaded.producer_name == "sampan-framework"
    assert framework.onnx.load(path).metadata == {"labels": "cat,dog"}


def test_export_lists_every_op_without_an_onnx_form(tmp_path) -> None:
    class Unsupported(nn.Layer):
        def forward(self, x):
            y = F.pad(x, [1, 1, 1, 1], mode="circular")
            return F.celu(y) + F.celu(x).mean() + F.pad(x, [0, 1, 0, 1], mode="circular").mean()

    spec = [InputSpec([None, 2, 4, 4], "float32", "x")]
    with pytest.raises(framework.onnx.OnnxExportError) as caught:
        framework.onnx.export(Unsupported(), str(tmp_path / "bad"), spec, opset_version=11)
    message = str(caught.value)
    assert "pad(mode=circular) (needs opset 19) (2)" in message
    assert "celu (needs opset 12) (2)" in message
    assert not (tmp_path / "bad.onnx").exists()
    with pytest.raises(framework.onnx.OnnxExportError, match="opset_version 24"):
        framework.onnx.export(Unsupported(), str(tmp_path / "bad"), spec, opset_version=24)


@pytest.mark.parametrize("opset", [19, 23])
def test_circular_padding_exports_as_wrap_from_opset_19(opset, tmp_path) -> None:
    class Circular(nn.Layer):
        def forward(self, x):
            return F.pad(x, [1, 2, 2, 1], mode="circular") * 2.0

    model = Circular()
    spec = [InputSpec([None, 2, 4, 5], "float32", "x")]
    path = framework.onnx.export(model, str(tmp_path / "wrap"), spec, opset_version=opset)
    onnx.checker.check_model(path, full_check=True)
    x = np.random.default_rng(0).standard_normal((2, 2, 4, 5)).astype(np.float32)
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    np.testing.assert_allclose(session.run(None, {"x": x})[0], _eager(model, {"x": x})[0])


def test_input_hook_inserts_quantize_dequantize_pairs(tmp_path) -> None:
    """The INT8 exporter's extension point: QDQ in front of every conv/linear input."""
    model = framework.vision.models.LeNet()
    model.eval()
    graph = framework.jit.trace_layer(model, [InputSpec([None, 1, 28, 28], "float32", "x")])

    def qdq(ctx, node, index, name):
        if node.op_type not in ("conv2d", "linear") or index > 1:
            return name
        if ctx.is_initializer(name):  # weights: per output channel, symmetric int8
            weight = ctx.array(name)
            axis = 0 if node.op_type == "conv2d" else 1
            reduce = tuple(a for a in range(weight.ndim) if a != axis)
            scale = np.abs(weight).max(axis=reduce) / 127
            return ctx.quantize_dequantize(name, scale, np.zeros(scale.shape, np.int8), axis)
        return ctx.quantize_dequantize(name, 8.0 / 127, np.int8(0))

    exported = framework.onnx.export_graph(graph, 17, input_hook=qdq)
    assert sum(n.op_type == "QuantizeLinear" for n in exported.graph.nodes) == 10
    path = tmp_path / "lenet_qdq.onnx"
    framework.onnx.write_model(exported, path)
    onnx.checker.check_model(str(path))
    x = np.random.default_rng(0).uniform(0, 1, (4, 1, 28, 28)).astype(np.float32)
    # onnxruntime's unfused reference: what the QDQ file means on any CPU (its fused int8
    # kernels saturate 8-bit int8 products on x86 CPUs without VNNI; see export_onnx)
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    reference = ort.InferenceSession(str(path), options).run(None, {"x": x})[0]
    with framework.no_grad():
        want = model(framework.to_tensor(x)).numpy()
    assert np.abs(reference - want).max() < 0.1 * np.abs(want).max()
    assert not np.array_equal(reference, want)  # really quantized
    # our importer runs the QDQ file too, as that reference does
    np.testing.assert_allclose(framework.onnx.load(path)(x).numpy(), reference, atol=1e-5)
