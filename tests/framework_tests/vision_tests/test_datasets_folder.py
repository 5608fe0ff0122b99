"""DatasetFolder and ImageFolder on PNG/JPEG folders made from scikit-learn's digits."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

import framework
from framework.io import DataLoader
from framework.vision import transforms as T
from framework.vision.datasets import (
    DatasetFolder,
    ImageFolder,
    get_image_backend,
    image_load,
    set_image_backend,
)

sklearn_datasets = pytest.importorskip("sklearn.datasets")


@pytest.fixture(scope="module")
def digits_dir(tmp_path_factory):
    """root/<digit name>/<n>.png|jpg, 3 classes, nested sub-folder in one, a stray text file."""
    digits = sklearn_datasets.load_digits()
    root = tmp_path_factory.mktemp("digits")
    names = {0: "zero", 1: "one", 7: "seven"}
    for label, name in names.items():
        images = digits.images[digits.target == label][:4]
        for i, image in enumerate(images):
            folder = root / name / ("nested" if i == 3 else "")
            folder.mkdir(parents=True, exist_ok=True)
            pixels = (image * 255 / 16).astype(np.uint8)
            picture = Image.fromarray(pixels).resize((16, 16), Image.Resampling.NEAREST)
            suffix = ".png" if i % 2 == 0 else ".JPG"
            picture.convert("RGB").save(folder / f"{i}{suffix}")
    (root / "seven" / "notes.txt").write_text("not an image")
    return root


def test_classes_are_sorted_subfolders_and_samples_sorted_paths(digits_dir):
    ds = DatasetFolder(str(digits_dir))
    assert ds.classes == ["one", "seven", "zero"]
    assert ds.class_to_idx == {"one": 0, "seven": 1, "zero": 2}
    assert len(ds) == 12
    assert ds.targets == [0] * 4 + [1] * 4 + [2] * 4
    paths = [p for p, _ in ds.samples]
    assert paths[:4] == sorted(paths[:4], key=lambda p: (p.count("/"), p))
    assert not any(p.endswith(".txt") for p in paths)
    image, label = ds[5]
    assert isinstance(image, Image.Image) and image.mode == "RGB" and image.size == (16, 16)
    assert label == 1


def test_it_matches_paddle_dataset_folder(digits_dir):
    paddle_datasets = pytest.importorskip("paddle.vision.datasets")
    ours = DatasetFolder(str(digits_dir))
    theirs = paddle_datasets.DatasetFolder(str(digits_dir))
    assert ours.classes == theirs.classes
    assert ours.samples == theirs.samples
    np.testing.assert_array_equal(np.asarray(ours[3][0]), np.asarray(theirs[3][0]))
    assert (
        ImageFolder(str(digits_dir)).samples == paddle_datasets.ImageFolder(str(digits_dir)).samples
    )


def test_extensions_is_valid_file_loader_and_transform(digits_dir):
    pngs = DatasetFolder(str(digits_dir), extensions=(".png",))
    assert len(pngs) == 6 and all(p.endswith(".png") for p, _ in pngs.samples)
    nested = DatasetFolder(str(digits_dir), is_valid_file=lambda p: "nested" in p)
    assert len(nested) == 3
    sized = DatasetFolder(
        str(digits_dir), loader=lambda p: Image.open(p).convert("L"), transform=T.ToTensor()
    )
    image, _ = sized[0]
    assert isinstance(image, framework.Tensor) and image.shape == [1, 16, 16]


def test_image_folder_is_unlabelled_like_paddle(digits_dir):
    ds = ImageFolder(str(digits_dir), transform=T.Resize(8))
    assert len(ds) == 12
    sample = ds[0]
    assert isinstance(sample, list) and len(sample) == 1
    assert sample[0].size == (8, 8)


def test_cv2_backend_returns_rgb_arrays(digits_dir):
    previous = get_image_backend()
    set_image_backend("cv2")
    try:
        image, _ = DatasetFolder(str(digits_dir))[0]
    finally:
        set_image_backend(previous)
    assert isinstance(image, np.ndarray) and image.shape == (16, 16, 3) and image.dtype == np.uint8
    path = DatasetFolder(str(digits_dir)).samples[0][0]
    np.testing.assert_array_equal(image, np.asarray(image_load(path)))
    assert image_load(path, "tensor").shape == [3, 16, 16]
    with pytest.raises(ValueError, match="backend"):
        set_image_backend("opencv")


def test_empty_folder_is_an_error(tmp_path):
    (tmp_path / "empty_class").mkdir()
    with pytest.raises(RuntimeError, match="Found 0 files"):
        DatasetFolder(str(tmp_path))
    with pytest.raises(RuntimeError, match="Found 0 files"):
        ImageFolder(str(tmp_path))


@pytest.mark.timeout(60)
def test_data_loader_with_workers_reads_the_folder_like_the_main_process(digits_dir):
    transform = T.Compose([T.Resize(12), T.ToTensor(), T.Normalize(0.5, 0.5)])
    ds = DatasetFolder(str(digits_dir), transform=transform)
    serial = list(DataLoader(ds, batch_size=5))
    parallel = list(DataLoader(ds, batch_size=5, num_workers=2))
    assert len(serial) == len(parallel) == 3
    for (xa, ya), (xb, yb) in zip(serial, parallel, strict=True):
        assert xa.shape[1:] == [3, 12, 12] and ya.dtype == np.int64
        np.testing.assert_array_equal(xa.numpy(), xb.numpy())
        np.testing.assert_array_equal(ya.numpy(), yb.numpy())
