"""MNIST/FashionMNIST IDX files and CIFAR archives written in tmp_path; the restricted
unpickler against pickles that try to run code; no download ever."""

from __future__ import annotations

import gzip
import io
import os
import pickle
import tarfile
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from framework.interop.safe_unpickle import UnsafePickleError
from framework.vision.datasets import MNIST, Cifar10, Cifar100, FashionMNIST, dataset_dir
from framework.vision.datasets.restricted_pickle import restricted_loads
from tests.framework_tests.interop_tests.malicious import Reduce, expected_names, payloads
from tests.framework_tests.vision_tests.cifar_archives import (
    add_member,
    cifar_batch,
    python2_dumps,
    write_archive,
)


def write_idx(path, array: np.ndarray, magic: int, compress: bool) -> str:
    header = magic.to_bytes(4, "big") + b"".join(d.to_bytes(4, "big") for d in array.shape)
    raw = header + array.astype(np.uint8).tobytes()
    with open(path, "wb") as f:
        f.write(gzip.compress(raw) if compress else raw)
    return str(path)


@pytest.fixture
def mnist_files(tmp_path):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (100, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, 10, 100, dtype=np.uint8)
    image_path = write_idx(tmp_path / "imgs-idx3-ubyte.gz", images, 2051, True)
    label_path = write_idx(tmp_path / "labels-idx1-ubyte", labels, 2049, False)
    return images, labels, image_path, label_path


def test_mnist_reads_idx_files(mnist_files):
    images, labels, image_path, label_path = mnist_files
    ds = MNIST(image_path=image_path, label_path=label_path, backend="pil")
    assert len(ds) == 100
    image, label = ds[17]
    assert isinstance(image, Image.Image) and image.mode == "L"
    np.testing.assert_array_equal(np.asarray(image), images[17])
    assert label.dtype == np.int64 and label.shape == (1,) and label[0] == labels[17]
    array, _ = MNIST(
        image_path=image_path, label_path=label_path, backend="cv2", transform=lambda x: x / 255
    )[3]
    assert array.dtype == np.float32
    np.testing.assert_allclose(array, images[3] / 255, rtol=1e-6)


def test_mnist_matches_paddle(mnist_files, tmp_path):
    paddle_datasets = pytest.importorskip("paddle.vision.datasets")
    images, labels, image_path, _ = mnist_files
    label_gz = write_idx(tmp_path / "labels.gz", labels, 2049, True)  # Paddle reads gzip only
    ours = MNIST(image_path=image_path, label_path=label_gz, backend="cv2")
    theirs = paddle_datasets.MNIST(image_path=image_path, label_path=label_gz, backend="cv2")
    for i in (0, 42, 99):
        np.testing.assert_array_equal(ours[i][0], theirs[i][0])
        np.testing.assert_array_equal(ours[i][1], theirs[i][1])
        assert ours[i][0].dtype == theirs[i][0].dtype


def test_fashion_mnist_finds_files_in_the_local_data_directory(mnist_files, tmp_path, monkeypatch):
    images, labels, _, _ = mnist_files
    monkeypatch.setenv("FRAMEWORK_HOME", str(tmp_path / "home"))
    folder = dataset_dir("fashion-mnist")
    folder.mkdir(parents=True)
    write_idx(folder / "t10k-images-idx3-ubyte", images, 2051, False)
    write_idx(folder / "t10k-labels-idx1-ubyte.gz", labels, 2049, True)
    ds = FashionMNIST(mode="test")
    assert len(ds) == 100 and ds.image_path.endswith("t10k-images-idx3-ubyte")


def test_missing_files_say_where_to_put_them_and_never_download(tmp_path, monkeypatch):
    monkeypatch.setenv("FRAMEWORK_HOME", str(tmp_path))
    expected = tmp_path / "datasets" / "mnist" / "train-images-idx3-ubyte.gz"
    with pytest.raises(FileNotFoundError) as info:
        MNIST(mode="train", download=True)
    message = str(info.value)
    assert str(expected) in message and "Nothing is downloaded" in message
    assert "image_path=" in message and "FRAMEWORK_HOME" in message
    with pytest.raises(FileNotFoundError, match=r"cifar.*cifar-10-python\.tar\.gz"):
        Cifar10(download=True)
    with pytest.raises(ValueError, match="downloading automatically is disabled"):
        Cifar100(download=False)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        MNIST(image_path=str(tmp_path / "nope.gz"), label_path=str(tmp_path / "nope2.gz"))


