"""The PP-OCR models, imported into the framework once per test session."""

from __future__ import annotations

import pytest

from tests.framework_tests.ocr_tests.ocr_images import model_paths


@pytest.fixture(scope="session")
def ppocr_layers() -> dict:
    import framework

    return {key: framework.onnx.load(path) for key, path in model_paths().items()}


@pytest.fixture(scope="session")
def pipeline(ppocr_layers):
    from framework.vision.ocr import OCRPipeline, TextClassifier, TextDetector, TextRecognizer

    return OCRPipeline(
        TextDetector(ppocr_layers["det"]),
        TextRecognizer(ppocr_layers["rec"]),
        TextClassifier(ppocr_layers["cls"]),
    )


@pytest.fixture(scope="session")
def rapidocr():
    """The reference: rapidocr's own pipeline on onnxruntime and OpenCV (a test oracle)."""
    rapidocr_onnxruntime = pytest.importorskip("rapidocr_onnxruntime")
    return rapidocr_onnxruntime.RapidOCR()
