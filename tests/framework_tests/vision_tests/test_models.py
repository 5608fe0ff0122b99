"""Every vision model builds, runs forward and backward at its usual input size, and has the
parameter count of its torchvision twin (or of PaddlePaddle's model where they differ)."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.vision import models

# Trainable parameter counts of the torchvision models with 1000 classes.
TORCHVISION_PARAMS = {
    "resnet18": 11_689_512,
    "resnet34": 21_797_672,
    "resnet50": 25_557_032,
    "resnet101": 44_549_160,
    "resnet152": 60_192_808,
    "resnext50_32x4d": 25_028_904,
    "wide_resnet50_2": 68_883_240,
    "vgg11": 132_863_336,
    "vgg13": 133_047_848,
    "vgg16": 138_357_544,
    "vgg19": 143_667_240,
    "mobilenet_v2": 3_504_872,
    "mobilenet_v3_small": 2_542_856,
    "mobilenet_v3_large": 5_483_032,
    "shufflenet_v2_x0_5": 1_366_792,
    "shufflenet_v2_x1_0": 2_278_604,
    "squeezenet1_0": 1_248_424,
    "squeezenet1_1": 1_235_496,
}

# Forward+backward at the usual input size (one image) for one model of each family, and the
# deepest/widest variants only forward, to keep the suite fast on 2 cores.
TRAIN_AT_224 = ["resnet18", "resnet50", "mobilenet_v2", "mobilenet_v3_small", "shufflenet_v2_x0_5"]
TRAIN_AT_224 += ["squeezenet1_1", "mobilenet_v1", "vgg11"]


def trainable_count(model) -> int:
    return sum(int(p.size) for p in model.parameters() if not p.stop_gradient)


@pytest.mark.parametrize("name", sorted(TORCHVISION_PARAMS))
def test_parameter_count_matches_torchvision(name):
    model = getattr(models, name)()
    assert trainable_count(model) == TORCHVISION_PARAMS[name]


def test_lenet_has_61610_parameters_and_runs_on_28x28():
    model = models.LeNet()
    assert trainable_count(model) == 61_610
    out = model(framework.randn([2, 1, 28, 28]))
    assert out.shape == [2, 10]


PADDLE_ONLY = {
    "mobilenet_v1": lambda: models.mobilenet_v1(),
    "vgg11_bn": lambda: models.vgg11(batch_norm=True),
    "shufflenet_v2_swish": lambda: models.shufflenet_v2_swish(),
    "resnext50_64x4d": lambda: models.resnext50_64x4d(),
}


@pytest.mark.parametrize("name", sorted(PADDLE_ONLY))
def test_parameter_count_matches_paddle_where_torchvision_has_no_twin(name):
    paddle = pytest.importorskip("paddle")
    theirs = {
        "mobilenet_v1": lambda: paddle.vision.models.mobilenet_v1(),
        "vgg11_bn": lambda: paddle.vision.models.vgg11(batch_norm=True),
        "shufflenet_v2_swish": lambda: paddle.vision.models.shufflenet_v2_swish(),
        "resnext50_64x4d": lambda: paddle.vision.models.resnext50_64x4d(),
    }[name]()
    ours = PADDLE_ONLY[name]()
    assert sorted(ours.state_dict()) == sorted(theirs.state_dict())
    for key, value in theirs.state_dict().items():
        assert list(ours.state_dict()[key].shape) == list(value.shape), key


def test_state_dict_keys_match_paddles_resnet18():
    paddle = pytest.importorskip("paddle")
    theirs = paddle.vision.models.resnet18().state_dict()
    ours = models.resnet18().state_dict()
    assert sorted(ours) == sorted(theirs)


@pytest.mark.parametrize("name", TRAIN_AT_224)
def test_model_trains_one_step_at_224(name):
    model = getattr(models, name)(num_classes=10)
    x = framework.randn([1, 3, 224, 224])
    loss = model(x).mean()
    loss.backward()
    grads = [p.grad for p in model.parameters() if not p.stop_gradient]
    assert all(g is not None for g in grads)
    assert all(np.isfinite(g.numpy()).all() for g in grads)


@pytest.mark.parametrize(
    "build",
    [
        lambda: models.resnet34(num_classes=0, with_pool=True),
        lambda: models.resnet101(num_classes=0),
        lambda: models.wide_resnet50_2(num_classes=7),
        lambda: models.mobilenet_v3_large(num_classes=3),
        lambda: models.shufflenet_v2_x1_0(num_classes=3),
        lambda: models.squeezenet1_0(num_classes=3),
    ],
)
def test_other_variants_run_forward(build):
    model = build()
    model.eval()
    with framework.no_grad():
        out = model(framework.randn([1, 3, 224, 224]))
    assert out.shape[0] == 1 and np.isfinite(out.numpy()).all()


def test_with_pool_false_keeps_the_feature_map():
    model = models.resnet18(num_classes=0, with_pool=False)
    with framework.no_grad():
        out = model(framework.randn([1, 3, 64, 64]))
    assert out.shape == [1, 512, 2, 2]


def test_pretrained_without_weights_says_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.setenv("FRAMEWORK_HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="resnet18.safetensors") as error:
        models.resnet18(pretrained=True)
    assert "Nothing is downloaded" in str(error.value)


def test_pretrained_round_trips_through_the_weight_store(tmp_path, monkeypatch):
    monkeypatch.setenv("FRAMEWORK_HOME", str(tmp_path))
    trained = models.LeNet()
    models.save_pretrained(trained, "lenet")
    loaded = models.load_pretrained(models.LeNet(), "lenet")
    for key, value in trained.state_dict().items():
        np.testing.assert_array_equal(loaded.state_dict()[key].numpy(), value.numpy())
