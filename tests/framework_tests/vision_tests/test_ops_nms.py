"""NMS (`framework.vision.ops.nms`, `multiclass_nms`): a scalar reference, both routes (the
NumPy kept-box route and the IoU-matrix route the GPU takes), PaddlePaddle's `nms` and
`multiclass_nms3` kernels, and onnxruntime's `NonMaxSuppression` (a one-node ONNX model)."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.vision import ops
from framework.vision.ops.nms import nms_by_kept_box, nms_by_matrix
from tests.framework_tests.vision_tests.box_fixtures import random_boxes


def scalar_iou(a, b, offset: float = 0.0) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w < 0 or h < 0:
        return 0.0
    inter = (w + offset) * (h + offset)
    union = (a[2] - a[0] + offset) * (a[3] - a[1] + offset)
    union += (b[2] - b[0] + offset) * (b[3] - b[1] + offset) - inter
    return inter / union if union > 0 else 0.0


def reference_nms(boxes, threshold: float, offset: float = 0.0) -> list[int]:
    """Every candidate, in order, against every box kept so far."""
    kept: list[int] = []
    for i, box in enumerate(boxes):
        if all(scalar_iou(box, boxes[k], offset) <= threshold for k in kept):
            kept.append(i)
    return kept


def clustered_boxes(n: int, seed: int, dtype=np.float32) -> np.ndarray:
    """Boxes jittered around a few centers, so that NMS has real work to do."""
    rng = np.random.default_rng(seed)
    centers = rng.uniform(10, 90, (5, 2))[rng.integers(0, 5, n)]
    centers += rng.normal(0, 3, (n, 2))
    half = rng.uniform(4, 12, (n, 2))
    return np.concatenate([centers - half, centers + half], axis=1).astype(dtype)


@pytest.mark.parametrize("route", [nms_by_kept_box, nms_by_matrix])
@pytest.mark.parametrize("threshold", [0.0, 0.3, 0.5, 0.7, 1.0])
@pytest.mark.parametrize("offset", [0.0, 1.0])
def test_routes_match_the_scalar_reference(route, threshold, offset) -> None:
    boxes = clustered_boxes(60, 1, np.float64)
    got = route(boxes, threshold, offset=offset)
    assert got.dtype == np.int64
    assert got.tolist() == reference_nms(boxes, threshold, offset)


@pytest.mark.parametrize("route", [nms_by_kept_box, nms_by_matrix])
def test_routes_stop_at_max_keep(route) -> None:
    boxes = random_boxes(30, 2, extent=100)
    assert route(boxes, 0.5, max_keep=4).tolist() == reference_nms(boxes, 0.5)[:4]


def test_iou_exactly_at_the_threshold_keeps_the_box() -> None:
    boxes = np.array([[0, 0, 2, 1], [1, 0, 3, 1]], np.float64)  # IoU 1/3
    assert ops.nms(boxes, 1 / 3).tolist() == [0, 1]
    assert ops.nms(boxes, 0.33).tolist() == [0]


def test_empty_boxes_never_suppress() -> None:
    boxes = np.zeros((3, 4), np.float32)
    assert ops.nms(boxes, 0.0).tolist() == [0, 1, 2]
    assert ops.nms(np.zeros((0, 4), np.float32), 0.5).tolist() == []


def test_scores_order_the_result() -> None:
    boxes = np.array([[0, 0, 10, 10], [1, 1, 10, 10], [20, 20, 30, 30]], np.float32)
    scores = np.array([0.6, 0.9, 0.8], np.float32)
    assert ops.nms(boxes, 0.5, scores=scores).tolist() == [1, 2]
    assert ops.nms(boxes, 0.5, scores=scores, top_k=1).tolist() == [1]


def test_tensor_in_tensor_out() -> None:
    boxes = framework.to_tensor(clustered_boxes(10, 3))
    keep = ops.nms(boxes, 0.5, scores=framework.rand([10]))
    assert isinstance(keep, framework.Tensor) and keep.dtype == np.int64


def test_class_aware_needs_the_categories() -> None:
    with pytest.raises(ValueError, match="categories"):
        ops.nms(clustered_boxes(4, 4), 0.5, np.ones(4, np.float32), np.zeros(4, np.int64))


@pytest.mark.parametrize("threshold", [0.1, 0.4, 0.7])
def test_matches_paddle(threshold) -> None:
    paddle = pytest.importorskip("paddle")
    boxes = clustered_boxes(80, 5)
    scores = np.random.default_rng(6).uniform(0, 1, 80).astype(np.float32)
    labels = np.random.default_rng(7).integers(0, 4, 80)
    pb, ps, pl = paddle.to_tensor(boxes), paddle.to_tensor(scores), paddle.to_tensor(labels)
    pv = paddle.vision.ops
    assert ops.nms(boxes, threshold).tolist() == pv.nms(pb, threshold).numpy().tolist()
    assert ops.nms(boxes, threshold, scores).tolist() == pv.nms(pb, threshold, ps).numpy().tolist()
    for categories, top_k in (([0, 1, 2, 3], None), ([1, 3], None), ([0, 1, 2, 3], 7)):
        ours = ops.nms(boxes, threshold, scores, labels, categories, top_k)
        theirs = pv.nms(pb, threshold, ps, pl, categories, top_k)
        assert ours.tolist() == theirs.numpy().tolist()


def _onnx_nms_session(center_point_box: int, with_score_threshold: bool):
    onnx = pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper

    inputs = ["boxes", "scores", "max_out", "iou"] + (["score"] if with_score_threshold else [])
    node = helper.make_node(
        "NonMaxSuppression", inputs, ["selected"], center_point_box=center_point_box
    )
    graph = helper.make_graph(
        [node],
        "nms",
        [
            helper.make_tensor_value_info("boxes", TensorProto.FLOAT, [None, None, 4]),
            helper.make_tensor_value_info("scores", TensorProto.FLOAT, [None, None, None]),
            helper.make_tensor_value_info("max_out", TensorProto.INT64, [1]),
            helper.make_tensor_value_info("iou", TensorProto.FLOAT, [1]),
        ]
        + ([helper.make_tensor_value_info("score", TensorProto.FLOAT, [1])] * with_score_threshold),
        [helper.make_tensor_value_info("selected", TensorProto.INT64, [None, 3])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model, ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )


def onnxruntime_nms(boxes, scores, threshold, max_out=10_000, score_threshold=None, center=0):
    """onnxruntime's NonMaxSuppression on [B, N, 4] boxes (ONNX's y1, x1, y2, x2 order when
    center == 0) and [B, C, N] scores: its [K, 3] (batch, class, box) selections."""
    _, session = _onnx_nms_session(center, score_threshold is not None)
    feeds = {
        "boxes": boxes.astype(np.float32),
        "scores": scores.astype(np.float32),
        "max_out": np.array([max_out], np.int64),
        "iou": np.array([threshold], np.float32),
    }
    if score_threshold is not None:
        feeds["score"] = np.array([score_threshold], np.float32)
    return session.run(None, feeds)[0]


@pytest.mark.parametrize("threshold", [0.0, 0.3, 0.5, 0.8])
def test_matches_onnxruntime_non_max_suppression(threshold) -> None:
    boxes = clustered_boxes(120, 8)
    scores = np.random.default_rng(9).uniform(0, 1, 120).astype(np.float32)
    yxyx = boxes[:, [1, 0, 3, 2]][None]
    selected = onnxruntime_nms(yxyx, scores[None, None], threshold)
    assert ops.nms(boxes, threshold, scores).tolist() == selected[:, 2].tolist()


def test_class_aware_matches_onnxruntime_per_class() -> None:
    boxes = clustered_boxes(90, 10)
    rng = np.random.default_rng(11)
    scores = rng.uniform(0, 1, (3, 90)).astype(np.float32)
    labels = rng.integers(0, 3, 90)
    # One score row per class, zero (below the score threshold) for boxes of other classes.
    per_class = np.where(labels[None] == np.arange(3)[:, None], scores[labels, np.arange(90)], 0)
    selected = onnxruntime_nms(boxes[:, [1, 0, 3, 2]][None], per_class[None], 0.45, 1000, 0.0)
    ours = ops.nms(boxes, 0.45, scores[labels, np.arange(90)], labels, [0, 1, 2])
    assert sorted(ours.tolist()) == sorted(selected[:, 2].tolist())
    for c in range(3):
        theirs = selected[selected[:, 1] == c, 2].tolist()
        assert [i for i in ours.tolist() if labels[i] == c] == theirs


def _paddle_multiclass_nms(boxes, scores, **kw):
    paddle = pytest.importorskip("paddle")
    out, _, counts = paddle._C_ops.multiclass_nms3(
        paddle.to_tensor(boxes), paddle.to_tensor(scores), None, kw["score_threshold"],
        kw["nms_top_k"], kw["keep_top_k"], kw["nms_threshold"], kw["normalized"], 1.0,
        kw["background_label"],
    )  # fmt: skip
    return np.split(out.numpy(), np.cumsum(counts.numpy())[:-1])


MULTICLASS_CASES = {
    "defaults": {},
    "pixel_sizes": {"normalized": False},
    "few_kept": {"keep_top_k": 7},
    "few_candidates": {"nms_top_k": 5},
    "everything": {"nms_top_k": -1, "keep_top_k": -1, "score_threshold": 0.0},
    "background_1": {"background_label": 1},
    "strict": {"nms_threshold": 0.2, "score_threshold": 0.5},
}


@pytest.mark.parametrize("case", sorted(MULTICLASS_CASES))
def test_multiclass_nms_matches_paddle(case) -> None:
    kw = {
        "score_threshold": 0.1, "nms_threshold": 0.5, "nms_top_k": 40, "keep_top_k": 30,
        "normalized": True, "background_label": -1,
    }  # fmt: skip
    kw.update(MULTICLASS_CASES[case])
    rng = np.random.default_rng(12)
    boxes = np.stack([clustered_boxes(70, 13), clustered_boxes(70, 14)])
    scores = rng.uniform(0, 1, (2, 4, 70)).astype(np.float32) ** 2
    ours = ops.multiclass_nms(boxes, scores, **kw)
    theirs = _paddle_multiclass_nms(boxes, scores, **kw)
    assert len(ours) == 2
    for got, want in zip(ours, theirs, strict=True):
        assert got.dtype == np.float32 and got.shape[1] == 6
        np.testing.assert_array_equal(got, want)


def test_multiclass_nms_images_without_detections() -> None:
    boxes = np.stack([clustered_boxes(10, 15)] * 2)
    scores = np.zeros((2, 3, 10), np.float32)
    scores[1, 2, 4] = 0.9
    empty, one = ops.multiclass_nms(boxes, scores, 0.05, 0.5, 100, 100)
    assert empty.shape == (0, 6)
    np.testing.assert_array_equal(one, [[2, scores[1, 2, 4], *boxes[1, 4]]])


def test_multiclass_nms_rejects_mismatched_shapes() -> None:
    with pytest.raises(ValueError, match="boxes per class"):
        ops.multiclass_nms(np.zeros((1, 5, 4)), np.zeros((1, 2, 6)))
    with pytest.raises(ValueError, match=r"\[N, M, 4\]"):
        ops.multiclass_nms(np.zeros((5, 4)), np.zeros((1, 2, 5)))


@pytest.mark.gpu
def test_gpu_route_matches_numpy() -> None:
    from framework.core.backend import to_numpy, to_place

    place = framework.CUDAPlace(0)
    boxes = clustered_boxes(300, 16)
    scores = np.random.default_rng(17).uniform(0, 1, 300).astype(np.float32)
    labels = np.random.default_rng(18).integers(0, 3, 300)
    on_gpu = [to_place(a, place) for a in (boxes, scores, labels)]
    assert (
        to_numpy(ops.nms(on_gpu[0], 0.5, on_gpu[1])).tolist()
        == ops.nms(boxes, 0.5, scores).tolist()
    )
    got = to_numpy(ops.nms(*on_gpu[:1], 0.5, on_gpu[1], on_gpu[2], [0, 1, 2]))
    assert got.tolist() == ops.nms(boxes, 0.5, scores, labels, [0, 1, 2]).tolist()
    batch = np.stack([boxes, boxes[::-1]])
    multi = np.random.default_rng(19).uniform(0, 1, (2, 3, 300)).astype(np.float32)
    for got, want in zip(
        ops.multiclass_nms(to_place(batch, place), to_place(multi, place)),
        ops.multiclass_nms(batch, multi),
        strict=True,
    ):
        np.testing.assert_array_equal(got, want)
