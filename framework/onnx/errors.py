"""Errors raised while writing or reading ONNX files."""

from __future__ import annotations


class OnnxFormatError(ValueError):
    """A file is not a well-formed ONNX model (corrupt, truncated, or something else)."""


class OnnxExportError(RuntimeError):
    """A graph cannot be written as ONNX (an op without an ONNX form at the chosen opset)."""


class OnnxImportError(ValueError):
    """An ONNX model cannot be turned into a framework layer."""


class UnsupportedOnnxOpError(OnnxImportError):
    """The model uses ONNX ops (or op settings) the importer does not implement.

    `missing` maps each op description (e.g. `"RoiAlign"` or
    `"Resize(mode=cubic, coordinate_transformation_mode=tf_crop_and_resize)"`) to its count."""

    def __init__(self, message: str, missing: dict[str, int]) -> None:
        super().__init__(message)
        self.missing = dict(missing)
