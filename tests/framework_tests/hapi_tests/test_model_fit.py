"""framework.Model: fit/evaluate/predict converge on real data; save/load; train_batch."""

from __future__ import annotations

import json

import numpy as np
import pytest

import framework
from framework import nn
from framework.hapi.callbacks import EarlyStopping, MetricsLogger
from framework.vision.models import LeNet, resnet18


def prepared(network, learning_rate: float = 1e-3) -> framework.Model:
    model = framework.Model(network)
    model.prepare(
        optimizer=framework.optimizer.Adam(
            learning_rate=learning_rate, parameters=network.parameters()
        ),
        loss=nn.CrossEntropyLoss(),
        metrics=framework.metric.Accuracy(),
    )
    return model


def test_lenet_reaches_97_percent_on_digits(digits):
    train, test = digits
    framework.seed(0)
    model = prepared(LeNet())
    model.fit(train, batch_size=32, epochs=10, verbose=0)
    result = model.evaluate(test, batch_size=256, verbose=0)
    print("lenet digits accuracy", result)
    assert result["acc"] >= 0.97, result


class GrayResNet(nn.Layer):
    """resnet18 on one-channel 28x28 digits: the gray channel is repeated three times."""

    def __init__(self) -> None:
        super().__init__()
        self.net = resnet18(num_classes=10)

    def forward(self, x):
        return self.net(framework.concat([x, x, x], axis=1))


@pytest.mark.slow
def test_a_small_resnet_reaches_95_percent_on_digits(digits):
    train, test = digits
    framework.seed(0)
    model = prepared(GrayResNet())
    model.fit(train, batch_size=64, epochs=4, verbose=0)
    result = model.evaluate(test, batch_size=256, verbose=0)
    assert result["acc"] >= 0.95, result


def test_predict_stacks_outputs_in_dataset_order(digits):
    _, test = digits
    model = prepared(LeNet())
    (stacked,) = model.predict(test, batch_size=100, stack_outputs=True, verbose=0)
    assert stacked.shape == (len(test), 10)
    with framework.no_grad():
        model.network.eval()
        direct = model.network(framework.to_tensor(test.images[:5])).numpy()
    np.testing.assert_allclose(stacked[:5], direct, rtol=1e-5, atol=1e-5)


def test_save_and_load_resume_identically(tmp_path, digits):
    train, _ = digits
    framework.seed(1)
    model = prepared(LeNet())
    x, y = train.images[:32], train.labels[:32]
    model.train_batch([x], [y])
    model.save(str(tmp_path / "checkpoint"))
    after_save = model.train_batch([x], [y])

    framework.seed(2)
    restored = prepared(LeNet())
    restored.load(str(tmp_path / "checkpoint"))
    np.testing.assert_allclose(restored.train_batch([x], [y])[0], after_save[0], rtol=1e-5)


def test_load_rejects_mismatched_shapes_unless_skipped(tmp_path):
    prepared(LeNet(num_classes=10)).save(str(tmp_path / "ten"))
    other = prepared(LeNet(num_classes=3))
    with pytest.raises(ValueError, match="shape"):
        other.load(str(tmp_path / "ten"))
    with pytest.warns(UserWarning, match="skipped"):
        other.load(str(tmp_path / "ten"), skip_mismatch=True, reset_optimizer=True)


def test_early_stopping_stops_training(digits):
    train, test = digits
    model = prepared(LeNet(), learning_rate=0.0)  # no progress at all: stop after patience
    stopper = EarlyStopping(monitor="acc", mode="max", patience=1, verbose=0)
    epochs_run = []

    class Counter(framework.hapi.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            epochs_run.append(epoch)

    model.fit(train, test, batch_size=256, epochs=10, verbose=0, callbacks=[stopper, Counter()])
    assert model.stop_training and len(epochs_run) == 2


def test_metrics_logger_writes_scalars_and_histograms(tmp_path, digits):
    train, test = digits
    log = tmp_path / "metrics.jsonl"
    model = prepared(LeNet())
    logger = MetricsLogger(path=str(log), log_freq=5, histogram_freq=1)
    model.fit(train, test, batch_size=128, epochs=1, verbose=0, callbacks=[logger])
    records = [json.loads(line) for line in log.read_text().splitlines()]
    tags = {r["tag"] for r in records}
    assert {"train/loss", "train/acc", "train/lr", "eval/loss", "eval/acc"} <= tags
    histograms = [r for r in records if r["kind"] == "histogram"]
    assert any(r["tag"] == "weights/features.0.weight" for r in histograms)
    assert all(sum(r["counts"]) > 0 for r in histograms)


def test_gradient_accumulation_matches_one_big_batch(digits):
    train, _ = digits
    x, y = train.images[:64], train.labels[:64]

    def trained(accumulate: int) -> np.ndarray:
        framework.seed(3)
        network = LeNet()
        model = framework.Model(network)
        model.prepare(
            framework.optimizer.SGD(learning_rate=0.1, parameters=network.parameters()),
            nn.CrossEntropyLoss(),
        )
        data = ArrayPairs(x, y)
        model.fit(
            data,
            batch_size=64 // accumulate,
            epochs=1,
            shuffle=False,
            verbose=0,
            accumulate_grad_batches=accumulate,
        )
        return network.fc[2].weight.numpy()

    np.testing.assert_allclose(trained(1), trained(2), rtol=1e-4, atol=1e-6)


class ArrayPairs(framework.io.Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return len(self.x)


def test_train_batch_needs_prepare():
    with pytest.raises(RuntimeError, match="prepare"):
        framework.Model(LeNet()).train_batch([np.zeros((1, 1, 28, 28), np.float32)], [[0]])
