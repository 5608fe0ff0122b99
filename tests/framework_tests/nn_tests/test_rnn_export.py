"""A saved LSTM/GRU model: `jit.save` traces it unrolled over the sequence length with a
dynamic batch, and `jit.load`, the predictor and onnxruntime give eager's answers."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn
from framework.inference import Config, create_predictor
from framework.jit import InputSpec

SPEC = [InputSpec([None, 6, 3], "float32", "x")]


class Tagger(nn.Layer):
    """Bidirectional two-layer LSTM, then a GRU with a one-row state, then a classifier."""

    def __init__(self) -> None:
        super().__init__()
        self.lstm = nn.LSTM(3, 4, num_layers=2, direction="bidirect")
        self.gru = nn.GRU(8, 4)
        self.head = nn.Linear(4, 5)

    def forward(self, x):
        y, (h, c) = self.lstm(x)
        z, last = self.gru(y)
        return self.head(z), h, c, last


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    model = Tagger()
    model.eval()
    path = str(tmp_path_factory.mktemp("rnn") / "tagger")
    framework.jit.save(model, path, input_spec=SPEC)
    return model, path


def eager(model, x: np.ndarray) -> list[np.ndarray]:
    with framework.no_grad():
        return [t.numpy() for t in model(framework.to_tensor(x))]


@pytest.mark.parametrize("batch", [1, 5])
def test_the_predictor_and_jit_load_give_eager_answers(saved, batch):
    model, path = saved
    predictor = create_predictor(Config(path + ".json", path + ".safetensors"))
    loaded = framework.jit.load(path)
    x = np.random.default_rng(batch).standard_normal((batch, 6, 3)).astype(np.float32)
    want = eager(model, x)
    got_loaded = [t.numpy() for t in loaded(framework.to_tensor(x))]
    for got, expected in zip(predictor.run([x]), want, strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    for got, expected in zip(got_loaded, want, strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_onnxruntime_gives_eager_answers(tmp_path):
    pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    model = Tagger()
    model.eval()
    path = framework.onnx.export(model, str(tmp_path / "tagger"), SPEC)
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    x = np.random.default_rng(0).standard_normal((3, 6, 3)).astype(np.float32)
    for got, expected in zip(session.run(None, {"x": x}), eager(model, x), strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
