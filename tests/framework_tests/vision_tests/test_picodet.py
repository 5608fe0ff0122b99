"""The PicoDet detectors (`framework.vision.models.picodet_s/m/l`): the API contract the
platform codes against, shapes at every size, the shipped backbone weights, gradient checks of
the head and of the loss, and the loss falling on a tiny batch."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward
from framework.vision.detection.gfl_head import GFLHead, anchor_grid
from framework.vision.detection.gfl_loss import GFLLoss
from framework.vision.models import PicoDet, picodet_l, picodet_m, picodet_s
from tests.framework_tests.vision_tests.shipped_store import process_store


def tiny(num_classes: int = 2, **kwargs) -> PicoDet:
    """A PicoDet small enough for unit tests (MobileNetV2 at 0.35 width, a 16-wide neck)."""
    settings = {"backbone_scale": 0.35, "channels": 16, "head_convs": 1, "input_size": 64}
    return PicoDet(num_classes, **{**settings, **kwargs})


def targets_for(batch: int, size: int = 64) -> list[dict[str, np.ndarray]]:
    rng = np.random.default_rng(0)
    out = []
    for i in range(batch):
        count = i % 3  # 0, 1 and 2 boxes
        xy = rng.uniform(0, size * 0.6, (count, 2))
        wh = rng.uniform(size * 0.15, size * 0.4, (count, 2))
        out.append(
            {"boxes": np.concatenate([xy, xy + wh], 1).astype(np.float32),
             "labels": rng.integers(0, 2, count).astype(np.int64)}
        )  # fmt: skip
    return out


@pytest.fixture
def store(monkeypatch: pytest.MonkeyPatch) -> str:
    home = process_store()
    monkeypatch.setenv("FRAMEWORK_HOME", home)
    return home


def test_the_platform_contract(store) -> None:
    model = picodet_s(num_classes=3, pretrained_backbone=True)
    assert model.input_size == 320
    assert model.mean == (0.485, 0.456, 0.406) and model.std == (0.229, 0.224, 0.225)
    images = framework.to_tensor(np.random.default_rng(1).standard_normal((2, 3, 320, 320)))
    images = images.astype("float32")
    outputs = model(images)
    targets = [
        {"boxes": np.array([[10, 20, 120, 140], [200, 40, 300, 300]], np.float32),
         "labels": np.array([0, 2], np.int64)},
        {"boxes": np.zeros((0, 4), np.float32), "labels": np.zeros(0, np.int64)},
    ]  # fmt: skip
    losses = model.loss(outputs, targets)
    assert set(losses) == {"loss", "loss_vfl", "loss_giou", "loss_dfl"}
    assert all(v.shape == [] for v in losses.values())
    total = sum(float(losses[k]) for k in ("loss_vfl", "loss_giou", "loss_dfl"))
    assert float(losses["loss"]) == pytest.approx(total, rel=1e-6)
    losses["loss"].backward()
    assert model.head.cls_out[0].weight.grad is not None
    boxes, scores = model.decode(outputs)
    anchors = 40 * 40 + 20 * 20 + 10 * 10 + 5 * 5
    assert boxes.shape == [2, anchors, 4] and scores.shape == [2, 3, anchors]
    assert boxes.dtype == np.float32 and 0 <= scores.numpy().min() <= scores.numpy().max() <= 1
    results = model.postprocess(outputs, score_threshold=0.0, iou_threshold=0.6, max_detections=7)
    assert len(results) == 2
    for result in results:
        assert set(result) == {"boxes", "scores", "labels"}
        assert result["boxes"].dtype == np.float32 and result["boxes"].shape == (7, 4)
        assert result["scores"].dtype == np.float32 and result["labels"].dtype == np.int64
        assert np.all(np.diff(result["scores"]) <= 0)
    exportable = model.export_layer()
    with framework.no_grad():
        exported = exportable(images)
    assert isinstance(exported, tuple) and exported[0].shape == [2, anchors, 4]
    assert (exportable.mean, exportable.std, exportable.input_size) == (
        model.mean, model.std, model.input_size,
    )  # fmt: skip


def test_pretrained_backbones_hold_the_shipped_weights(store) -> None:
    from framework.vision.models import efficientnet_lite0, mobilenet_v2

    s = picodet_s(num_classes=2, pretrained_backbone=True)
    reference = mobilenet_v2(pretrained=True).features.state_dict()
    for name, value in s.backbone.features.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), reference[name].numpy())
    m = picodet_m(num_classes=2, pretrained_backbone=True)
    reference = efficientnet_lite0(pretrained=True).blocks.state_dict()
    for name, value in m.backbone.blocks.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), reference[name].numpy())
    assert m.mean == pytest.approx((127 / 255,) * 3)


@pytest.mark.parametrize(
    ("build", "channels"), [(picodet_s, [32, 96, 320]), (picodet_m, [40, 112, 320]),
                            (picodet_l, [40, 112, 320])]
)  # fmt: skip
def test_shapes_at_every_size(build, channels) -> None:
    model = build(num_classes=4)
    assert model.backbone.out_channels == channels
    model.eval()
    with framework.no_grad():
        outputs = model(framework.zeros([1, 3, 96, 128]))
    sizes = [tuple(c.shape[2:]) for c in outputs.cls_logits]
    assert sizes == [(12, 16), (6, 8), (3, 4), (2, 2)]
    assert all(r.shape[1] == 32 for r in outputs.reg_logits)
    boxes, scores = model.decode(outputs)
    assert boxes.shape == [1, 12 * 16 + 6 * 8 + 3 * 4 + 4, 4] and scores.shape[1] == 4
    assert boxes.numpy()[..., [0, 2]].max() <= 128 and boxes.numpy()[..., [1, 3]].max() <= 96


def test_rejects_inputs_that_are_not_multiples_of_32() -> None:
    with pytest.raises(ValueError, match="multiples of 32"):
        tiny()(framework.zeros([1, 3, 64, 80]))
    with pytest.raises(ValueError, match="backbone"):
        PicoDet(2, backbone="resnet18")


def test_decode_is_the_anchor_geometry() -> None:
    model = tiny()
    outputs = model(framework.zeros([1, 3, 64, 64]))
    for r in outputs.reg_logits:  # uniform distributions over 0..7: every side at 3.5 strides
        r.set_value(np.zeros(r.shape, np.float32))
    boxes, _ = model.decode(outputs)
    grid = anchor_grid(((8, 8), (4, 4), (2, 2), (1, 1)), (8, 16, 32, 64))
    half = 3.5 * grid.strides[:, None]
    want = np.clip(np.concatenate([grid.points - half, grid.points + half], 1), 0, 64)
    np.testing.assert_allclose(boxes.numpy()[0], want, rtol=1e-6)


def _reference_decode(cls_logits, reg_logits, strides, reg_max, height, width):
    """PicoDet's decoding written out in NumPy, level by level and point by point."""
    boxes, scores = [], []
    for cls, reg, stride in zip(cls_logits, reg_logits, strides, strict=True):
        _, classes, rows, cols = cls.shape
        for y in range(rows):
            for x in range(cols):
                scores.append(1 / (1 + np.exp(-cls[0, :, y, x].astype(np.float64))))
                bins = reg[0, :, y, x].reshape(4, reg_max + 1).astype(np.float64)
                probs = np.exp(bins - bins.max(1, keepdims=True))
                probs /= probs.sum(1, keepdims=True)
                left, top, right, bottom = probs @ np.arange(reg_max + 1) * stride
                cx, cy = (x + 0.5) * stride, (y + 0.5) * stride
                box = [cx - left, cy - top, cx + right, cy + bottom]
                boxes.append(np.clip(box, 0, [width, height, width, height]))
    return np.array(boxes), np.array(scores).T


