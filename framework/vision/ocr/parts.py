"""The trainable networks of a PP-OCR pipeline as one Layer, so that a job fine-tuning the
detector, the recognizer or both keeps one state dict, one optimizer and one checkpoint.

Each part is the network its ONNX model builds (`framework.onnx.load`), kept under the
part's name, so the state dict's keys are `"det." + name` and `"rec." + name`: the layout a
fine-tuned OCR model's weights are stored and exported in (one prefix per part).
"""

from __future__ import annotations

from typing import Any

from framework.nn.layer.layers import Layer
from framework.vision.ocr.rec_training import RecognitionNetwork

PART_NAMES = ("det", "rec")  # in pipeline order


class PipelineParts(Layer):
    """The detection network (`det`: `[N, 3, H, W]` float32 in, `[N, 1, H, W]` text
    probabilities out) and/or the recognition network (`rec`: `[N, 3, 48, W]` float32 lines
    in, `[N, W / 8, C]` float32 probabilities out) of a PP-OCR pipeline.

    Args:
        det: the detection Layer, or None when the detector is not trained.
        rec: the recognition Layer, or None when the recognizer is not trained.

        parts = PipelineParts.from_onnx(det="det.onnx", rec="rec.onnx")
        sorted(parts.state_dict())[:1]          # ['det.<an ONNX initializer name>']
        TextRecognizer(parts.recognition())     # reads with the `rec` part's weights
        DetectorTrainer(parts.det)              # trains the `det` part in place
    """

    def __init__(self, det: Layer | None = None, rec: Layer | None = None) -> None:
        super().__init__()
        if det is None and rec is None:
            raise ValueError("a PipelineParts needs a detection or a recognition network")
        if det is not None:
            self.det = det
        if rec is not None:
            self.rec = rec

    @classmethod
    def from_onnx(cls, det: str | None = None, rec: str | None = None) -> PipelineParts:
        import framework

        return cls(
            det=framework.onnx.load(det) if det else None,
            rec=framework.onnx.load(rec) if rec else None,
        )

    @property
    def parts(self) -> list[str]:
        """The parts this Layer holds, in pipeline order (`["det", "rec"]`, say)."""
        return [name for name in PART_NAMES if name in self._sub_layers]

    def recognition(self) -> RecognitionNetwork:
        """The `rec` part as a RecognitionNetwork (sharing its parameters), for
        `TextRecognizer` and `RecognizerTrainer`."""
        if "rec" not in self._sub_layers:
            raise ValueError("this PipelineParts holds no recognition network")
        return RecognitionNetwork(self.rec)

    def parameters_of(self, part: str) -> list[Any]:
        """The trainable parameters of one part."""
        if part not in self._sub_layers:
            raise ValueError(f"this PipelineParts holds no {part!r} network; it has {self.parts}")
        return self._sub_layers[part].parameters()

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """A PipelineParts of one network runs it (the model zoo profiles the recognizer so);
        one of two has no single input."""
        if len(self.parts) == 1:
            return self._sub_layers[self.parts[0]](*args, **kwargs)
        raise TypeError(
            "PipelineParts holds separate networks: call parts.det(images) or "
            "parts.recognition()(lines)"
        )
