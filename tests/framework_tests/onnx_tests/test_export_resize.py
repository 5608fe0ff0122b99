"""Resizing (F.interpolate / nn.Upsample) in the static graph: traced as `resample_axis`, it
runs the same in eager mode, after `jit.load`, in the predictor and in onnxruntime, at dynamic
batch and spatial sizes, and a loaded model still trains through it."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.inference import Config, create_predictor
from framework.jit import InputSpec

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

# (interpolate keyword arguments, spatial dims declared dynamic?)
CASES = {
    "nearest x2": (dict(scale_factor=2, mode="nearest"), True),
    "nearest to size": (dict(size=[7, 5], mode="nearest"), False),
    "bilinear half pixel": (dict(scale_factor=1.5, mode="bilinear"), True),
    "bilinear align_mode 1": (dict(scale_factor=2, mode="bilinear", align_mode=1), True),
    "bilinear align corners": (dict(size=[9, 11], mode="bilinear", align_corners=True), False),
    "bilinear size, dynamic": (dict(size=[9, 11], mode="bilinear"), True),
    "bicubic": (dict(scale_factor=2, mode="bicubic"), True),
    "bicubic align corners": (dict(size=[8, 6], mode="bicubic", align_corners=True), False),
    "downsample": (dict(scale_factor=0.5, mode="bilinear"), True),
}


class Resizer(nn.Layer):
    """A convolution, the resize under test, and a convolution that reads its result."""

    def __init__(self, **resize) -> None:
        super().__init__()
        self.resize = resize
        self.before = nn.Conv2D(3, 4, 3, padding=1)
        self.after = nn.Conv2D(4, 2, 1)

    def forward(self, x):
        return self.after(F.interpolate(F.relu(self.before(x)), **self.resize))


def spec_for(dynamic_spatial: bool) -> list[InputSpec]:
    side = None if dynamic_spatial else 6
    return [InputSpec([None, 3, side, side if side is None else 8], "float32", "x")]


def examples_for(dynamic_spatial: bool) -> dict:
    """What tracing needs for spatial dims left dynamic: an example input."""
    if not dynamic_spatial:
        return {}
    return {"example_inputs": [framework.to_tensor(np.zeros((1, 3, 6, 8), np.float32))]}


def sizes_for(dynamic_spatial: bool) -> list[tuple[int, ...]]:
    if dynamic_spatial:
        return [(1, 3, 6, 8), (2, 3, 10, 7)]
    return [(1, 3, 6, 8), (3, 3, 6, 8)]


def eager(model, x: np.ndarray) -> np.ndarray:
    with framework.no_grad():
        return model(framework.to_tensor(x)).numpy()


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_runtime_matches_the_eager_resize(case, tmp_path) -> None:
    resize, dynamic = CASES[case]
    framework.seed(0)
    model = Resizer(**resize)
    model.eval()
    spec = spec_for(dynamic)
    framework.jit.save(model, str(tmp_path / "model"), input_spec=spec, **examples_for(dynamic))
    loaded = framework.jit.load(str(tmp_path / "model"))
    assert "resample_axis" in {node.op_type for node in loaded.program.nodes}
    config = Config(str(tmp_path / "model.json"), str(tmp_path / "model.safetensors"))
    predictor = create_predictor(config)
    path = framework.onnx.export(
        model, str(tmp_path / "model"), spec, opset_version=17, **examples_for(dynamic)
    )
    onnx.checker.check_model(path, full_check=True)
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(1)
    for shape in sizes_for(dynamic):
        x = rng.standard_normal(shape).astype(np.float32)
        want = eager(model, x)
        with framework.no_grad():
            np.testing.assert_allclose(loaded(framework.to_tensor(x)).numpy(), want, atol=1e-5)
        (got,) = predictor.run([x])
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
        (onnx_out,) = session.run(None, {"x": x})
        np.testing.assert_allclose(onnx_out, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("opset", [11, 13, 18])
def test_older_and_newer_opsets_export_a_dynamic_resize(opset, tmp_path) -> None:
    framework.seed(0)
    model = Resizer(size=[5, 9], mode="bilinear")
    model.eval()
    path = framework.onnx.export(
        model, str(tmp_path / "m"), spec_for(True), opset_version=opset, **examples_for(True)
    )
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    x = np.random.default_rng(2).standard_normal((2, 3, 7, 4)).astype(np.float32)
    np.testing.assert_allclose(session.run(None, {"x": x})[0], eager(model, x), atol=1e-5)


def test_a_loaded_model_trains_through_the_resize(tmp_path) -> None:
    framework.seed(0)
    model = Resizer(scale_factor=2, mode="bilinear")
    framework.jit.save(
        model, str(tmp_path / "model"), input_spec=spec_for(True), **examples_for(True)
    )
    loaded = framework.jit.load(str(tmp_path / "model"))
    loaded.train()
    x = framework.to_tensor(np.random.default_rng(3).standard_normal((2, 3, 5, 4)), "float32")
    model(x).square().mean().backward()
    loaded(x).square().mean().backward()
    eager_grads = {n: p.grad.numpy() for n, p in model.named_parameters()}
    for name, parameter in loaded.named_parameters():
        np.testing.assert_allclose(parameter.grad.numpy(), eager_grads[name], rtol=1e-4, atol=1e-6)


def test_area_resizes_run_in_the_graph_but_have_no_onnx_form(tmp_path) -> None:
    framework.seed(0)
    model = Resizer(size=[3, 4], mode="area")
    model.eval()
    spec = spec_for(True)
    framework.jit.save(model, str(tmp_path / "model"), input_spec=spec, **examples_for(True))
    loaded = framework.jit.load(str(tmp_path / "model"))
    x = np.random.default_rng(4).standard_normal((2, 3, 9, 8)).astype(np.float32)
    with framework.no_grad():
        np.testing.assert_allclose(
            loaded(framework.to_tensor(x)).numpy(), eager(model, x), atol=1e-5
        )
    with pytest.raises(framework.onnx.OnnxExportError, match=r"resample_axis\(mode=area\)"):
        framework.onnx.export(model, str(tmp_path / "area"), spec, **examples_for(True))


def test_nn_upsample_layers_export() -> None:
    upsample = nn.Upsample(scale_factor=2, mode="nearest")
    traced = framework.jit.to_static(upsample, input_spec=[InputSpec([None, 2, 3, 2])])
    x = np.arange(2 * 2 * 3 * 2, dtype=np.float32).reshape(2, 2, 3, 2)
    with framework.no_grad():
        out = traced(framework.to_tensor(x)).numpy()
    np.testing.assert_array_equal(out, x.repeat(2, axis=2).repeat(2, axis=3))


def _onnx_resize_model(path, **attrs) -> str:
    """x [N, 2, H, W] -> Resize(scales [1, 1, 2, 2]) with the given attributes."""
    from onnx import TensorProto, helper

    scales = helper.make_tensor("scales", TensorProto.FLOAT, [4], [1.0, 1.0, 2.0, 2.0])
    node = helper.make_node("Resize", ["x", "", "scales"], ["y"], **attrs)
    graph = helper.make_graph(
        [node],
        "resize",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 2, "h", "w"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        initializer=[scales],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(model, str(path))
    return str(path)


PADDLE_LIKE = {
    "nearest floor": dict(mode="nearest", coordinate_transformation_mode="asymmetric",
                          nearest_mode="floor"),
    "linear half pixel": dict(mode="linear", coordinate_transformation_mode="half_pixel"),
    "linear asymmetric": dict(mode="linear", coordinate_transformation_mode="asymmetric"),
    "cubic half pixel": dict(mode="cubic", coordinate_transformation_mode="half_pixel",
                             cubic_coeff_a=-0.75),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(PADDLE_LIKE))
def test_imported_resizes_in_paddle_conventions_trace(case, tmp_path) -> None:
    path = _onnx_resize_model(tmp_path / "resize.onnx", **PADDLE_LIKE[case])
    layer = framework.onnx.load(path)
    example = framework.to_tensor(np.zeros((1, 2, 3, 4), np.float32))
    spec = [InputSpec([None, 2, None, None], "float32", "x")]
    framework.jit.save(layer, str(tmp_path / "m"), input_spec=spec, example_inputs=[example])
    loaded = framework.jit.load(str(tmp_path / "m"))
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    x = np.random.default_rng(5).standard_normal((2, 2, 5, 3)).astype(np.float32)
    with framework.no_grad():
        got = loaded(framework.to_tensor(x)).numpy()
    np.testing.assert_allclose(got, session.run(None, {"x": x})[0], atol=1e-5)


def test_an_imported_resize_without_a_paddle_form_is_reported(tmp_path) -> None:
    path = _onnx_resize_model(
        tmp_path / "resize.onnx", mode="nearest", coordinate_transformation_mode="half_pixel"
    )  # round_prefer_floor at pixel centres: no Paddle resize samples there
    layer = framework.onnx.load(path)
    example = framework.to_tensor(np.zeros((1, 2, 3, 4), np.float32))
    spec = [InputSpec([None, 2, 3, 4], "float32", "x")]
    with pytest.raises(framework.jit.UnsupportedOpError, match="imported ONNX Resize"):
        framework.jit.save(layer, str(tmp_path / "m"), input_spec=spec, example_inputs=[example])