def _reference_nms(boxes, scores, score_threshold, iou_threshold, top_k, keep):
    """Greedy per-class NMS, then the best `keep` detections of the image."""

    def iou(a, b):
        w = np.clip(np.minimum(a[2], b[:, 2]) - np.maximum(a[0], b[:, 0]), 0, None)
        h = np.clip(np.minimum(a[3], b[:, 3]) - np.maximum(a[1], b[:, 1]), 0, None)
        area = lambda r: (r[..., 2] - r[..., 0]) * (r[..., 3] - r[..., 1])  # noqa: E731
        return w * h / (area(a) + area(b) - w * h)

    found = []
    for label, row in enumerate(scores):
        order = [i for i in np.argsort(-row) if row[i] > score_threshold][:top_k]
        while order:
            best, order = order[0], order[1:]
            found.append((row[best], label, boxes[best]))
            overlaps = iou(boxes[best], boxes[order])
            order = [i for i, o in zip(order, overlaps, strict=True) if o <= iou_threshold]
    found.sort(key=lambda f: -f[0])
    return found[:keep]


def test_postprocess_is_the_numpy_decode_and_nms() -> None:
    model = tiny(num_classes=3)
    model.eval()
    outputs = model(framework.zeros([1, 3, 64, 96]))
    rng = np.random.default_rng(5)
    for logits in (*outputs.cls_logits, *outputs.reg_logits):  # spread scores, varied boxes
        logits.set_value(rng.normal(0, 2, logits.shape).astype(np.float32))
    cls = [c.numpy() for c in outputs.cls_logits]
    reg = [r.numpy() for r in outputs.reg_logits]
    want_boxes, want_scores = _reference_decode(cls, reg, model.strides, 7, 64, 96)
    boxes, scores = model.decode(outputs)
    np.testing.assert_allclose(boxes.numpy()[0], want_boxes, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(scores.numpy()[0], want_scores, rtol=1e-5, atol=1e-6)
    (result,) = model.postprocess(outputs, score_threshold=0.3, iou_threshold=0.5,
                                  max_detections=15, nms_top_k=40)  # fmt: skip
    want = _reference_nms(want_boxes, want_scores, 0.3, 0.5, 40, 15)
    assert len(want) == 15 and len({label for _, label, _ in want}) == 3
    np.testing.assert_allclose(result["scores"], [s for s, _, _ in want], rtol=1e-5)
    np.testing.assert_array_equal(result["labels"], [label for _, label, _ in want])
    np.testing.assert_allclose(result["boxes"], [b for _, _, b in want], rtol=1e-5, atol=1e-4)


def test_head_gradients() -> None:
    framework.set_default_dtype("float64")
    try:
        head = GFLHead(4, num_classes=2, num_levels=2, num_convs=1, kernel_size=3, reg_max=3)
    finally:
        framework.set_default_dtype("float32")
    rng = np.random.default_rng(0)
    features = [rng.standard_normal((2, 4, 4, 4)), rng.standard_normal((2, 4, 2, 2))]

    def outputs(a, b):
        cls, reg = head([a, b])
        return [*cls, *reg]

    check_backward(outputs, features)


def test_loss_gradients_with_a_fixed_assignment() -> None:
    criterion = GFLLoss(num_classes=2, strides=(8, 16), reg_max=3)
    rng = np.random.default_rng(1)
    cls = [rng.standard_normal((2, 2, 4, 4)), rng.standard_normal((2, 2, 2, 2))]
    reg = [rng.standard_normal((2, 16, 4, 4)), rng.standard_normal((2, 16, 2, 2))]
    targets = [
        {"boxes": np.array([[4.0, 6.0, 20.0, 26.0]]), "labels": np.array([1])},
        {"boxes": np.array([[10.0, 2.0, 30.0, 18.0], [0.0, 0.0, 9.0, 12.0]]),
         "labels": np.array([0, 1])},
    ]  # fmt: skip
    wrapped = [framework.to_tensor(a) for a in cls + reg]
    assignment = criterion.assign(wrapped[:2], wrapped[2:], targets)
    assert assignment.positive.sum() >= 3

    def loss(c1, c2, r1, r2):
        parts = criterion([c1, c2], [r1, r2], targets, assignment=assignment)
        return [parts["loss_vfl"], parts["loss_giou"], parts["loss_dfl"]]

    check_backward(loss, cls + reg)


def test_loss_with_no_boxes_anywhere() -> None:
    model = tiny()
    outputs = model(framework.randn([2, 3, 64, 64]))
    empty = {"boxes": np.zeros((0, 4), np.float32), "labels": np.zeros(0, np.int64)}
    losses = model.loss(outputs, [empty, empty])
    assert float(losses["loss_giou"]) == 0.0 and float(losses["loss_dfl"]) == 0.0
    losses["loss"].backward()
    with pytest.raises(ValueError, match="targets"):
        model.loss(outputs, [empty])


def test_atss_warm_up_by_epoch() -> None:
    model = tiny(static_assigner_epochs=2)
    outputs = model(framework.randn([3, 3, 64, 64]))
    targets = targets_for(3)
    warm = model.criterion.assign(outputs.cls_logits, outputs.reg_logits, targets, epoch=0)
    later = model.criterion.assign(outputs.cls_logits, outputs.reg_logits, targets, epoch=2)
    assert not np.array_equal(warm.scores, later.scores)
    assert float(model.loss(outputs, targets, epoch=1)["loss"]) > 0


def test_loss_falls_on_a_tiny_batch() -> None:
    framework.seed(0)
    model = tiny()
    optimizer = framework.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    rng = np.random.default_rng(2)
    images = framework.to_tensor(rng.standard_normal((4, 3, 64, 64)).astype(np.float32))
    targets = targets_for(4)
    history = []
    for _ in range(25):
        losses = model.loss(model(images), targets)
        losses["loss"].backward()
        optimizer.step()
        optimizer.clear_grad()
        history.append({key: float(value) for key, value in losses.items()})
    for key in ("loss", "loss_vfl", "loss_giou", "loss_dfl"):
        series = np.array([h[key] for h in history])
        assert np.isfinite(series).all() and series[0] > 0, (key, series)
        assert series[-3:].mean() < 0.7 * series[:3].mean(), (key, series)
    assert history[-1]["loss"] < 0.5 * history[0]["loss"]


def test_picodet_s_and_its_loss_match_the_torch_twin() -> None:
    torch = pytest.importorskip("torch")
    from tests.framework_tests.vision_tests.picodet_torch import (
        copy_weights,
        torch_gfl_loss,
        torch_picodet_s,
    )

    framework.seed(6)
    model = picodet_s(num_classes=3)
    rng = np.random.default_rng(6)
    for name, tensor in model.state_dict().items():
        if name.endswith("_mean"):
            tensor.set_value(rng.normal(0, 0.1, tensor.shape).astype(np.float32))
        elif name.endswith("_variance"):
            tensor.set_value(rng.uniform(0.5, 1.5, tensor.shape).astype(np.float32))
    for conv in (*model.head.cls_out, *model.head.reg_out):  # outputs that vary with the input
        conv.weight.set_value(rng.normal(0, 0.3, conv.weight.shape).astype(np.float32))
    twin = torch_picodet_s(3)
    copy_weights(model, twin)
    x = rng.standard_normal((2, 3, 64, 96)).astype(np.float32)

    model.eval(), twin.eval()
    with framework.no_grad():
        ours = model(framework.to_tensor(x))
    with torch.no_grad():
        theirs = twin(torch.from_numpy(x))
    for got, want in zip(ours.cls_logits + ours.reg_logits, theirs[0] + theirs[1], strict=True):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-4, atol=1e-4)

    model.train(), twin.train()  # batch statistics, the loss and its gradients
    outputs = model(framework.to_tensor(x))
    targets = [
        {"boxes": np.array([[4, 6, 40, 50], [50, 10, 90, 60]], np.float32),
         "labels": np.array([0, 2])},
        {"boxes": np.array([[20, 8, 60, 40]], np.float32), "labels": np.array([1])},
    ]  # fmt: skip
    assignment = model.criterion.assign(outputs.cls_logits, outputs.reg_logits, targets)
    assert assignment.positive.sum() >= 3
    losses = model.criterion(outputs.cls_logits, outputs.reg_logits, targets, assignment=assignment)
    losses["loss"].backward()
    cls, reg = twin(torch.from_numpy(x))
    grid = model.criterion.grid(outputs.cls_logits)
    expected = torch_gfl_loss(cls, reg, assignment, grid, 3)
    expected["loss"].backward()
    for key, value in expected.items():
        assert float(losses[key]) == pytest.approx(float(value.detach()), rel=1e-4), key
    twin_parameters = dict(twin.named_parameters())
    pairs = [("head.cls_out.0.weight", "cls.0.weight"), ("head.reg_out.1.weight", "reg.1.weight"),
             ("backbone.features.0.0.weight", "features.0.0.weight")]  # fmt: skip
    for ours_name, twin_name in pairs:
        got = dict(model.named_parameters())[ours_name].grad.numpy()
        want = twin_parameters[twin_name].grad.numpy()
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-3 * np.abs(want).max())


