"""Every vision model: eager output == jit.load output == predictor output, and a graph saved
with a dynamic batch runs at batch sizes it was not traced with."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.inference import Config, create_predictor
from framework.jit import InputSpec
from framework.vision import models

# (builder, input shape without batch). Inputs are as small as each architecture allows.
# VGG is built without its 25088x4096 classifier (num_classes=0: features + adaptive pooling to
# 7x7), which keeps the test at a few MB; its classifier is Linear layers covered by LeNet.
MODELS = {
    "lenet": (lambda: models.LeNet(num_classes=10), (1, 28, 28)),
    "vgg11_bn": (lambda: models.vgg11(batch_norm=True, num_classes=0), (3, 32, 32)),
    "resnet18": (lambda: models.resnet18(num_classes=10), (3, 32, 32)),
    "resnet50": (lambda: models.resnet50(num_classes=10), (3, 32, 32)),
    "resnext50_32x4d": (lambda: models.resnext50_32x4d(num_classes=10), (3, 32, 32)),
    "mobilenet_v1": (lambda: models.mobilenet_v1(scale=0.5, num_classes=10), (3, 32, 32)),
    "mobilenet_v2": (lambda: models.mobilenet_v2(num_classes=10), (3, 32, 32)),
    "mobilenet_v3_small": (lambda: models.mobilenet_v3_small(num_classes=10), (3, 32, 32)),
    "mobilenet_v3_large": (lambda: models.mobilenet_v3_large(num_classes=10), (3, 32, 32)),
    "shufflenet_v2_x0_25": (lambda: models.shufflenet_v2_x0_25(num_classes=10), (3, 64, 64)),
    "shufflenet_v2_swish": (lambda: models.shufflenet_v2_swish(num_classes=10), (3, 64, 64)),
    "squeezenet1_0": (lambda: models.squeezenet1_0(num_classes=10), (3, 64, 64)),
    "squeezenet1_1": (lambda: models.squeezenet1_1(num_classes=10), (3, 32, 32)),
}


def _randomise_statistics(model) -> None:
    """Non-trivial batch-norm statistics, so that folding them is actually exercised."""
    rng = np.random.default_rng(1)
    for name, tensor in model.state_dict().items():
        if name.endswith("_mean"):
            tensor.set_value(rng.normal(0, 0.1, tensor.shape).astype(np.float32))
        elif name.endswith("_variance"):
            tensor.set_value(rng.uniform(0.5, 1.5, tensor.shape).astype(np.float32))


def _eager(model, x: np.ndarray) -> np.ndarray:
    with framework.no_grad():
        return model(framework.to_tensor(x)).numpy()


def _close(got: np.ndarray, want: np.ndarray) -> None:
    scale = max(float(np.abs(want).max()), 1e-3)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=2e-5 * scale)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_model_matches_eager_through_jit_load_and_predictor(name, tmp_path) -> None:
    build, shape = MODELS[name]
    model = build()
    _randomise_statistics(model)
    model.eval()
    path = str(tmp_path / name)
    framework.jit.save(model, path, input_spec=[InputSpec([None, *shape], "float32", "x")])

    rng = np.random.default_rng(0)
    x2 = rng.standard_normal((2, *shape)).astype(np.float32)
    want2 = _eager(model, x2)
    loaded = framework.jit.load(path)
    _close(loaded(framework.to_tensor(x2)).numpy(), want2)

    predictor = create_predictor(Config(path))
    _close(predictor.run([x2])[0], want2)
    for batch in (1, 3):  # dynamic batch: never traced at these sizes
        xb = rng.standard_normal((batch, *shape)).astype(np.float32)
        got = predictor.run([xb])[0]
        assert got.shape[0] == batch
        _close(got, _eager(model, xb))
        _close(loaded(framework.to_tensor(xb)).numpy(), got)


def test_saved_graph_declares_the_batch_dynamic(tmp_path) -> None:
    model = models.LeNet()
    framework.jit.save(model, str(tmp_path / "m"), input_spec=[InputSpec([None, 1, 28, 28])])
    graph = framework.jit.load(str(tmp_path / "m")).program
    assert graph.values[graph.inputs[0]].shape == [None, 1, 28, 28]
    assert graph.values[graph.outputs[0]].shape == [None, 10]
    reshape = next(n for n in graph.nodes if n.op_type == "reshape")
    assert reshape.attrs["shape"] == [0, 400]  # flatten keeps the batch dim symbolic
