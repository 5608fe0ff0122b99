"""Every vision model exports to ONNX (checked with onnx.checker), onnxruntime gives the eager
outputs at batch 1 and 3 (the batch is a named dynamic dim), and our own importer reads the
file back to the same outputs."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.jit import InputSpec
from framework.vision import models

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

# (builder, input shape without batch); inputs as small as each architecture allows. VGG is
# built without its 25088x4096 classifier (num_classes=0); Linear layers are covered by LeNet.
# ResNet-50/101/152 and ResNeXt trace to the same graph ops as ResNet-18 (grouped convolutions
# are covered by MobileNet and ShuffleNet), so ResNet-18 stands for the family here.
MODELS = {
    "lenet": (lambda: models.LeNet(num_classes=10), (1, 28, 28)),
    "vgg11_bn": (lambda: models.vgg11(batch_norm=True, num_classes=0), (3, 32, 32)),
    "resnet18": (lambda: models.resnet18(num_classes=10), (3, 32, 32)),
    "mobilenet_v1": (lambda: models.mobilenet_v1(scale=0.5, num_classes=10), (3, 32, 32)),
    "mobilenet_v2": (lambda: models.mobilenet_v2(scale=0.5, num_classes=10), (3, 32, 32)),
    "mobilenet_v3_small": (lambda: models.mobilenet_v3_small(num_classes=10), (3, 32, 32)),
    "mobilenet_v3_large": (lambda: models.mobilenet_v3_large(num_classes=10), (3, 32, 32)),
    "shufflenet_v2_x0_25": (lambda: models.shufflenet_v2_x0_25(num_classes=10), (3, 64, 64)),
    "shufflenet_v2_swish": (lambda: models.shufflenet_v2_swish(num_classes=10), (3, 64, 64)),
    "squeezenet1_0": (lambda: models.squeezenet1_0(num_classes=10), (3, 64, 64)),
    "squeezenet1_1": (lambda: models.squeezenet1_1(num_classes=10), (3, 32, 32)),
}


def _randomise_statistics(model) -> None:
    """Non-trivial batch-norm statistics, so that BatchNormalization is actually exercised."""
    rng = np.random.default_rng(1)
    for name, tensor in model.state_dict().items():
        if name.endswith("_mean"):
            tensor.set_value(rng.normal(0, 0.1, tensor.shape).astype(np.float32))
        elif name.endswith("_variance"):
            tensor.set_value(rng.uniform(0.5, 1.5, tensor.shape).astype(np.float32))


def _close(got: np.ndarray, want: np.ndarray) -> None:
    scale = max(float(np.abs(want).max()), 1e-3)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=2e-5 * scale)


# The default opset for every model, and the newest for one of each family of graph ops.
NEWEST = ("resnet18", "mobilenet_v3_small", "shufflenet_v2_swish", "squeezenet1_1")


@pytest.mark.parametrize(
    ("name", "opset"), [(n, 17) for n in sorted(MODELS)] + [(n, 23) for n in NEWEST]
)
def test_vision_model_exports_and_matches_onnxruntime(name, opset, tmp_path) -> None:
    build, shape = MODELS[name]
    model = build()
    _randomise_statistics(model)
    model.eval()
    path = framework.onnx.export(
        model,
        str(tmp_path / name),
        input_spec=[InputSpec([None, *shape], "float32", "x")],
        opset_version=opset,
    )
    assert path.endswith(".onnx")
    onnx.checker.check_model(path, full_check=True)
    loaded = onnx.load(path)
    assert [o.version for o in loaded.opset_import if o.domain == ""] == [opset]
    assert loaded.graph.input[0].type.tensor_type.shape.dim[0].dim_param == "batch"
    assert loaded.graph.output[0].type.tensor_type.shape.dim[0].dim_param == "batch"
    assert all(t.raw_data for t in loaded.graph.initializer)

    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    reimported = framework.onnx.load(path)
    rng = np.random.default_rng(0)
    for batch in (1, 3):
        x = rng.standard_normal((batch, *shape)).astype(np.float32)
        with framework.no_grad():
            want = model(framework.to_tensor(x)).numpy()
            again = reimported(x).numpy()
        _close(session.run(None, {"x": x})[0], want)
        _close(again, want)
