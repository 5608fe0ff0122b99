"""`Model.fit(verbose=1)`, `evaluate` and `predict` in the NumPy-only framework wheel, where
tqdm is not installed: the progress bar becomes plain lines instead of an ImportError."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import framework
from framework import nn
from framework.io import TensorDataset


@pytest.fixture
def no_tqdm(monkeypatch):
    for name in ("tqdm", "tqdm.auto"):  # None in sys.modules: `import` raises ImportError
        monkeypatch.setitem(sys.modules, name, None)


def _model_and_data():
    framework.seed(0)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((40, 6)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.int64)
    network = nn.Linear(6, 2)
    model = framework.Model(network)
    model.prepare(
        optimizer=framework.optimizer.SGD(learning_rate=0.1, parameters=network.parameters()),
        loss=nn.CrossEntropyLoss(),
    )
    data = TensorDataset([framework.to_tensor(x), framework.to_tensor(y)])
    return model, data, x


def test_fit_verbose_1_prints_lines_without_tqdm(no_tqdm, capsys):
    model, data, _ = _model_and_data()
    model.fit(data, batch_size=8, epochs=2, verbose=1, log_freq=2)
    lines = capsys.readouterr().out.splitlines()
    steps = [line for line in lines if line.startswith("Epoch 1/2 - step")]
    # five batches an epoch, a line every second step and one for the last
    assert [line.split(" - ")[1] for line in steps] == ["step 2/5", "step 4/5", "step 5/5"]
    assert "loss:" in steps[0]
    assert any(line.startswith("Epoch 2/2 - step 5/5") for line in lines)


def test_evaluate_and_predict_without_tqdm(no_tqdm, capsys):
    model, data, x = _model_and_data()
    model.evaluate(data, batch_size=8, verbose=1)
    (out,) = model.predict(TensorDataset([framework.to_tensor(x)]), batch_size=16)
    assert np.concatenate(out).shape == (40, 2)
    printed = capsys.readouterr().out
    assert "Eval - step 5/5" in printed and "Predict - step 3/3" in printed