def test_corrupt_idx_files_are_rejected(mnist_files, tmp_path):
    images, labels, image_path, label_path = mnist_files
    with pytest.raises(ValueError, match="magic number 2049"):
        MNIST(image_path=label_path, label_path=label_path)
    truncated = tmp_path / "short-idx3"
    truncated.write_bytes(open(write_idx(tmp_path / "x", images, 2051, False), "rb").read()[:-5])
    with pytest.raises(ValueError, match="holds"):
        MNIST(image_path=str(truncated), label_path=label_path)
    few_labels = write_idx(tmp_path / "few", labels[:50], 2049, False)
    with pytest.raises(ValueError, match="100 images but"):
        MNIST(image_path=image_path, label_path=few_labels)


@pytest.fixture(params=[2, 5], ids=["protocol2", "protocol5"])
def cifar10_file(request, tmp_path):
    rng = np.random.default_rng(1)
    batches = {f"data_batch_{i}": cifar_batch(rng, 6, b"labels") for i in (2, 1)}
    batches["test_batch"] = cifar_batch(rng, 4, b"labels")
    path = tmp_path / "cifar-10-python.tar.gz"
    with tarfile.open(path, "w:gz") as archive:
        for name, batch in batches.items():
            add_member(archive, f"cifar-10-batches-py/{name}", pickle.dumps(batch, request.param))
        add_member(archive, "cifar-10-batches-py/batches.meta", pickle.dumps({b"x": 1}))
    return str(path), batches


def test_cifar10_reads_batches_in_name_order(cifar10_file):
    path, batches = cifar10_file
    train = Cifar10(data_file=path, mode="train", backend="pil")
    assert len(train) == 12
    data = np.concatenate([batches["data_batch_1"][b"data"], batches["data_batch_2"][b"data"]])
    labels = batches["data_batch_1"][b"labels"] + batches["data_batch_2"][b"labels"]
    image, label = train[7]
    assert isinstance(image, Image.Image) and image.size == (32, 32)
    np.testing.assert_array_equal(np.asarray(image), data[7].reshape(3, 32, 32).transpose(1, 2, 0))
    assert label.dtype == np.int64 and label.shape == () and int(label) == labels[7]
    test = Cifar10(data_file=path, mode="test", backend="cv2")
    assert len(test) == 4 and test[0][0].dtype == np.float32 and test[0][0].shape == (32, 32, 3)


def test_cifar10_matches_paddle(cifar10_file):
    paddle_datasets = pytest.importorskip("paddle.vision.datasets")
    path, _ = cifar10_file
    ours = Cifar10(data_file=path, mode="train", backend="cv2")
    theirs = paddle_datasets.Cifar10(data_file=path, mode="train", backend="cv2")
    assert len(ours) == len(theirs)
    for i in (0, 5, 11):
        np.testing.assert_array_equal(ours[i][0], theirs[i][0])
        np.testing.assert_array_equal(ours[i][1], theirs[i][1])


def test_cifar10_reads_python2_batches_exactly(tmp_path):
    """The published batches were written by Python 2: bytes and str are both its `str`."""
    rng = np.random.default_rng(3)
    batches = {name: cifar_batch(rng, 3, b"labels") for name in ("data_batch_1", "data_batch_2")}
    pickled = {f"cifar-10-batches-py/{name}": python2_dumps(b) for name, b in batches.items()}
    assert all(
        b"U\x04data" in data and b"numpy.core.multiarray" in data for data in pickled.values()
    )
    path = write_archive(tmp_path / "cifar-10-python.tar.gz", pickled)
    train = Cifar10(data_file=str(path), backend="cv2")
    data = np.concatenate([batches[name][b"data"] for name in sorted(batches)])
    expected = data.reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
    np.testing.assert_array_equal(train.data, expected)
    assert train.data.dtype == np.uint8
    labels = batches["data_batch_1"][b"labels"] + batches["data_batch_2"][b"labels"]
    assert train.labels.tolist() == labels and train.labels.dtype == np.int64


def test_cifar100_uses_fine_labels(tmp_path):
    rng = np.random.default_rng(2)
    train = cifar_batch(rng, 5, b"fine_labels")
    train[b"coarse_labels"] = [0] * 5
    path = tmp_path / "cifar-100-python.tar.gz"
    with tarfile.open(path, "w:gz") as archive:
        add_member(archive, "cifar-100-python/train", pickle.dumps(train, 2))
        add_member(
            archive, "cifar-100-python/test", pickle.dumps(cifar_batch(rng, 2, b"fine_labels"), 2)
        )
    ds = Cifar100(data_file=str(path), mode="train")
    assert [int(ds[i][1]) for i in range(5)] == train[b"fine_labels"]
    assert len(Cifar100(data_file=str(path), mode="test")) == 2


