"""`read_file` and `decode_jpeg`: bytes as Paddle reads them, and decoding against PIL. Paddle's
`decode_jpeg` runs on the GPU only (nvJPEG), so its pixels are not compared here."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

import framework
from framework.vision import ops


@pytest.fixture
def photo(tmp_path):
    rng = np.random.default_rng(0)
    path = tmp_path / "photo.jpg"
    Image.fromarray(rng.integers(0, 256, (5, 7, 3), dtype=np.uint8)).save(path, quality=95)
    return path


@pytest.fixture
def gray_photo(tmp_path):
    path = tmp_path / "gray.jpg"
    Image.fromarray(np.arange(35, dtype=np.uint8).reshape(5, 7) * 7).save(path)
    return path


def test_read_file_gives_the_bytes(photo) -> None:
    data = ops.read_file(str(photo))
    assert data.dtype == framework.uint8
    assert data.numpy().tobytes() == photo.read_bytes()


def test_read_file_matches_paddle(photo) -> None:
    paddle = pytest.importorskip("paddle")
    want = paddle.vision.ops.read_file(str(photo))
    got = ops.read_file(str(photo))
    assert got.shape == list(want.shape)
    assert got.numpy().dtype == want.numpy().dtype
    np.testing.assert_array_equal(got.numpy(), want.numpy())


@pytest.mark.parametrize("mode, pil_mode", [("unchanged", "RGB"), ("rgb", "RGB"), ("gray", "L")])
def test_decode_jpeg_gives_chw_uint8(photo, mode, pil_mode) -> None:
    image = ops.decode_jpeg(ops.read_file(photo), mode=mode)
    want = np.asarray(Image.open(photo).convert(pil_mode))
    want = want[None] if want.ndim == 2 else want.transpose(2, 0, 1)
    assert image.dtype == framework.uint8
    np.testing.assert_array_equal(image.numpy(), want)


def test_unchanged_keeps_a_grayscale_file_at_one_channel(gray_photo) -> None:
    assert ops.decode_jpeg(ops.read_file(gray_photo)).shape == [1, 5, 7]
    assert ops.decode_jpeg(ops.read_file(gray_photo), mode="rgb").shape == [3, 5, 7]


def test_it_rejects_an_unknown_mode_and_other_formats(photo, tmp_path) -> None:
    with pytest.raises(ValueError, match="mode"):
        ops.decode_jpeg(ops.read_file(photo), mode="bgr")
    png = tmp_path / "image.png"
    Image.fromarray(np.zeros((2, 2), np.uint8)).save(png)
    with pytest.raises(ValueError, match="not a JPEG"):
        ops.decode_jpeg(ops.read_file(png))
