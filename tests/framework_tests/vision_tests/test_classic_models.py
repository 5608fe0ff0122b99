"""AlexNet, DenseNet, GoogLeNet, InceptionV3 and the deeper ResNeXts are Paddle's models: the
same parameter counts, state-dict names and shapes, and -- with Paddle's weights copied in --
the same outputs; they train, refuse `pretrained=True` without weights, and export."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.jit import InputSpec
from framework.vision import models

# Trainable parameters with 1000 classes, as real Paddle 3.3 counts them.
PADDLE_TRAINABLE = {
    "alexnet": 61_100_840,
    "densenet121": 7_978_856,
    "densenet161": 28_681_000,
    "densenet169": 14_149_480,
    "densenet201": 20_013_928,
    "densenet264": 33_337_704,
    "googlenet": 11_535_736,
    "inception_v3": 23_834_568,
    "resnext101_64x4d": 83_455_272,
    "resnext152_32x4d": 59_951_400,
    "resnext152_64x4d": 114_971_944,
}

# Smallest input each architecture allows at its usual layout (one image).
INPUT_SIZE = {"alexnet": 224, "densenet121": 64, "googlenet": 224, "inception_v3": 75}


def trainable_count(model) -> int:
    return sum(int(p.size) for p in model.parameters() if not p.stop_gradient)


def outputs(result) -> list:
    return list(result) if isinstance(result, tuple | list) else [result]


@pytest.mark.parametrize("name", sorted(PADDLE_TRAINABLE))
def test_parameter_count_is_paddles(name):
    assert trainable_count(getattr(models, name)()) == PADDLE_TRAINABLE[name]


@pytest.mark.parametrize("name", sorted(INPUT_SIZE))
def test_paddles_weights_give_paddles_outputs(name):
    paddle = pytest.importorskip("paddle")
    theirs = getattr(paddle.vision.models, name)()
    ours = getattr(models, name)()
    their_state, our_state = theirs.state_dict(), ours.state_dict()
    assert sorted(our_state) == sorted(their_state)
    for key, value in their_state.items():
        assert our_state[key].shape == list(value.shape), key
        our_state[key].set_value(value.numpy())
    theirs.eval()
    ours.eval()
    size = INPUT_SIZE[name]
    x = np.random.default_rng(0).standard_normal((1, 3, size, size)).astype(np.float32)
    with framework.no_grad():
        got = outputs(ours(framework.to_tensor(x)))
    want = outputs(theirs(paddle.to_tensor(x)))
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        w = w.numpy()
        np.testing.assert_allclose(g.numpy(), w, rtol=1e-4, atol=1e-5 * np.abs(w).max())


@pytest.mark.parametrize(
    "name", ["densenet161", "densenet264", "resnext101_64x4d", "resnext152_32x4d"]
)
def test_state_dict_names_and_shapes_are_paddles(name):
    paddle = pytest.importorskip("paddle")
    theirs = getattr(paddle.vision.models, name)().state_dict()
    ours = getattr(models, name)().state_dict()
    assert sorted(ours) == sorted(theirs)
    for key, value in theirs.items():
        assert ours[key].shape == list(value.shape), key


@pytest.mark.parametrize("name", sorted(INPUT_SIZE))
def test_it_trains_one_step_in_train_mode(name):
    model = getattr(models, name)(num_classes=10)
    model.train()
    size = INPUT_SIZE[name]
    results = outputs(model(framework.randn([1, 3, size, size])))
    assert all(r.shape == [1, 10] for r in results)
    loss = framework.add_n([r.mean() for r in results])
    loss.backward()
    grads = [p.grad for p in model.parameters() if not p.stop_gradient]
    assert all(g is not None and np.isfinite(g.numpy()).all() for g in grads)
    framework.optimizer.Momentum(0.01, parameters=model.parameters()).step()


def test_googlenet_returns_main_and_two_auxiliary_outputs_also_in_eval():
    model = models.googlenet(num_classes=5)
    model.eval()
    with framework.no_grad():
        out, aux1, aux2 = model(framework.randn([1, 3, 224, 224]))
    assert out.shape == aux1.shape == aux2.shape == [1, 5]


def test_headless_models_give_their_features():
    with framework.no_grad():
        x = framework.randn([1, 3, 64, 64])
        assert models.densenet121(num_classes=0)(x).shape == [1, 1024, 1, 1]
        assert models.densenet121(num_classes=0, with_pool=False)(x).shape == [1, 1024, 2, 2]
        assert models.inception_v3(num_classes=0)(framework.randn([1, 3, 75, 75])).shape == [
            1,
            2048,
            1,
            1,
        ]
        assert models.AlexNet(num_classes=0)(framework.randn([1, 3, 224, 224])).shape == [
            1,
            256,
            6,
            6,
        ]


def test_densenet_takes_paddles_arguments_and_rejects_unknown_depths():
    model = models.DenseNet(layers=121, bn_size=2, dropout=0.2, num_classes=3)
    assert model.out.weight.shape == [1024, 3]
    assert model.db_conv_2.conv2_1.bn_ac_func1._conv.weight.shape == [64, 64, 1, 1]
    with pytest.raises(ValueError, match="supported layers"):
        models.DenseNet(layers=100)


@pytest.mark.parametrize(
    ("build", "file"),
    [
        (models.alexnet, "alexnet"),
        (models.densenet121, "densenet121"),
        (models.googlenet, "googlenet"),
        (models.inception_v3, "inception_v3"),
    ],
)
def test_pretrained_without_weights_says_where_it_looked(build, file, tmp_path, monkeypatch):
    monkeypatch.setenv("FRAMEWORK_HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError, match=f"{file}.safetensors") as error:
        build(pretrained=True)
    assert "Nothing is downloaded" in str(error.value)


def test_names_are_exported_where_paddle_has_them():
    for name in ("AlexNet", "DenseNet", "GoogLeNet", "InceptionV3", "densenet264"):
        assert getattr(framework.vision, name) is getattr(models, name)
    assert {"alexnet", "inception_v3", "resnext152_64x4d"} <= set(models.__all__)


def test_densenet_exports_to_onnx_with_its_outputs(tmp_path):
    ort = pytest.importorskip("onnxruntime")
    model = models.densenet121(num_classes=4)
    model.eval()
    x = np.random.default_rng(3).standard_normal((1, 3, 32, 32)).astype(np.float32)
    with framework.no_grad():
        want = model(framework.to_tensor(x)).numpy()
    spec = [InputSpec([None, 3, 32, 32], "float32", "images")]
    path = framework.onnx.export(model, str(tmp_path / "densenet"), input_spec=spec)
    got = ort.InferenceSession(path, providers=["CPUExecutionProvider"]).run(None, {"images": x})
    np.testing.assert_allclose(got[0], want, rtol=1e-4, atol=1e-5)
