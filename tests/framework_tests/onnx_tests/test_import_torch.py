"""Models exported by torch.onnx import and match PyTorch: outputs at several batch sizes,
weights under torch's state_dict names, gradients equal to torch's, and fine-tuning lowers the
loss (also for PP-OCR's classifier, whose weights are Constant nodes)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import framework
from tests.framework_tests.onnx_tests import ocr_pipeline as ocr

torch = pytest.importorskip("torch")
nn = torch.nn


class BasicBlock(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(
                nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout)
            )

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return torch.relu(y + (x if self.downsample is None else self.downsample(x)))


class TinyResNet(nn.Module):
    """torchvision's ResNet layout at CIFAR size: stem, two stages, pooling, fc."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, 1, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        self.layer1 = nn.Sequential(BasicBlock(16, 16, 1), BasicBlock(16, 16, 1))
        self.layer2 = nn.Sequential(BasicBlock(16, 32, 2))
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        x = self.maxpool(torch.relu(self.bn1(self.conv1(x))))
        x = self.avgpool(self.layer2(self.layer1(x)))
        return self.fc(torch.flatten(x, 1))


class Mixed(nn.Module):
    """Upsampling, layer/group norm, GELU, ceil-mode and exclusive pooling, a transposed
    convolution, nearest resize to a size, and two outputs."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.norm = nn.LayerNorm(8)
        self.group_norm = nn.GroupNorm(2, 8)
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.pool = nn.MaxPool2d(3, 2, ceil_mode=True)
        self.avg = nn.AvgPool2d(3, 2, padding=1, count_include_pad=False)
        self.deconv = nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1)

    def forward(self, x):
        y = self.conv(x)
        y = self.norm(y.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)
        y = nn.functional.gelu(self.group_norm(y))
        y = self.avg(self.pool(self.up(y)))
        y = nn.functional.hardswish(self.deconv(y))
        y = nn.functional.interpolate(y, size=(7, 9), mode="nearest")
        return torch.softmax(y.reshape(y.shape[0], 4, -1), dim=-1), y.mean(dim=(2, 3))


def _mlp():
    return nn.Sequential(
        nn.Linear(20, 32), nn.Tanh(), nn.Dropout(0.1), nn.Linear(32, 5), nn.LogSoftmax(-1)
    )


def _cnn():
    return nn.Sequential(
        nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5),
        nn.SiLU(), nn.AvgPool2d(2), nn.Flatten(), nn.Linear(16 * 5 * 5, 10),
    )  # fmt: skip


MODELS = {
    "mlp": (_mlp, (20,)),
    "cnn": (_cnn, (1, 28, 28)),
    "resnet": (TinyResNet, (3, 32, 32)),
    "mixed": (Mixed, (3, 16, 20)),
}


def _export(module, shape, path) -> str:
    module.eval()
    for sub in module.modules():
        if isinstance(sub, nn.BatchNorm2d):  # non-trivial statistics
            sub.running_mean.uniform_(-0.2, 0.2)
            sub.running_var.uniform_(0.5, 1.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            module, (torch.randn(2, *shape),), str(path), dynamo=False, input_names=["x"],
            dynamic_axes={"x": {0: "batch"}}, opset_version=17,
        )  # fmt: skip
    return str(path)


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict:
    torch.manual_seed(0)
    folder = tmp_path_factory.mktemp("torch_onnx")
    found = {}
    for name, (build, shape) in MODELS.items():
        module = build()
        found[name] = (module, shape, _export(module, shape, folder / f"{name}.onnx"))
    return found


@pytest.mark.parametrize("name", sorted(MODELS))
def test_torch_exported_model_matches_torch(exported, name) -> None:
    module, shape, path = exported[name]
    layer = framework.onnx.load(path)
    for batch in (1, 3):
        x = torch.randn(batch, *shape)
        with torch.no_grad():
            want = module(x)
        got = layer(x.numpy())
        want = want if isinstance(want, tuple) else (want,)
        got = got if isinstance(got, tuple) else (got,)
        assert len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-4, atol=1e-5)


def test_torch_weights_keep_their_names_and_load_back(exported) -> None:
    module, shape, path = exported["mlp"]
    layer = framework.onnx.load(path)
    assert sorted(layer.state_dict()) == ["0.bias", "0.weight", "3.bias", "3.weight"]
    with torch.no_grad():
        for p in module.parameters():
            p.add_(0.1 * torch.randn_like(p))
    missing, unexpected = layer.set_state_dict(
        {k: v.numpy() for k, v in module.state_dict().items()}
    )
    assert missing == [] and unexpected == []
    x = torch.randn(4, *shape)
    with torch.no_grad():
        want = module(x).numpy()
    np.testing.assert_allclose(layer(x.numpy()).numpy(), want, rtol=1e-5, atol=1e-6)


def test_gradients_of_an_imported_model_equal_torch(exported) -> None:
    module, shape, path = exported["resnet"]
    layer = framework.onnx.load(path)
    x = torch.randn(2, *shape)
    target = torch.tensor([3, 7])
    loss = nn.functional.cross_entropy(module(x), target)
    loss.backward()
    ours = framework.nn.functional.cross_entropy(
        layer(framework.to_tensor(x.numpy())), framework.to_tensor(target.numpy())
    )
    ours.backward()
    np.testing.assert_allclose(ours.numpy(), loss.item(), rtol=1e-5)
    np.testing.assert_allclose(
        layer.fc.weight.grad.numpy(), module.fc.weight.grad.numpy(), rtol=1e-4, atol=1e-6
    )
    # the exporter folded conv1 + bn1 into one Conv: its weight still receives a gradient
    folded = [p for key, p in layer.named_parameters() if key.startswith("onnx::Conv")]
    assert folded and all(p.grad is not None and float(p.grad.abs().sum()) > 0 for p in folded)


def _fine_tune(layer, x: np.ndarray, labels: np.ndarray, steps: int, lr: float) -> list[float]:
    optimizer = framework.optimizer.SGD(learning_rate=lr, parameters=layer.parameters())
    layer.train()
    losses = []
    for _ in range(steps):
        loss = framework.nn.functional.cross_entropy(
            layer(framework.to_tensor(x)), framework.to_tensor(labels)
        )
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(float(loss))
    return losses


def test_fine_tuning_an_imported_torch_model_lowers_its_loss(exported) -> None:
    _, shape, path = exported["cnn"]
    layer = framework.onnx.load(path)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, *shape)).astype(np.float32)
    labels = rng.integers(0, 10, 16)
    losses = _fine_tune(layer, x, labels, steps=10, lr=0.1)
    assert max(losses[-3:]) < 0.85 * losses[0]


def test_fine_tuning_ppocr_classifier_weights_stored_as_constants() -> None:
    folder = ocr.models_dir()
    if folder is None:
        pytest.skip("rapidocr-onnxruntime is not installed")
    layer = framework.onnx.load(folder / "ch_ppocr_mobile_v2.0_cls_infer.onnx")
    line = ocr.render_text("upside down", font_size=28, margin=6)
    x = ocr.cls_input([line, line[::-1, ::-1].copy()])
    wrong = np.array([1, 0])  # teach it the opposite orientation
    before = dict(layer.named_parameters())["conv1_weights"].numpy().copy()
    # the model ends in Softmax: train on log-probabilities with NLL
    layer.train()
    optimizer = framework.optimizer.SGD(learning_rate=0.01, parameters=layer.parameters())
    losses = []
    for _ in range(3):
        probs = layer(framework.to_tensor(x))
        log_probs = framework.log(probs + 1e-12)
        loss = framework.nn.functional.nll_loss(log_probs, framework.to_tensor(wrong))
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < 0.2 * losses[0]
    assert not np.array_equal(dict(layer.named_parameters())["conv1_weights"].numpy(), before)
