"""Detection transforms keep images and boxes consistent: every box is painted in its own
colour, the sample is transformed, and each surviving box must still frame exactly the pixels
of its colour (within a pixel where the image is resampled); dropped boxes take their labels
with them."""

from __future__ import annotations

import numpy as np
import pytest

from framework.vision.transforms import detection as T

COLORS = np.array([[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0], [0, 255, 255]])


def painted(height: int, width: int, boxes) -> dict:
    """A grey image with box i filled in COLORS[i]; labels are the box indices."""
    image = np.full((height, width, 3), 90, np.uint8)
    for i, (x1, y1, x2, y2) in enumerate(np.asarray(boxes, int)):
        image[y1:y2, x1:x2] = COLORS[i]
    return {
        "image": image,
        "boxes": np.asarray(boxes, np.float32),
        "labels": np.arange(len(boxes), dtype=np.int64),
        "iscrowd": np.zeros(len(boxes), np.int64),
    }


def pixel_frame(image: np.ndarray, label: int, tolerance: int = 0) -> np.ndarray | None:
    """The [x1, y1, x2, y2] frame of the pixels painted in COLORS[label]."""
    distance = np.abs(image.astype(int) - COLORS[label]).max(axis=2)
    ys, xs = np.nonzero(distance <= (60 if tolerance else 0))
    if len(xs) == 0:
        return None
    return np.array([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1], np.float32)


def assert_boxes_frame_pixels(sample: dict, tolerance: float = 0.0) -> None:
    assert sample["image"].dtype == np.uint8
    assert len(sample["boxes"]) == len(sample["labels"]) == len(sample["iscrowd"])
    height, width = sample["image"].shape[:2]
    for box, label in zip(sample["boxes"], sample["labels"], strict=True):
        assert 0 <= box[0] < box[2] <= width and 0 <= box[1] < box[3] <= height
        frame = pixel_frame(sample["image"], int(label), int(tolerance))
        assert frame is not None, f"box {label} has no pixels left"
        np.testing.assert_allclose(frame, box, atol=tolerance + 1e-4, err_msg=f"box {label}")


BOXES = [[0, 4, 6, 12], [30, 0, 40, 30], [10, 14, 20, 24], [12, 0, 18, 3]]


@pytest.mark.parametrize("direction", ["horizontal", "vertical"])
def test_flip_moves_boxes_touching_the_border_with_their_pixels(direction) -> None:
    sample = painted(30, 40, BOXES)
    flipped = T.RandomFlip(prob=1.0, direction=direction)(sample)
    assert_boxes_frame_pixels(flipped)
    if direction == "horizontal":
        np.testing.assert_array_equal(flipped["boxes"][0], [34, 4, 40, 12])
        np.testing.assert_array_equal(flipped["boxes"][1], [0, 0, 10, 30])
    back = T.RandomFlip(prob=1.0, direction=direction)(flipped)
    np.testing.assert_array_equal(back["boxes"], sample["boxes"])
    np.testing.assert_array_equal(back["image"], sample["image"])


def test_flip_with_probability_zero_changes_nothing() -> None:
    sample = painted(30, 40, BOXES)
    same = T.RandomFlip(prob=0.0)(sample)
    np.testing.assert_array_equal(same["image"], sample["image"])


@pytest.mark.parametrize("keep_ratio", [False, True])
def test_resize_keeps_boxes_on_their_pixels(keep_ratio) -> None:
    sample = painted(30, 40, BOXES)
    out = T.Resize((45, 100), keep_ratio=keep_ratio)(sample)
    assert out["image"].shape == ((45, 60, 3) if keep_ratio else (45, 100, 3))
    assert_boxes_frame_pixels(out, tolerance=1.0)
    assert out["original_size"] == (30, 40) and out["pad"] == (0, 0)


def test_letterbox_records_how_to_map_back() -> None:
    sample = painted(30, 40, BOXES)
    out = T.Letterbox(64, fill=114)(sample)
    assert out["image"].shape == (64, 64, 3)
    assert out["scale"] == (1.6, 1.6) and out["pad"] == (0, 8)
    assert (out["image"][:8] == 114).all() and (out["image"][-8:] == 114).all()
    assert_boxes_frame_pixels(out, tolerance=1.0)
    np.testing.assert_allclose(T.boxes_to_original(out["boxes"], out), sample["boxes"], atol=1e-4)


def test_expand_shifts_boxes_by_the_offset() -> None:
    sample = painted(30, 40, BOXES)
    out = T.RandomExpand(ratio=3.0, fill=(1, 2, 3), prob=1.0, rng=np.random.default_rng(0))(sample)
    assert out["image"].shape[0] > 30 and out["image"].shape[1] > 40
    assert_boxes_frame_pixels(out)
    offset = out["boxes"][0, :2] - sample["boxes"][0, :2]
    np.testing.assert_array_equal(out["boxes"], sample["boxes"] + np.tile(offset, 2))
    corner = (out["image"][0, 0] if offset.any() else out["image"][-1, -1]).tolist()
    assert corner == [1, 2, 3]