class RunsCode:
    """Unpickling this would create `marker` by calling a function named in the pickle."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


class Evals:
    def __reduce__(self):
        return (eval, ("__import__('os').getcwd()",))


def test_a_cifar_archive_that_tries_to_run_code_is_refused(tmp_path):
    marker = tmp_path / "pwned"
    batch = {b"data": np.zeros((1, 3072), np.uint8), b"labels": [RunsCode(str(marker))]}
    path = tmp_path / "cifar-10-python.tar.gz"
    with tarfile.open(path, "w:gz") as archive:
        add_member(archive, "cifar-10-batches-py/data_batch_1", pickle.dumps(batch, 2))
    refusal = (
        r"refusing to load 'cifar-10-batches-py/data_batch_1' in 'cifar-10-python.tar.gz': it "
        r"asks for '(posix|os)\.mkdir'.*nothing from the file was executed"
    )
    with pytest.raises(pickle.UnpicklingError, match=refusal):
        Cifar10(data_file=str(path))
    assert not marker.exists()
    assert (
        pickle.loads(pickle.dumps(RunsCode(str(marker)))) is None and marker.exists()
    )  # it was armed


@pytest.mark.parametrize("payload", sorted(payloads(Path("unused"))))
def test_a_cifar_batch_holding_any_code_running_payload_is_refused(tmp_path, payload):
    marker = tmp_path / "marker"
    batch = {b"data": np.zeros((1, 3072), np.uint8), b"labels": [payloads(marker)[payload]]}
    path = write_archive(
        tmp_path / "cifar-10-python.tar.gz",
        {"cifar-10-batches-py/data_batch_1": pickle.dumps(batch, 2)},
    )
    with pytest.raises(UnsafePickleError) as caught:
        Cifar10(data_file=str(path))
    assert caught.value.qualified_name in expected_names(payload)
    assert str(caught.value).startswith(
        "refusing to load 'cifar-10-batches-py/data_batch_1' in 'cifar-10-python.tar.gz'"
    )
    assert not marker.exists()


def test_a_cifar_batch_of_an_object_array_is_refused_before_its_items_are_built(tmp_path):
    batch = {b"data": np.array([[1, "a"]], dtype=object), b"labels": [0]}
    path = write_archive(
        tmp_path / "cifar-10-python.tar.gz",
        {"cifar-10-batches-py/data_batch_1": pickle.dumps(batch, 2)},
    )
    with pytest.raises(UnsafePickleError, match=r"'numpy.dtype', and its dtype object holds"):
        Cifar10(data_file=str(path))


@pytest.mark.parametrize("protocol", range(0, 6))
def test_restricted_unpickler_admits_plain_data_and_arrays(protocol):
    data = {
        b"data": np.arange(24, dtype=np.uint8).reshape(4, 6),
        "fortran": np.asfortranarray(np.ones((2, 3))),
        "empty": np.zeros((0, 3), np.float32),
        "scalar": np.float32(2.5),
        "nested": [1, 2.0, True, None, "text", b"bytes", (3, 4), {"k": [5]}],
    }
    out = restricted_loads(pickle.dumps(data, protocol), encoding="bytes")
    for key in ("fortran", "empty"):
        np.testing.assert_array_equal(out[key], data[key])
        assert out[key].dtype == data[key].dtype
    np.testing.assert_array_equal(out[b"data"], data[b"data"])
    assert out["scalar"] == np.float32(2.5) and out["nested"] == data["nested"]


@pytest.mark.parametrize(
    "payload",
    [
        pickle.dumps(Evals()),
        pickle.dumps({"x": Evals()}, 2),
        pickle.dumps(np.array([1, "a"], dtype=object)),
        pickle.dumps(io.BytesIO(b"x")),
        b"cos\nsystem\n(S'echo hi'\ntR.",
        pickle.dumps(Reduce(np.ndarray, (2**30,), "f4"), 2),
    ],
    ids=[
        "eval", "nested-eval", "object-array", "other-class", "handwritten-os-system",
        "ndarray-called",
    ],
)  # fmt: skip
def test_restricted_unpickler_refuses_everything_else(payload):
    with pytest.raises(pickle.UnpicklingError, match="refusing"):
        restricted_loads(payload)
