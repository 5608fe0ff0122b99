"""Fine-tuning a text recognizer on labeled line crops with CTC, as PaddleOCR fine-tunes its
PP-OCR recognition models from their released weights.

The shipped PP-OCRv4 network ends in a softmax; the CTC loss log-softmaxes its input again,
which leaves log-probabilities unchanged, so the loss takes `log(p)` straight from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from framework.nn.layer.layers import Layer
from framework.vision.ocr.predictors import TextRecognizer

PROBABILITY_FLOOR = 1e-10  # log(0) would make the loss and its gradient infinite


def encode_texts(texts: Sequence[str], characters: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """CTC targets: `[N, L]` int32 class indices (right-padded with 0, the blank) and `[N]`
    int64 lengths, `characters` being the recognizer's classes (blank first).

    A character the model has no class for raises ValueError naming it: a model cannot learn
    to write a character it has no output for.

        labels, lengths = encode_texts(["ab"], ["blank", "a", "b"])  # [[1, 2]], [2]
    """
    index = {c: i for i, c in enumerate(characters) if i > 0}
    unknown = sorted({c for text in texts for c in text if c not in index})
    if unknown:
        shown = " ".join(repr(c) for c in unknown[:10])
        raise ValueError(f"the recognizer has no class for {len(unknown)} characters: {shown}")
    lengths = np.array([len(t) for t in texts], dtype=np.int64)
    labels = np.zeros((len(texts), max(1, int(lengths.max(initial=0)))), dtype=np.int32)
    for row, text in enumerate(texts):
        labels[row, : len(text)] = [index[c] for c in text]
    return labels, lengths


class RecognizerTrainer:
    """Trains a `TextRecognizer`'s network on line crops and their transcriptions.

    Args:
        recognizer: the recognizer whose network (`recognizer.model`) is trained in place.
        learning_rate: for the default optimizer, Adam (PaddleOCR's fine-tuning recipe uses
            Adam with a small rate).
        optimizer: a framework optimizer over `recognizer.model.parameters()` instead.

    `step(crops, texts)` takes `[h, w, 3]` uint8 crops (batched as the recognizer batches them:
    height 48, right-padded) and their strings, and returns the batch's CTC loss.

        trainer = RecognizerTrainer(TextRecognizer(framework.onnx.load(rec_path)))
        for crops, texts in batches:
            loss = trainer.step(crops, texts)
        trainer.recognizer(held_out)  # reads with the fine-tuned weights
    """

    def __init__(
        self, recognizer: TextRecognizer, learning_rate: float = 1e-4, optimizer: Any = None
    ) -> None:
        import framework

        self.recognizer = recognizer
        self.model = recognizer.model
        self.optimizer = optimizer or framework.optimizer.Adam(
            learning_rate=learning_rate, parameters=self.model.parameters()
        )

    def loss(self, crops: Sequence[np.ndarray], texts: Sequence[str]) -> Any:
        """The mean CTC loss of the crops (a 0-D tensor with its graph)."""
        import framework
        import framework.nn.functional as F

        if len(crops) != len(texts):
            raise ValueError(f"{len(crops)} crops for {len(texts)} texts")
        labels, lengths = encode_texts(texts, self.recognizer.characters)
        probs = self.model(framework.to_tensor(self.recognizer.batch_input(crops)))
        steps = probs.shape[1]
        if int(lengths.max(initial=0)) > steps:
            raise ValueError(
                f"a text of {int(lengths.max())} characters is longer than the {steps} steps "
                "its crop gives the model: crop the line wider or split it"
            )
        log_probs = framework.log(framework.clip(probs, min=PROBABILITY_FLOOR)).transpose([1, 0, 2])
        return F.ctc_loss(
            log_probs,
            framework.to_tensor(labels),
            framework.to_tensor(np.full(len(texts), steps, dtype=np.int64)),
            framework.to_tensor(lengths),
            blank=0,
            reduction="mean",
        )

    def step(self, crops: Sequence[np.ndarray], texts: Sequence[str]) -> float:
        """One optimizer step on the batch; returns its loss."""
        self.model.train()
        loss = self.loss(crops, texts)
        loss.backward()
        self.optimizer.step()
        self.optimizer.clear_grad()
        self.model.eval()
        return float(loss.numpy())


class RecognitionNetwork(Layer):
    """A text recognizer as one trainable Layer: `rec`, the network an ONNX recognition model
    builds (`framework.onnx.load`), so its state dict's keys are `"rec." + name`, the layout a
    fine-tuned OCR model's weights are stored in (one prefix per part of the pipeline).

    `[N, 3, 48, W]` float32 lines (normalised as `TextRecognizer.batch_input` does) go in;
    `[N, W / 8, C]` float32 softmax probabilities come out, C the dictionary's characters plus
    the CTC blank and a space. `metadata` is the ONNX file's (its `character` dictionary).

        network = RecognitionNetwork.from_onnx(rec_path)
        recognizer = TextRecognizer(network)  # reads the dictionary from network.metadata
    """

    def __init__(self, rec: Layer) -> None:
        super().__init__()
        self.rec = rec

    @classmethod
    def from_onnx(cls, path: str) -> RecognitionNetwork:
        import framework

        return cls(framework.onnx.load(path))

    @property
    def metadata(self) -> dict[str, str]:
        return getattr(self.rec, "metadata", None) or {}

    def forward(self, x: Any) -> Any:
        return self.rec(x)
