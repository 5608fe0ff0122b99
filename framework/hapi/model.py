"""`framework.Model`: Paddle's high-level training API (prepare, fit, evaluate, predict).

model = framework.Model(LeNet())
model.prepare(optimizer=framework.optimizer.Adam(parameters=model.parameters()),
              loss=framework.nn.CrossEntropyLoss(),
              metrics=framework.metric.Accuracy())
model.fit(train_dataset, eval_dataset, batch_size=64, epochs=5)
model.evaluate(eval_dataset)   # {'loss': [0.07], 'acc': 0.98}
"""

from __future__ import annotations

import inspect
import os
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from framework.core.tensor import Tensor
from framework.hapi.callbacks import Callback, EarlyStopping, config_callbacks


def to_list(value: Any) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


def _as_tensor(value: Any) -> Tensor:
    # No copy: batches from the DataLoader are already fresh arrays/Tensors.
    return value if isinstance(value, Tensor) else Tensor(value)


def _to_numpy(value: Any) -> np.ndarray:
    return value.numpy() if isinstance(value, Tensor) else np.asarray(value)


def _count_forward_inputs(network: Any) -> int:
    """How many leading batch fields feed `forward` when no input specs were given."""
    parameters = inspect.signature(network.forward).parameters.values()
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    required = [p for p in parameters if p.kind in kinds and p.default is inspect.Parameter.empty]
    return max(1, len(required))


