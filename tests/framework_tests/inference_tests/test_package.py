"""Inference packages: the zip's contents, meta.json, and PackagedModel's answers."""

from __future__ import annotations

import dataclasses
import io
import json
import threading
import zipfile
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import framework
from framework.inference.package import (
    PACKAGE_FILES,
    PackageError,
    PackageMeta,
    Preprocessing,
    read_meta,
    unpack_package,
    write_package,
)
from framework.inference.packaged_model import ImageError, PackagedModel, preprocess
from framework.vision.models import LeNet

CLASSES = [str(i) for i in range(10)]


def digits_meta(**changes) -> PackageMeta:
    fields = {
        "name": "digits",
        "task": "classification",
        "class_names": CLASSES,
        "preprocessing": Preprocessing.grey(28),
        "source": {"version": "v1"},
    }
    return PackageMeta(**{**fields, **changes})


@pytest.fixture(scope="module")
def lenet():
    framework.seed(3)
    network = LeNet(num_classes=10)
    network.eval()
    return network


@pytest.fixture(scope="module")
def package(lenet, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("package")
    meta = digits_meta()
    framework.jit.save(lenet, str(folder / "model"), input_spec=[meta.input_spec()])
    return Path(write_package(folder / "model", meta, folder / "digits.zip"))


def png(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, format="PNG")
    return buffer.getvalue()


def random_images(count: int, size: tuple[int, int] = (40, 32)) -> list[bytes]:
    rng = np.random.default_rng(7)
    return [png(rng.integers(0, 256, size, dtype=np.uint8)) for _ in range(count)]


def test_the_zip_holds_exactly_the_package_files(package: Path) -> None:
    with zipfile.ZipFile(package) as archive:
        assert sorted(archive.namelist()) == sorted(PACKAGE_FILES)
        meta = json.loads(archive.read("meta.json"))
        readme = archive.read("README.md").decode()
    assert meta["format"] == "sampan.inference-package" and meta["format_version"] == 1
    assert meta["class_names"] == CLASSES
    assert meta["input"] == {"name": "image", "shape": [None, 1, 28, 28], "dtype": "float32"}
    assert meta["preprocessing"]["mean"] == [0.5] and meta["preprocessing"]["size"] == [28, 28]
    assert meta["thresholds"] == {"score": None, "per_class": {}}
    assert "python predict.py photo.jpg" in readme and "pip install numpy Pillow" in readme
    assert "$" not in readme.replace("$ ", "")  # every template field was filled


def test_meta_round_trips(package: Path) -> None:
    meta = read_meta(package)
    again = PackageMeta.from_json(json.loads(json.dumps(meta.to_json())))
    assert again.to_json() | {"created_at": ""} == meta.to_json() | {"created_at": ""}


def test_the_packaged_model_matches_the_eager_network(package: Path, lenet) -> None:
    model = PackagedModel.load(package)
    images = [Image.open(io.BytesIO(data)) for data in random_images(5)]
    batch = model.batch(images)
    assert batch.shape == (5, 1, 28, 28) and batch.dtype == np.float32
    eager = lenet(framework.to_tensor(batch)).numpy()
    np.testing.assert_allclose(model.run(batch)[0], eager, rtol=1e-4, atol=1e-4)


def test_preprocessing_is_the_training_pipeline() -> None:
    """convert, bilinear resize, then (x / 255 - mean) / std in float32, HWC -> CHW."""
    rgb = np.random.default_rng(0).integers(0, 256, (50, 60, 3), dtype=np.uint8)
    out = preprocess(Image.fromarray(rgb), Preprocessing.rgb(32))
    resized = np.asarray(Image.fromarray(rgb).resize((32, 32), Image.Resampling.BILINEAR))
    mean = np.array([0.485, 0.456, 0.406], np.float32)
    std = np.array([0.229, 0.224, 0.225], np.float32)
    expected = ((resized.astype(np.float32) / np.float32(255) - mean) / std).transpose(2, 0, 1)
    np.testing.assert_array_equal(out, expected)


def test_predict_gives_top_k_classes_in_order(package: Path) -> None:
    answers = PackagedModel.load(package).predict(random_images(3), top_k=3)
    assert len(answers) == 3
    for answer in answers:
        scores = [c["score"] for c in answer["classes"]]
        assert len(scores) == 3 and scores == sorted(scores, reverse=True)
        assert answer["label"] == answer["classes"][0]["name"] and answer["accepted"]
        assert answer["boxes"] == []


def test_a_threshold_above_the_best_score_rejects_the_label(package: Path) -> None:
    model = PackagedModel.load(package)
    (answer,) = model.predict(random_images(1), threshold=0.999)
    assert answer["label"] is None and answer["index"] is None and not answer["accepted"]
    assert answer["classes"]  # the scores are still there


def test_per_class_thresholds_from_meta_apply(tmp_path: Path, lenet) -> None:
    probe = digits_meta()
    framework.jit.save(lenet, str(tmp_path / "model"), input_spec=[probe.input_spec()])
    plain = PackagedModel.load(write_package(tmp_path / "model", probe, tmp_path / "a.zip"))
    (answer,) = plain.predict(random_images(1))
    strict = digits_meta(thresholds={"score": 0.0, "per_class": {answer["label"]: 0.9999}})
    model = PackagedModel.load(write_package(tmp_path / "model", strict, tmp_path / "b.zip"))
    assert model.predict(random_images(1))[0]["accepted"] is False
    # A caller's thresholds go over the package's: per class first, then the overall one.
    label = answer["label"]
    assert model.predict(random_images(1), threshold=0.0)[0]["accepted"] is True
    relaxed = model.predict(random_images(1), threshold=0.9999, class_thresholds={label: 0.0})
    assert relaxed[0]["accepted"] is True
    strict_call = plain.predict(random_images(1), threshold=0.0, class_thresholds={label: 0.9999})
    assert strict_call[0]["accepted"] is False


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"definitely not an image", "not an image"),
        (random_images(1, (64, 64))[0][:2000], "cannot be decoded"),
    ],
    ids=["text", "truncated"],
)
def test_bad_images_raise_image_error_naming_the_image(package: Path, data, reason) -> None:
    model = PackagedModel.load(package)
    with pytest.raises(ImageError, match=f"image 1: .*{reason}"):
        model.predict([random_images(1)[0], data])


