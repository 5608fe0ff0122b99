"""The framework's OCR pipeline reads what rapidocr (onnxruntime + OpenCV) reads: the same
lines, in the same order, boxes within a pixel, the same strings, on scanned and rendered
pages, Latin and Chinese, tilted and upside down."""

from __future__ import annotations

import numpy as np
import pytest

from tests.framework_tests.ocr_tests import ocr_images as images

skimage_data = pytest.importorskip("skimage.data")

ENGLISH = [
    "Sampan reads receipts and pages.",
    "Invoice 2026-12-02  Total: 1,234.50 EUR",
    "The quick brown fox jumps over the lazy dog",
]
CHINESE = ["今天天气很好，我们去公园散步。", "发票号码：20261202", "合计金额：壹佰贰拾捌元整"]


def _assert_same_lines(got, want) -> None:
    assert [line.text for line in got] == [w[1] for w in want]
    for line, (box, _, score) in zip(got, want, strict=True):
        np.testing.assert_allclose(line.polygon, np.asarray(box, dtype=np.float32), atol=1.0)
        assert line.score == pytest.approx(score, abs=2e-3)


@pytest.mark.parametrize(
    "name",
    ["page", "text", "english", "chinese", "english_upside_down", "chinese_tilted"],
)
def test_it_reads_what_rapidocr_reads(pipeline, rapidocr, name) -> None:
    image = {
        "page": lambda: images.grey_to_bgr(skimage_data.page()),
        "text": lambda: images.grey_to_bgr(skimage_data.text()),
        "english": lambda: images.render_lines(ENGLISH, size=28),
        "chinese": lambda: images.render_lines(CHINESE, size=32),
        "english_upside_down": lambda: images.render_lines(ENGLISH[:2], size=28)[::-1, ::-1],
        "chinese_tilted": lambda: images.rotated(images.render_lines(CHINESE[:2], size=32), 6),
    }[name]()
    image = np.ascontiguousarray(image)
    want, _ = rapidocr(image)
    got = pipeline(image)
    _assert_same_lines(got, want or [])
    if name not in ("text",):
        assert got, "the page has printed text: something must be read"


def test_it_reads_the_rendered_strings(pipeline) -> None:
    got = [line.text for line in pipeline(images.render_lines(CHINESE, size=32))]
    assert got[1] == "发票号码：20261202"
    assert "今天天气很好" in got[0]


def test_it_takes_grey_arrays_and_pil_images(pipeline) -> None:
    from PIL import Image

    grey = skimage_data.page()[:60]
    from_grey = pipeline(grey)
    from_pil = pipeline(Image.fromarray(grey))
    assert [line.text for line in from_grey] == [line.text for line in from_pil]
    assert from_grey and from_grey[0].text.startswith("Region-based")


@pytest.mark.parametrize(
    "bad, message",
    [
        (np.zeros((10, 10, 3), np.float32), "uint8"),
        (np.zeros((10, 10, 4), np.uint8), r"\[H, W, 3\]"),
    ],
)
def test_it_rejects_images_it_cannot_read(pipeline, bad, message) -> None:
    with pytest.raises(ValueError, match=message):
        pipeline(bad)


def test_a_blank_page_has_no_lines(pipeline) -> None:
    assert pipeline(np.full((64, 64, 3), 255, np.uint8)) == []