@pytest.mark.parametrize("seed", range(8))
def test_crop_keeps_boxes_consistent_with_their_pixels(seed) -> None:
    sample = painted(60, 80, [[2, 2, 20, 20], [50, 10, 78, 40], [20, 40, 45, 58], [60, 45, 70, 55]])
    crop = T.RandomCropWithIoU(allow_no_crop=False, rng=np.random.default_rng(seed))
    out = crop(sample)
    assert out["image"].shape[0] <= 60 and len(out["boxes"]) >= 1
    assert_boxes_frame_pixels(out)  # cropping never resamples: the frames are exact
    for label in set(range(4)) - set(out["labels"].tolist()):
        frame = pixel_frame(out["image"], label)
        # a dropped box either left the window or kept less than its center inside it
        if frame is not None:
            box = sample["boxes"][label]
            assert (frame[2] - frame[0]) * (frame[3] - frame[1]) < (box[2] - box[0]) * (
                box[3] - box[1]
            )


def test_crop_without_boxes_changes_nothing() -> None:
    sample = painted(30, 40, np.zeros((0, 4)))
    out = T.RandomCropWithIoU(allow_no_crop=False)(sample)
    assert out["image"].shape == (30, 40, 3)


def test_degenerate_boxes_are_dropped_with_their_labels() -> None:
    sample = painted(30, 40, BOXES)
    sample["boxes"][2] = [38, 5, 50, 9]  # mostly outside: clipped to 2 px wide, kept
    sample["boxes"][3] = [45, 5, 60, 9]  # entirely outside: dropped
    out = T.clip_and_filter(T.RandomFlip(prob=0.0)(sample))
    assert out["labels"].tolist() == [0, 1, 2]
    np.testing.assert_array_equal(out["boxes"][2], [38, 5, 40, 9])
    assert len(out["iscrowd"]) == 3


def test_color_jitter_touches_the_image_only() -> None:
    sample = painted(30, 40, BOXES)
    out = T.ColorJitter(0.4, 0.4, 0.4, 0.1, rng=np.random.default_rng(1))(sample)
    assert out["image"].dtype == np.uint8 and not np.array_equal(out["image"], sample["image"])
    np.testing.assert_array_equal(out["boxes"], sample["boxes"])
    np.testing.assert_array_equal(out["labels"], sample["labels"])


def test_compose_is_repeatable_with_its_generators() -> None:
    def pipeline(seed):
        rng = np.random.default_rng(seed)
        return T.Compose([
            T.RandomCropWithIoU(rng=rng), T.RandomExpand(2.0, prob=1.0, rng=rng),
            T.RandomFlip(rng=rng), T.ColorJitter(0.3, 0.3, rng=rng), T.Resize(48),
        ])  # fmt: skip

    sample = painted(60, 80, [[2, 2, 20, 20], [50, 10, 78, 40]])
    first, second = pipeline(5)(sample), pipeline(5)(sample)
    np.testing.assert_array_equal(first["image"], second["image"])
    np.testing.assert_array_equal(first["boxes"], second["boxes"])
    assert first["image"].shape == (48, 48, 3)


def test_batch_multiscale_draws_one_size_per_batch_and_normalises() -> None:
    samples = [painted(30, 40, BOXES[:2]), painted(50, 20, [[0, 0, 10, 10]])]
    mean, std = (0.5, 0.4, 0.3), (0.2, 0.25, 0.3)
    rng = np.random.default_rng(3)
    seen = set()
    for _ in range(12):
        images, targets = T.batch_multiscale(samples, [32, 64, (48, 96)], rng, mean, std)
        seen.add(images.shape[2:])
        assert images.dtype == np.float32 and images.shape[:2] == (2, 3)
        assert len(targets) == 2 and targets[0]["labels"].tolist() == [0, 1]
    assert seen == {(32, 32), (64, 64), (48, 96)}
    images, targets = T.batch_multiscale(samples, [64], rng, mean, std)
    grey = (90 / 255 - np.array(mean)) / np.array(std)
    np.testing.assert_allclose(images[1, :, -1, -1], grey, rtol=1e-5)
    np.testing.assert_allclose(targets[1]["boxes"], [[0, 0, 32, 12.8]], rtol=1e-5)


def test_to_batch_rejects_mixed_sizes() -> None:
    with pytest.raises(ValueError, match="one image size"):
        T.to_batch([painted(30, 40, BOXES), painted(31, 40, BOXES)])


def test_mosaic_tiles_four_samples_and_keeps_their_boxes() -> None:
    samples = [
        painted(40, 40, [[4, 4, 16, 16], [22, 24, 36, 36]]),
        painted(30, 50, [[10, 5, 30, 25]]),
        painted(50, 30, [[3, 30, 20, 45]]),
        painted(40, 40, [[5, 5, 35, 35]]),
    ]
    for sample, shift in zip(samples, (0, 2, 3, 4), strict=True):  # distinct colours per tile
        sample["labels"] = sample["labels"] + shift
        for label in sample["labels"]:
            box = sample["boxes"][label - shift].astype(int)
            sample["image"][box[1] : box[3], box[0] : box[2]] = COLORS[label]
    out = T.Mosaic(64, rng=np.random.default_rng(2))(samples)
    assert out["image"].shape == (64, 64, 3)
    assert len(out["boxes"]) >= 3
    assert_boxes_frame_pixels(out, tolerance=1.5)
    with pytest.raises(ValueError, match="4 samples"):
        T.Mosaic(64)(samples[:3])


def test_rejects_bad_samples() -> None:
    with pytest.raises(ValueError, match="2 boxes but 1 labels"):
        T.Resize(32)({"image": np.zeros((8, 8, 3), np.uint8), "boxes": np.zeros((2, 4)),
                      "labels": np.zeros(1), "iscrowd": np.zeros(1)})  # fmt: skip