def test_images_over_the_pixel_limit_are_refused_before_decoding(package: Path) -> None:
    with pytest.raises(ImageError, match="limit"):
        PackagedModel.load(package).predict(random_images(1, (100, 100)), max_pixels=50 * 50)


def test_concurrent_callers_get_their_own_answers(package: Path) -> None:
    model = PackagedModel.load(package)
    images = random_images(8)
    expected = [model.predict([image])[0] for image in images]
    results: dict[int, list] = {}

    def call(worker: int) -> None:
        results[worker] = [model.predict([images[(worker + i) % 8]])[0] for i in range(10)]

    threads = [threading.Thread(target=call, args=(w,)) for w in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for worker, answers in results.items():
        assert answers == [expected[(worker + i) % 8] for i in range(10)]


class FixedBoxes(framework.nn.Layer):
    """The same two anchors for every image, as a detector's graph answers them (boxes
    [N, 2, 4] in input pixels, scores [N, C, 2]): a dog (0.9) on the first, a cat (0.3) on
    the second, which covers the whole input."""

    def __init__(self, side: int) -> None:
        super().__init__()
        boxes = np.array([[0.1, 0.2, 0.5, 0.6], [0.0, 0.0, 1.0, 1.0]], np.float32) * side
        scores = np.array([[0.0, 0.3], [0.9, 0.0]], np.float32)  # [cat, dog] x anchors
        self.register_buffer("boxes", framework.to_tensor(boxes))
        self.register_buffer("scores", framework.to_tensor(scores))

    def forward(self, image):
        zero = (image.mean(axis=[1, 2, 3]) * 0.0).reshape([-1, 1, 1])
        return zero + self.boxes, zero + self.scores


def _detector_package(tmp_path: Path, preprocessing: Preprocessing) -> PackagedModel:
    meta = PackageMeta(
        name="boxes",
        task="detection",
        class_names=["cat", "dog"],
        preprocessing=preprocessing,
        thresholds={"score": 0.5, "per_class": {}},
    )
    layer = FixedBoxes(preprocessing.size[0])
    framework.jit.save(layer, str(tmp_path / "model"), input_spec=[meta.input_spec()])
    return PackagedModel.load(write_package(tmp_path / "model", meta, tmp_path / "d.zip"))


def test_detection_packages_return_pixel_boxes_above_the_threshold(tmp_path: Path) -> None:
    model = _detector_package(tmp_path, Preprocessing.rgb(16))
    assert model.meta.to_json()["postprocessing"]["nms"]["iou_threshold"] == 0.6
    photo = png(np.full((100, 200, 3), 128, np.uint8))
    (answer,) = model.predict([photo])
    assert answer["label"] == "dog" and answer["classes"] == []
    assert answer["boxes"] == [
        {
            "box": [20.0, 20.0, 100.0, 60.0],
            "index": 1,
            "name": "dog",
            "score": 0.9,
            "threshold": 0.5,
        }
    ]
    (loose,) = model.predict([photo], threshold=0.1, class_thresholds={"dog": 0.95})
    assert [b["name"] for b in loose["boxes"]] == ["cat"]
    assert loose["boxes"][0]["box"] == [0.0, 0.0, 200.0, 100.0]


def test_letterboxed_detection_boxes_return_to_the_image(tmp_path: Path) -> None:
    """A 200×100 image letterboxed into 16×16 is 16×8 at rows 4 to 12: the dog's input box
    (1.6, 3.2, 8, 9.6) is (20, -10, 100, 70) in the image, clipped to (20, 0, 100, 70)."""
    pre = dataclasses.replace(Preprocessing.rgb(16), resize="letterbox")
    model = _detector_package(tmp_path, pre)
    photo = png(np.full((100, 200, 3), 200, np.uint8))
    image = model.open_images([photo])
    batch = model.batch(image)[0]
    grey = (114 / 255 - np.array(pre.mean)) / np.array(pre.std)
    np.testing.assert_allclose(batch[:, 0, 0], grey, rtol=1e-5)  # the padding row
    assert not np.allclose(batch[:, 8, 0], grey)
    (answer,) = model.predict([photo])
    assert answer["boxes"][0]["box"] == [20.0, 0.0, 100.0, 70.0]


def test_unpacking_writes_only_package_files(package: Path, tmp_path: Path) -> None:
    hostile = tmp_path / "hostile.zip"
    with zipfile.ZipFile(package) as source, zipfile.ZipFile(hostile, "w") as out:
        for name in source.namelist():
            out.writestr(name, source.read(name))
        out.writestr("../escape.txt", "x")
        out.writestr("extra/file.txt", "x")
    folder = unpack_package(hostile, tmp_path / "unpacked")
    assert sorted(p.name for p in folder.iterdir()) == sorted(PACKAGE_FILES)
    assert not (tmp_path / "escape.txt").exists()


@pytest.mark.parametrize(
    "change, message",
    [
        ({"format": "other"}, "not a Sampan inference package"),
        ({"format_version": 99}, "format version 99"),
        ({"task": "segmentation"}, "task must be one of"),
        ({"class_names": []}, "no class names"),
        ({"preprocessing": {"color_mode": "CMYK"}}, "bad preprocessing"),
    ],
)
def test_bad_meta_is_refused_with_a_reason(package: Path, change: dict, message: str) -> None:
    doc = read_meta(package).to_json() | change
    with pytest.raises(PackageError, match=message):
        PackageMeta.from_json(doc)


def test_a_zip_without_the_model_is_not_a_package(tmp_path: Path) -> None:
    empty = tmp_path / "empty.zip"
    with zipfile.ZipFile(empty, "w") as archive:
        archive.writestr("meta.json", "{}")
    with pytest.raises(PackageError, match="not a Sampan package"):
        PackagedModel.load(empty)


def test_writing_needs_a_saved_model(tmp_path: Path) -> None:
    with pytest.raises(PackageError, match="jit.save first"):
        write_package(tmp_path / "nothing", digits_meta(), tmp_path / "x.zip")


def test_graphs_with_scalar_constants_package_and_load(tmp_path: Path) -> None:
    """A 0-d initializer (`x * 0.5 + 0.1`, an INT8 scale) keeps its shape through the files."""

    class Affine(framework.nn.Layer):
        def forward(self, image):
            return (image * 0.5 + 0.1).flatten(1)[:, :3]

    meta = PackageMeta(
        name="affine",
        task="classification",
        class_names=["a", "b", "c"],
        preprocessing=Preprocessing.grey(4),
    )
    framework.jit.save(Affine(), str(tmp_path / "model"), input_spec=[meta.input_spec()])
    model = PackagedModel.load(write_package(tmp_path / "model", meta, tmp_path / "a.zip"))
    batch = np.ones((2, 1, 4, 4), np.float32)
    np.testing.assert_allclose(model.run(batch)[0], np.full((2, 3), 0.6), rtol=1e-6)


@pytest.mark.gpu
def test_a_package_runs_on_the_gpu_with_the_cpu_answers(package: Path) -> None:
    cpu = PackagedModel.load(package)
    gpu = PackagedModel.load(package, device="gpu:0")
    batch = cpu.batch([Image.open(io.BytesIO(data)) for data in random_images(4)])
    np.testing.assert_allclose(gpu.run(batch)[0], cpu.run(batch)[0], rtol=1e-4, atol=1e-4)
