"""`convert_state_dict`: torch weights renamed and laid out for framework models."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import framework
from framework import nn
from framework.interop import torch as bridge
from framework.interop.torch_convert import ConversionError

torch = pytest.importorskip("torch")
tv = pytest.importorskip("tests.framework_tests.interop_tests.torchvision_models")

INPUT = np.random.default_rng(1).standard_normal((2, 3, 32, 32)).astype("float32")


def randomized(model: torch.nn.Module) -> torch.nn.Module:
    """Norm statistics and the classifier made non-trivial, eval mode."""
    tv.randomize_norms(model)
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.Linear):
                module.weight.copy_(torch.randn(module.weight.shape, generator=generator) * 0.05)
                module.bias.copy_(torch.randn(module.bias.shape, generator=generator))
    return model.eval()


@pytest.fixture(scope="module")
def torch_resnet18() -> torch.nn.Module:
    torch.manual_seed(0)
    return randomized(tv.resnet18())


@pytest.fixture(scope="module")
def torch_mobilenet_v2() -> torch.nn.Module:
    torch.manual_seed(0)
    return randomized(tv.mobilenet_v2())


def torch_output(model: torch.nn.Module, x: np.ndarray = INPUT) -> np.ndarray:
    with torch.no_grad():
        return model(torch.from_numpy(x)).numpy()


def framework_output(model: nn.Layer, x: np.ndarray = INPUT) -> np.ndarray:
    model.eval()
    with framework.no_grad():
        return model(framework.to_tensor(x)).numpy()


def assert_close(ours: np.ndarray, theirs: np.ndarray) -> None:
    scale = max(1.0, float(np.abs(theirs).max()))
    np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-4 * scale)


def save(state: dict, path: Path, source: str) -> Path:
    torch.save(state, path, _use_new_zipfile_serialization=source == "zip")
    return path


@pytest.mark.parametrize("source", ["memory", "zip", "legacy"])
def test_torchvision_resnet18_weights_give_torchs_outputs(torch_resnet18, tmp_path, source):
    state = torch_resnet18.state_dict()
    if source != "memory":
        state = bridge.load_state_dict(save(state, tmp_path / "r18.pth", source))
    model = framework.vision.models.resnet18()
    weights, report = bridge.convert_state_dict(state, model)
    assert report.ok and len(report.matched) == 102 and not report.renamed
    assert report.transposed == ["fc.weight"] and len(report.dropped) == 20
    assert model.set_state_dict(weights) == ([], [])
    assert_close(framework_output(model), torch_output(torch_resnet18))


def test_torchvision_mobilenet_v2_weights_give_torchs_outputs(torch_mobilenet_v2):
    model = framework.vision.models.mobilenet_v2()
    weights, report = bridge.convert_state_dict(torch_mobilenet_v2.state_dict(), model)
    assert report.ok and len(report.matched) == 262
    assert report.matched["features.1.conv.0.1._mean"] == "features.1.conv.0.1.running_mean"
    model.set_state_dict(weights)
    assert_close(framework_output(model), torch_output(torch_mobilenet_v2))


class NamedMLP(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.norm = nn.BatchNorm1D(8)
        self.fc2 = nn.Linear(8, 8)
        self.head = nn.Linear(8, 3)

    def forward(self, x: framework.Tensor) -> framework.Tensor:
        x = framework.nn.functional.relu(self.norm(self.fc1(x)))
        return self.head(framework.nn.functional.relu(self.fc2(x)))


def torch_mlp() -> torch.nn.Module:
    torch.manual_seed(3)
    layers = [torch.nn.Linear(4, 8), torch.nn.BatchNorm1d(8), torch.nn.ReLU()]
    layers += [torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3)]
    return tv.randomize_norms(torch.nn.Sequential(*layers))


def test_it_maps_differently_named_modules_by_structure():
    source = torch_mlp()
    model = NamedMLP()
    weights, report = bridge.convert_state_dict(source.state_dict(), model)
    assert report.renamed == {
        "fc1.weight": "0.weight", "fc1.bias": "0.bias", "norm.weight": "1.weight",
        "norm.bias": "1.bias", "norm._mean": "1.running_mean",
        "norm._variance": "1.running_var", "fc2.weight": "3.weight", "fc2.bias": "3.bias",
        "head.weight": "5.weight", "head.bias": "5.bias",
    }  # fmt: skip
    assert set(report.transposed) == {"fc1.weight", "fc2.weight", "head.weight"}
    model.set_state_dict(weights)
    x = np.random.default_rng(0).standard_normal((5, 4)).astype("float32")
    assert_close(framework_output(model, x), torch_output(source, x))


def test_a_square_linear_weight_is_transposed_too():
    source = torch.nn.Linear(6, 6)
    model = nn.Sequential(nn.Linear(6, 6))
    weights, _ = bridge.convert_state_dict(
        {f"0.{k}": v for k, v in source.state_dict().items()}, model
    )
    np.testing.assert_array_equal(weights["0.weight"], source.weight.detach().numpy().T)


def test_it_unwraps_nested_checkpoints_and_data_parallel_prefixes():
    source = torch_mlp()
    wrapped = {f"module.{k}": v for k, v in source.state_dict().items()}
    checkpoint = {"model": wrapped, "epoch": 3, "optimizer": {}}
    weights, report = bridge.convert_state_dict(checkpoint, NamedMLP())
    assert report.ok and report.source_key == "model" and len(weights) == 10


def test_it_accepts_torch_tensors_and_casts_to_the_models_dtype():
    source = torch_mlp()
    state = {
        k: v.to(torch.bfloat16 if v.is_floating_point() else v.dtype)
        for k, v in source.state_dict().items()
    }
    weights, report = bridge.convert_state_dict(state, NamedMLP())
    assert report.ok and all(w.dtype == np.float32 for w in weights.values())
    expected = source.state_dict()["0.weight"].bfloat16().float().numpy().T
    np.testing.assert_array_equal(weights["fc1.weight"], expected)


def test_it_reports_missing_and_unexpected_keys():
    state = dict(torch_mlp().state_dict())
    del state["5.bias"]
    state["extra.weight"] = torch.ones(2)
    with pytest.raises(ConversionError, match=r"missing \(1\): head.bias") as caught:
        bridge.convert_state_dict(state, NamedMLP())
    assert "unexpected (1): extra.weight" in str(caught.value)
    weights, report = bridge.convert_state_dict(state, NamedMLP(), strict=False)
    assert report.missing == ["head.bias"] and report.unexpected == ["extra.weight"]
    assert not report.ok and "head.bias" not in weights and "head.weight" in weights


def test_a_shape_mismatch_is_a_clear_error(torch_resnet18):
    model = framework.vision.models.resnet18(num_classes=10)
    with pytest.raises(
        ConversionError, match=r"'fc.weight' \[1000, 512\] -> 'fc.weight' \[512, 10\]"
    ):
        bridge.convert_state_dict(torch_resnet18.state_dict(), model)
    weights, report = bridge.convert_state_dict(torch_resnet18.state_dict(), model, strict=False)
    assert [entry[0] for entry in report.mismatched] == ["fc.weight", "fc.bias"]
    assert "fc.weight" not in weights and len(weights) == 100 and not report.missing


def test_the_report_reads_as_a_summary(torch_resnet18):
    _, report = bridge.convert_state_dict(
        torch_resnet18.state_dict(), framework.vision.models.resnet18()
    )
    text = str(report)
    assert "matched 102 tensors" in text and "1 Linear weights transposed" in text
    assert "dropped 20 num_batches_tracked" in text


def test_it_rejects_what_is_not_a_state_dict():
    with pytest.raises(TypeError, match="expected a state dict"):
        bridge.convert_state_dict([np.ones(2)], NamedMLP())