class Model:
    """Wraps a network (a `framework.nn.Layer`) with training, evaluation and prediction loops.

    `inputs` and `labels` are optional `InputSpec`s (or lists of them); without them the number
    of inputs is read from `network.forward`'s required positional arguments.
    """

    def __init__(self, network: Any, inputs: Any = None, labels: Any = None) -> None:
        self.network = network
        self._inputs = to_list(inputs)
        self._labels = to_list(labels)
        self._optimizer = None
        self._loss: Callable | None = None
        self._metrics: list = []
        self._scaler = None
        self._amp_level = "O0"
        self._amp_configs: dict[str, Any] = {}
        self._amp_custom_lists: dict[str, Any] = {}
        self._accumulate = 1
        self.stop_training = False
        self.mode = "train"

    # --- configuration --------------------------------------------------------------------------
    def prepare(
        self,
        optimizer: Any = None,
        loss: Callable | None = None,
        metrics: Any = None,
        amp_configs: str | dict | None = None,
    ) -> None:
        """Set the optimizer, the loss (a Layer or callable(outputs..., labels...)), metrics and
        AMP ('O1', 'O2' or a dict with 'level' plus GradScaler and auto_cast options)."""
        from framework.metric import Metric

        if loss is not None and not callable(loss):
            raise TypeError("loss must be a framework.nn.Layer or a callable")
        for metric in to_list(metrics):
            if not isinstance(metric, Metric):
                raise TypeError(f"{type(metric).__name__} is not a framework.metric.Metric")
        self._optimizer = optimizer
        self._loss = loss
        self._metrics = to_list(metrics)
        self._prepare_amp(amp_configs)

    def _prepare_amp(self, amp_configs: str | dict | None) -> None:
        scaler_keys = {
            "init_loss_scaling",
            "incr_ratio",
            "decr_ratio",
            "incr_every_n_steps",
            "decr_every_n_nan_or_inf",
            "use_dynamic_loss_scaling",
        }
        cast_keys = {"custom_white_list", "custom_black_list", "dtype"}
        if amp_configs is None:
            configs: dict[str, Any] = {"level": "O0"}
        elif isinstance(amp_configs, str):
            configs = {"level": amp_configs}
        else:
            configs = dict(amp_configs)
        level = configs.pop("level", "O0")
        if level not in ("O0", "O1", "O2"):
            raise ValueError(f"amp level must be 'O0', 'O1' or 'O2', got {level!r}")
        unknown = set(configs) - scaler_keys - cast_keys
        if unknown:
            raise ValueError(f"unknown amp_configs keys: {sorted(unknown)}")
        self._amp_level = level
        self._amp_configs = {k: v for k, v in configs.items() if k in scaler_keys}
        self._amp_custom_lists = {k: v for k, v in configs.items() if k in cast_keys}
        self._scaler = None
        if level == "O2" and self._optimizer is not None:
            from framework import amp

            self.network, self._optimizer = amp.decorate(
                self.network, self._optimizer, level="O2", **self._amp_dtype()
            )

    def _amp_dtype(self) -> dict[str, Any]:
        dtype = self._amp_custom_lists.get("dtype")
        return {"dtype": dtype} if dtype else {}

    def parameters(self, *args: Any, **kwargs: Any) -> list:
        return self.network.parameters(*args, **kwargs)

    # --- one batch ------------------------------------------------------------------------------
    def _forward(self, inputs: list[Tensor]):
        if self._amp_level == "O0":
            return self.network(*inputs)
        from framework import amp

        with amp.auto_cast(enable=True, level=self._amp_level, **self._amp_custom_lists):
            return self.network(*inputs)

    def _update_metrics(self, outputs: Any, labels: list[Tensor]) -> list:
        values = []
        for metric in self._metrics:
            computed = metric.compute(*(to_list(outputs) + labels))
            values.append(metric.update(*[_to_numpy(c) for c in to_list(computed)]))
        return values

    def train_batch(self, inputs: Any, labels: Any = None, update: bool = True):
        """One optimisation step; returns the losses (and metric values when there are any)."""
        if self._optimizer is None or self._loss is None:
            raise RuntimeError("call model.prepare(optimizer=..., loss=...) before training")
        self.network.train()
        self.mode = "train"
        inputs = [_as_tensor(x) for x in to_list(inputs)]
        labels = [_as_tensor(y) for y in to_list(labels)]
        outputs = self._forward(inputs)
        losses = to_list(self._loss(*(to_list(outputs) + labels)))
        final_loss = losses[0]
        for extra in losses[1:]:
            final_loss = final_loss + extra
        if self._accumulate > 1:
            final_loss = final_loss * (1.0 / self._accumulate)
        if self._amp_level != "O0":
            if self._scaler is None:
                from framework import amp

                self._scaler = amp.GradScaler(**self._amp_configs)
            self._scaler.scale(final_loss).backward()
            if update:
                self._scaler.step(self._optimizer)
                self._scaler.update()
                self._optimizer.clear_grad()
        else:
            final_loss.backward()
            if update:
                self._optimizer.step()
                self._optimizer.clear_grad()
        metrics = self._update_metrics(outputs, labels)
        loss_values = [_to_numpy(loss) for loss in losses]
        return (loss_values, metrics) if metrics else loss_values

    def eval_batch(self, inputs: Any, labels: Any = None):
        """Forward without gradients; returns losses and/or metric values."""
        from framework.core.autograd import no_grad

        self.network.eval()
        self.mode = "eval"
        inputs = [_as_tensor(x) for x in to_list(inputs)]
        labels = [_as_tensor(y) for y in to_list(labels)]
        with no_grad():
            outputs = self._forward(inputs)
            losses = to_list(self._loss(*(to_list(outputs) + labels))) if self._loss else []
        metrics = self._update_metrics(outputs, labels)
        loss_values = [_to_numpy(loss) for loss in losses]
        if self._loss and metrics:
            return loss_values, metrics
        return loss_values if self._loss else metrics

    def predict_batch(self, inputs: Any) -> list[np.ndarray]:
        from framework.core.autograd import no_grad

        self.network.eval()
        self.mode = "test"
        with no_grad():
            outputs = self._forward([_as_tensor(x) for x in to_list(inputs)])
        return [_to_numpy(o) for o in to_list(outputs)]

    # --- loops ----------------------------------------------------------------------------------
    def _loader(self, data: Any, batch_size: int, shuffle: bool, drop_last: bool, workers: int):
        from framework.io import DataLoader, Dataset, DistributedBatchSampler

        if not isinstance(data, Dataset):
            return data
        sampler = DistributedBatchSampler(
            data, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last
        )
        return DataLoader(data, batch_sampler=sampler, num_workers=workers, return_list=True)

    def _n_inputs(self) -> int:
        return len(self._inputs) if self._inputs else _count_forward_inputs(self.network)

    def fit(
        self,
        train_data: Any = None,
        eval_data: Any = None,
        batch_size: int | Sequence[int] = 1,
        epochs: int = 1,
        eval_freq: int = 1,
        log_freq: int = 10,
        save_dir: str | None = None,
        save_freq: int = 1,
        verbose: int = 2,
        drop_last: bool = False,
        shuffle: bool = True,
        num_workers: int = 0,
        callbacks: Callback | Sequence[Callback] | None = None,
        accumulate_grad_batches: int = 1,
        num_iters: int | None = None,
    ) -> None:
        """Train for `epochs` epochs, evaluating on `eval_data` every `eval_freq` epochs.

        Datasets are batched here (`batch_size` may be `[train, eval]`); DataLoaders are used as
        they are. A callback stops training early by setting `model.stop_training = True`.
        """
        if train_data is None:
            raise ValueError("fit() needs train_data")
        if isinstance(batch_size, list | tuple):
            train_batch_size, eval_batch_size = batch_size
        else:
            train_batch_size = eval_batch_size = batch_size
        train_loader = self._loader(train_data, train_batch_size, shuffle, drop_last, num_workers)
        eval_loader = (
            None
            if eval_data is None
            else self._loader(eval_data, eval_batch_size, False, False, num_workers)
        )
        self._accumulate = max(1, int(accumulate_grad_batches))
        steps = _length(train_loader)
        if num_iters is not None:
            if num_iters <= 0:
                raise ValueError("num_iters must be positive")
            if steps:
                epochs = -(-num_iters // steps)
                steps = min(steps, num_iters)
        callbacks = config_callbacks(
            callbacks,
            model=self,
            batch_size=train_batch_size,
            epochs=epochs,
            steps=steps,
            log_freq=log_freq,
            save_freq=save_freq,
            save_dir=save_dir,
            verbose=verbose,
            metrics=self._metric_names(),
        )
        if eval_loader is None and any(isinstance(c, EarlyStopping) for c in callbacks):
            warnings.warn("EarlyStopping needs eval_data to monitor", stacklevel=2)
        self.stop_training = False
        self._iterations_left = num_iters
        callbacks.on_begin("train")
        logs: dict[str, Any] = {}
        for epoch in range(epochs):
            callbacks.on_epoch_begin(epoch)
            logs = self._run_one_epoch(train_loader, callbacks, "train")
            callbacks.on_epoch_end(epoch, logs)
            if eval_loader is not None and epoch % eval_freq == 0:
                self._run_eval(eval_loader, callbacks)
            if self.stop_training or self._iterations_left == 0:
                break
        callbacks.on_end("train", logs)
        self._accumulate = 1

    def _run_eval(self, loader: Any, callbacks: Any) -> dict[str, Any]:
        callbacks.on_begin("eval", {"steps": _length(loader), "metrics": self._metric_names()})
        logs = self._run_one_epoch(loader, callbacks, "eval")
        callbacks.on_end("eval", logs)
        return logs

    def evaluate(
        self,
        eval_data: Any,
        batch_size: int = 1,
        log_freq: int = 10,
        verbose: int = 2,
        num_workers: int = 0,
        callbacks: Callback | Sequence[Callback] | None = None,
        num_iters: int | None = None,
    ) -> dict[str, Any]:
        """Loss (mean over samples) and metrics on `eval_data`: `{'loss': [..], 'acc': ..}`."""
        loader = self._loader(eval_data, batch_size, False, False, num_workers)
        callbacks = config_callbacks(
            callbacks,
            model=self,
            log_freq=log_freq,
            verbose=verbose,
            metrics=self._metric_names(),
        )
        self._iterations_left = num_iters
        logs = self._run_eval(loader, callbacks)
        return {k: v for k, v in logs.items() if k not in ("step", "batch_size")}

    def predict(
        self,
        test_data: Any,
        batch_size: int = 1,
        num_workers: int = 0,
        stack_outputs: bool = False,
        verbose: int = 1,
        callbacks: Callback | Sequence[Callback] | None = None,
    ) -> list:
        """Outputs per network output: a list of per-batch arrays, or one stacked array."""
        loader = self._loader(test_data, batch_size, False, False, num_workers)
        callbacks = config_callbacks(callbacks, model=self, verbose=verbose, mode="test")
        callbacks.on_begin("predict", {"steps": _length(loader)})
        batches: list[list[np.ndarray]] = []
        n_inputs = self._n_inputs()
        for step, data in enumerate(loader):
            callbacks.on_batch_begin("predict", step, {})
            batches.append(self.predict_batch(to_list(data)[:n_inputs]))
            callbacks.on_batch_end("predict", step, {"batch_size": len(batches[-1][0])})
        callbacks.on_end("predict", {})
        outputs = [list(per_output) for per_output in zip(*batches, strict=True)]
        if stack_outputs:
            return [np.concatenate(per_output, axis=0) for per_output in outputs]
        return outputs

    def _run_one_epoch(self, loader: Any, callbacks: Any, mode: str) -> dict[str, Any]:
        for metric in self._metrics:
            metric.reset()
        n_inputs = self._n_inputs()
        steps = _length(loader)
        loss_sums: list[float] = []
        seen = 0
        logs: dict[str, Any] = {}
        for step, data in enumerate(loader):
            data = to_list(data)
            batch_size = int(data[0].shape[0])
            callbacks.on_batch_begin(mode, step, logs)
            inputs, labels = data[:n_inputs], data[n_inputs:]
            if mode == "train":
                update = (step + 1) % self._accumulate == 0 or step + 1 == steps
                result = self.train_batch(inputs, labels, update=update)
            else:
                result = self.eval_batch(inputs, labels)
            losses, metric_values = _split_result(result, bool(self._loss), bool(self._metrics))
            if losses:
                if not loss_sums:
                    loss_sums = [0.0] * len(losses)
                for i, loss in enumerate(losses):
                    loss_sums[i] += float(np.mean(loss)) * batch_size
            seen += batch_size
            logs = {"step": step, "batch_size": batch_size}
            if losses:
                # The running mean over the epoch: steadier than the last batch's loss.
                logs["loss"] = [total / seen for total in loss_sums]
            logs.update(self._metric_logs())
            callbacks.on_batch_end(mode, step, logs)
            if self._iterations_left is not None and mode == "train":
                self._iterations_left -= 1
                if self._iterations_left == 0:
                    break
        return logs

    def _metric_logs(self) -> dict[str, Any]:
        logs: dict[str, Any] = {}
        for metric in self._metrics:
            names = to_list(metric.name())
            values = to_list(metric.accumulate())
            logs.update(zip(names, values, strict=True))
        return logs

    def _metric_names(self) -> list[str]:
        names: list[str] = []
        for metric in self._metrics:
            names.extend(to_list(metric.name()))
        return names

    # --- persistence ----------------------------------------------------------------------------
    def save(self, path: str, training: bool = True) -> None:
        """`training=True`: `path.pdparams` (+ `path.pdopt`), safetensors inside, to resume.
        `training=False`: an inference model through `framework.jit.save` (needs input specs)."""
        import framework

        directory = os.path.dirname(path)
        if directory:
            os.makedirs(directory, exist_ok=True)
        if not training:
            from framework import jit

            if not self._inputs:
                raise ValueError("save(training=False) needs Model(network, inputs=[InputSpec..])")
            jit.save(self.network, path, input_spec=self._inputs)
            return
        framework.save(self.network.state_dict(), path + ".pdparams")
        if self._optimizer is not None:
            state = self._optimizer.state_dict()
            if state:
                framework.save(state, path + ".pdopt")

    def load(self, path: str, skip_mismatch: bool = False, reset_optimizer: bool = False) -> None:
        """Load `path.pdparams` (and `path.pdopt` unless `reset_optimizer`)."""
        import framework

        params_path = path if path.endswith(".pdparams") else path + ".pdparams"
        state = framework.load(params_path)
        own = self.network.state_dict()
        matched = {}
        for key, param in own.items():
            if key not in state:
                message = f"{params_path} has no value for {key!r}"
            elif list(state[key].shape) != list(param.shape):
                message = (
                    f"{key!r} has shape {list(state[key].shape)} in {params_path} "
                    f"but {list(param.shape)} in the model"
                )
            else:
                matched[key] = state[key]
                continue
            if not skip_mismatch:
                raise ValueError(message + " (pass skip_mismatch=True to skip it)")
            warnings.warn(message + "; skipped", stacklevel=2)
        self.network.set_state_dict(matched)
        optimizer_path = params_path[: -len(".pdparams")] + ".pdopt"
        if self._optimizer is not None and not reset_optimizer and os.path.exists(optimizer_path):
            self._optimizer.set_state_dict(framework.load(optimizer_path))

    def summary(self, input_size: Any = None, dtype: Any = None) -> dict[str, int]:
        """`framework.summary` of the network; `input_size` defaults to the input specs."""
        from framework.hapi.model_summary import summary

        if input_size is None and self._inputs:
            input_size = [tuple(spec.shape) for spec in self._inputs]
        return summary(self.network, input_size, dtypes=dtype)


def _length(loader: Any) -> int | None:
    try:
        return len(loader)
    except TypeError:
        return None


def _split_result(result: Any, has_loss: bool, has_metrics: bool) -> tuple[list, list]:
    if has_loss and has_metrics:
        return result[0], result[1]
    if has_loss:
        return result, []
    return [], result
