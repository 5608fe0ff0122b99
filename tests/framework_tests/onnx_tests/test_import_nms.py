"""ONNX NonMaxSuppression imported and run by the framework gives onnxruntime's selections:
random and crafted boxes, both box encodings (center_point_box 0 and 1), per-class output
caps, score thresholds, absent optional inputs, several images and classes."""

from __future__ import annotations

import numpy as np
import pytest

import framework

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
helper = onnx.helper
F32, I64 = onnx.TensorProto.FLOAT, onnx.TensorProto.INT64


def nms_model(
    center_point_box: int = 0,
    max_out: int | None = 100,
    iou: float | None = 0.5,
    score: float | None = None,
    as_inputs: bool = False,
) -> bytes:
    """One NonMaxSuppression node; its optional inputs are initializers, graph inputs
    (`as_inputs`), or absent (None, with the later ones absent too)."""
    names, consts, extra_inputs = ["boxes", "scores"], [], []
    for name, value, dtype in (("max_out", max_out, I64), ("iou", iou, F32), ("score", score, F32)):
        if value is None:
            break
        names.append(name)
        array = np.array([value], dtype=np.int64 if dtype == I64 else np.float32)
        if as_inputs:
            extra_inputs.append(helper.make_tensor_value_info(name, dtype, [1]))
        else:
            consts.append(onnx.numpy_helper.from_array(array, name))
    node = helper.make_node(
        "NonMaxSuppression", names, ["selected"], center_point_box=center_point_box
    )
    graph = helper.make_graph(
        [node],
        "nms",
        [
            helper.make_tensor_value_info("boxes", F32, [None, None, 4]),
            helper.make_tensor_value_info("scores", F32, [None, None, None]),
            *extra_inputs,
        ],
        [helper.make_tensor_value_info("selected", I64, [None, 3])],
        consts,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model.SerializeToString()


def check(data: bytes, feeds: dict[str, np.ndarray]) -> np.ndarray:
    want = ort.InferenceSession(data, providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    got = framework.onnx.load(data)(*feeds.values())
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got.numpy(), want)
    return want


def random_inputs(batch: int, classes: int, n: int, seed: int, center: int = 0):
    rng = np.random.default_rng(seed)
    centers = rng.uniform(10, 90, (batch, 6, 2))[:, rng.integers(0, 6, n)]
    centers += rng.normal(0, 4, centers.shape)
    size = rng.uniform(6, 24, (batch, n, 2))
    if center:
        boxes = np.concatenate([centers, size], axis=-1)  # x_center, y_center, width, height
    else:
        boxes = np.concatenate(
            [centers[..., ::-1] - size / 2, centers[..., ::-1] + size / 2], axis=-1
        )  # y1, x1, y2, x2
    scores = rng.uniform(0, 1, (batch, classes, n))
    return boxes.astype(np.float32), scores.astype(np.float32)


@pytest.mark.parametrize("center", [0, 1])
@pytest.mark.parametrize("iou", [0.0, 0.3, 0.5, 0.9])
def test_random_boxes(center, iou) -> None:
    boxes, scores = random_inputs(2, 3, 80, seed=int(iou * 10) + center, center=center)
    selected = check(nms_model(center, 1000, iou), {"boxes": boxes, "scores": scores})
    assert len(selected) > 6


@pytest.mark.parametrize("max_out", [0, 1, 3, 7])
def test_max_output_boxes_per_class(max_out) -> None:
    boxes, scores = random_inputs(2, 2, 60, seed=3)
    selected = check(nms_model(0, max_out, 0.4), {"boxes": boxes, "scores": scores})
    assert len(selected) <= 4 * max_out


@pytest.mark.parametrize("score", [0.0, 0.5, 0.95, 1.0])
def test_score_threshold(score) -> None:
    boxes, scores = random_inputs(1, 3, 60, seed=4)
    check(nms_model(0, 100, 0.5, score), {"boxes": boxes, "scores": scores})


def test_thresholds_fed_as_graph_inputs() -> None:
    boxes, scores = random_inputs(2, 2, 40, seed=5)
    feeds = {
        "boxes": boxes,
        "scores": scores,
        "max_out": np.array([5], np.int64),
        "iou": np.array([0.45], np.float32),
        "score": np.array([0.2], np.float32),
    }
    check(nms_model(0, 5, 0.45, 0.2, as_inputs=True), feeds)


def test_absent_optional_inputs_select_nothing() -> None:
    boxes, scores = random_inputs(1, 2, 10, seed=6)
    selected = check(nms_model(0, None, None), {"boxes": boxes, "scores": scores})
    assert selected.shape == (0, 3)


def test_crafted_flipped_corners_ties_and_empty_boxes() -> None:
    boxes = np.array(
        [
            [
                [0.0, 0.0, 1.0, 1.0],
                [1.0, 1.0, 0.0, 0.0],  # the same box with its corners swapped
                [0.0, 0.1, 1.0, 1.1],
                [0.0, 0.0, 0.0, 0.0],  # empty
                [0.0, 0.0, 0.0, 0.0],
                [5.0, 5.0, 6.0, 6.0],
                [5.0, 5.0, 6.0, 6.0],  # tied score with the one above
            ]
        ],
        np.float32,
    )
    scores = np.array([[[0.9, 0.8, 0.7, 0.6, 0.6, 0.5, 0.5]]], np.float32)
    selected = check(nms_model(0, 10, 0.5), {"boxes": boxes, "scores": scores})
    assert selected[:, 2].tolist() == [0, 3, 4, 5]


def test_crafted_center_point_boxes() -> None:
    # ONNX's reference example: boxes as (x_center, y_center, width, height).
    boxes = np.array(
        [[[0.5, 0.5, 1.0, 1.0], [0.5, 0.6, 1.0, 1.0], [0.5, 0.4, 1.0, 1.0],
          [0.5, 10.5, 1.0, 1.0], [0.5, 10.6, 1.0, 1.0], [0.5, 100.5, 1.0, 1.0]]],
        np.float32,
    )  # fmt: skip
    scores = np.array([[[0.9, 0.75, 0.6, 0.95, 0.5, 0.3]]], np.float32)
    selected = check(nms_model(1, 3, 0.5, 0.0), {"boxes": boxes, "scores": scores})
    assert selected.tolist() == [[0, 0, 3], [0, 0, 0], [0, 0, 5]]


def test_rejects_an_iou_threshold_outside_zero_one() -> None:
    boxes, scores = random_inputs(1, 1, 5, seed=7)
    with pytest.raises(ValueError, match="iou_threshold"):
        framework.onnx.load(nms_model(0, 5, 1.5))(boxes, scores)


def test_is_listed_as_supported() -> None:
    assert "NonMaxSuppression" in framework.onnx.supported_ops()