@pytest.mark.gpu
def test_a_training_step_on_gpu_matches_cpu() -> None:
    from framework.core.backend import to_numpy

    framework.seed(3)
    model = tiny()
    images = np.random.default_rng(4).standard_normal((2, 3, 64, 64)).astype(np.float32)
    targets = targets_for(2)
    cpu = model.loss(model(framework.to_tensor(images)), targets)
    cpu["loss"].backward()
    cpu_grad = model.head.cls_out[0].weight.grad.numpy()
    model.clear_gradients()
    framework.set_device("gpu")
    try:
        gpu_model = tiny()
        gpu_model.set_state_dict(model.state_dict())
        gpu = gpu_model.loss(gpu_model(framework.to_tensor(images)), targets)
        gpu["loss"].backward()
        for key in cpu:
            assert float(gpu[key]) == pytest.approx(float(cpu[key]), rel=1e-3, abs=1e-5)
        np.testing.assert_allclose(
            to_numpy(gpu_model.head.cls_out[0].weight.grad._data), cpu_grad, rtol=1e-2, atol=1e-5
        )
        results = gpu_model.postprocess(gpu_model(framework.to_tensor(images)), 0.0)
        assert results[0]["boxes"].shape[1] == 4
    finally:
        framework.set_device("cpu")


@pytest.mark.gpu
def test_picodet_m_trains_on_gpu() -> None:
    """The GPU workers' size: EfficientNet-Lite0 features, 128 wide; a few Momentum steps on
    one batch lower its loss, and it detects in eval mode."""
    framework.set_device("gpu")
    try:
        framework.seed(7)
        model = picodet_m(num_classes=2)
        optimizer = framework.optimizer.Momentum(
            learning_rate=0.01, momentum=0.9, parameters=model.parameters()
        )
        rng = np.random.default_rng(7)
        images = framework.to_tensor(rng.standard_normal((4, 3, 128, 128)).astype(np.float32))
        targets = targets_for(4, size=128)
        history = []
        for _ in range(8):
            losses = model.loss(model(images), targets)
            losses["loss"].backward()
            optimizer.step()
            optimizer.clear_grad()
            history.append(float(losses["loss"]))
        assert np.isfinite(history).all() and history[-1] < history[0], history
        model.eval()
        with framework.no_grad():
            results = model.postprocess(model(images), score_threshold=0.0, max_detections=5)
        assert [r["boxes"].shape for r in results] == [(5, 4)] * 4
    finally:
        framework.set_device("cpu")
