"""A package runs outside Sampan: unpacked into a fresh virtualenv that holds only NumPy, Pillow
and the framework wheel from `make wheel`, its predict.py answers as PackagedModel does here."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import framework
from framework.inference.package import PackageMeta, Preprocessing, write_package
from framework.inference.packaged_model import PackagedModel
from framework.vision.models import LeNet
from tests.framework_tests.inference_tests.package_venv import (
    StandaloneVenv,
    build_standalone_venv,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> StandaloneVenv:
    return build_standalone_venv(tmp_path_factory.mktemp("standalone"))


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("unpacked")
    framework.seed(11)
    network = LeNet(num_classes=10)
    network.eval()
    meta = PackageMeta(
        name="digits",
        task="classification",
        class_names=[f"digit {i}" for i in range(10)],
        preprocessing=Preprocessing.grey(28),
        thresholds={"score": 0.2, "per_class": {}},
        source={"version": "v7"},
    )
    framework.jit.save(network, str(root / "model"), input_spec=[meta.input_spec()])
    package = write_package(root / "model", meta, root / "digits.zip")
    folder = root / "digits"
    with zipfile.ZipFile(package) as archive:
        archive.extractall(folder)
    return folder


@pytest.fixture(scope="module")
def images(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("images")
    rng = np.random.default_rng(5)
    for index in range(6):
        size = (20 + 4 * index, 30)
        Image.fromarray(rng.integers(0, 256, size, dtype=np.uint8)).save(folder / f"{index}.png")
    (folder / "nested").mkdir()
    rgb = rng.integers(0, 256, (33, 45, 3), dtype=np.uint8)
    Image.fromarray(rgb).save(folder / "nested" / "color.jpg")
    (folder / "notes.txt").write_text("not an image, and not listed")
    return folder


def test_the_venv_holds_only_numpy_pillow_and_the_framework(venv: StandaloneVenv) -> None:
    assert venv.installed() == {"numpy", "pillow", "sampan-framework"}
    probe = venv.run(
        "-c", "import framework, sys; print(framework.__file__)", cwd=venv.wheel.parent
    )
    assert probe.returncode == 0, probe.stderr
    assert "site-packages" in probe.stdout


def test_the_wheel_requires_only_numpy_and_offers_the_extras(venv: StandaloneVenv) -> None:
    with zipfile.ZipFile(venv.wheel) as wheel:
        (metadata,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
        lines = wheel.read(metadata).decode().splitlines()
    requires = [line.split(": ", 1)[1] for line in lines if line.startswith("Requires-Dist: ")]
    assert [r for r in requires if "extra ==" not in r] == ["numpy>=1.24"]
    extras = {line.split(": ", 1)[1] for line in lines if line.startswith("Provides-Extra: ")}
    assert extras == {"vision", "gpu", "fast-io", "cpu-threads", "mkl", "onednn"}


def test_predict_py_gives_the_in_process_predictions(
    venv: StandaloneVenv, unpacked: Path, images: Path
) -> None:
    ran = venv.run(str(unpacked / "predict.py"), str(images), "--top-k", "3", cwd=images)
    assert ran.returncode == 0, ran.stderr
    document = json.loads(ran.stdout)
    assert document["model"] == {
        "name": "digits",
        "task": "classification",
        "precision": "float32",
        "version": "v7",
    }
    assert document["threshold"] == 0.2
    files = sorted(images.rglob("*.png")) + sorted(images.rglob("*.jpg"))
    by_file = {Path(p["file"]).name: p for p in document["predictions"]}
    assert sorted(by_file) == sorted(f.name for f in files)
    expected = PackagedModel.load(unpacked).predict(files, top_k=3)
    for file, answer in zip(files, expected, strict=True):
        got = by_file[file.name]
        assert got["label"] == answer["label"] and got["accepted"] == answer["accepted"]
        assert [c["index"] for c in got["classes"]] == [c["index"] for c in answer["classes"]]
        np.testing.assert_allclose(
            [c["score"] for c in got["classes"]],
            [c["score"] for c in answer["classes"]],
            atol=2e-5,
        )


def test_predict_py_lists_unreadable_images_and_exits_1(
    venv: StandaloneVenv, unpacked: Path, tmp_path: Path
) -> None:
    Image.fromarray(np.zeros((28, 28), np.uint8)).save(tmp_path / "good.png")
    (tmp_path / "bad.png").write_bytes(b"not a png")
    out = tmp_path / "out.json"
    ran = venv.run(
        str(unpacked / "predict.py"),
        str(tmp_path),
        "--threshold",
        "0.99",
        "--output",
        str(out),
        cwd=tmp_path,
    )
    assert ran.returncode == 1 and out.exists(), ran.stderr
    predictions = {Path(p["file"]).name: p for p in json.loads(out.read_text())["predictions"]}
    assert "not an image" in predictions["bad.png"]["error"]
    assert predictions["good.png"]["classes"] and "error" not in predictions["good.png"]


def test_predict_py_reports_a_missing_input(venv: StandaloneVenv, unpacked: Path) -> None:
    ran = venv.run(str(unpacked / "predict.py"), "nowhere.png", cwd=unpacked)
    assert ran.returncode != 0 and "no such file or folder" in ran.stderr
