"""Fine-tuning the shipped PP-OCRv4 recognizer with CTC: targets are encoded against its
dictionary, bad batches get clear errors, and ten steps on dot-matrix prints (which it reads
poorly) measurably improve its line accuracy on held-out prints."""

from __future__ import annotations

import string

import numpy as np
import pytest

from framework.vision.ocr import TextRecognizer, text_recognition_metrics
from framework.vision.ocr.rec_training import RecognizerTrainer, encode_texts
from tests.framework_tests.ocr_tests import ocr_images as images


def codes(rng: np.random.Generator, count: int) -> list[str]:
    """Part numbers and lot codes: 5 to 8 capitals and digits."""
    alphabet = list(string.ascii_uppercase + string.digits)
    return ["".join(rng.choice(alphabet, int(rng.integers(5, 9)))) for _ in range(count)]


def test_texts_are_encoded_against_the_dictionary_with_the_blank_first() -> None:
    labels, lengths = encode_texts(["ab", "b", ""], ["blank", "a", "b", " "])
    np.testing.assert_array_equal(labels, [[1, 2], [2, 0], [0, 0]])
    np.testing.assert_array_equal(lengths, [2, 1, 0])
    assert labels.dtype == np.int32 and lengths.dtype == np.int64
    with pytest.raises(ValueError, match="no class for 2 characters: 'x' 'é'"):
        encode_texts(["axé"], ["blank", "a", "b"])


@pytest.fixture
def recognizer() -> TextRecognizer:
    """A fresh copy: training changes the network in place."""
    import framework

    return TextRecognizer(framework.onnx.load(images.model_paths()["rec"]))


def test_bad_batches_are_refused_with_a_reason(recognizer) -> None:
    trainer = RecognizerTrainer(recognizer)
    crop = images.render_dot_matrix("AB12")
    with pytest.raises(ValueError, match="1 crops for 2 texts"):
        trainer.loss([crop], ["AB12", "CD34"])
    with pytest.raises(ValueError, match="longer than the 40 steps"):
        trainer.loss([crop], ["A" * 41])


def test_fine_tuning_on_dot_matrix_prints_improves_held_out_reading(recognizer) -> None:
    rng = np.random.default_rng(0)
    held_out = codes(rng, 24)
    held_crops = [images.render_dot_matrix(t) for t in held_out]

    def reading() -> tuple[float, float]:
        read = [text for text, _ in recognizer(held_crops)]
        metrics = text_recognition_metrics(read, held_out)
        return metrics.accuracy, metrics.norm_edit_distance

    accuracy_before, distance_before = reading()
    assert accuracy_before < 0.5  # the premise: the shipped weights read these poorly
    trainer = RecognizerTrainer(recognizer, learning_rate=1e-4)
    losses = []
    for _ in range(10):
        texts = codes(rng, 8)  # new codes each step: nothing held out is trained on
        losses.append(trainer.step([images.render_dot_matrix(t) for t in texts], texts))
    accuracy_after, distance_after = reading()
    assert np.isfinite(losses).all()
    assert np.mean(losses[-3:]) < np.mean(losses[:3])
    assert accuracy_after >= accuracy_before + 0.2, (accuracy_before, accuracy_after)
    assert distance_after > distance_before
