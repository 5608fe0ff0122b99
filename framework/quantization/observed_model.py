"""`ObservedModel`: what `PTQ.quantize` returns, the model with observers in it.

Calling it runs the float model (traced and optimised as the predictor runs it) and shows
every tensor to quantize to its observer; it returns the model's float outputs, so it can
stand in for the model in an evaluation loop. The graph is traced on the first call, from
that batch's shapes with a dynamic batch size, unless `input_spec` was given.
"""

from __future__ import annotations

import inspect
import threading
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from framework.core.backend import to_numpy
from framework.core.tensor import Tensor
from framework.inference.executor import Executor
from framework.jit.input_spec import InputSpec
from framework.jit.save_load import trace_layer
from framework.nn.layer.layers import Layer
from framework.quantization.config import QuantConfig
from framework.quantization.plan import (
    QuantizationPlan,
    build_plan,
    observe_outputs,
    prepare_graph,
)


def as_array(value: Any) -> np.ndarray:
    return np.asarray(to_numpy(getattr(value, "_data", value)))


class ObservedModel(Layer):
    """See the module docstring. `plan` describes what will be quantized (after the first
    call); `batches` counts the calibration batches seen."""

    def __init__(
        self, model: Layer, config: QuantConfig, input_spec: Sequence[Any] | None = None
    ) -> None:
        super().__init__()
        object.__setattr__(self, "_model", model)  # not a sublayer: its weights stay its own
        object.__setattr__(self, "_lock", threading.Lock())
        self._config = config
        self._plan: QuantizationPlan | None = None
        self._executor: Executor | None = None
        self.batches = 0
        if input_spec is not None:
            self._trace(list(input_spec), None)

    @property
    def source_model(self) -> Layer:
        return self._model

    @property
    def plan(self) -> QuantizationPlan:
        if self._plan is None:
            raise RuntimeError(
                "the model has not been traced yet: call it on a calibration batch (or give "
                "PTQ.quantize an input_spec)"
            )
        return self._plan

    @property
    def observers(self) -> dict:
        """Tensor name -> the observer collecting its range."""
        return self.plan.observers

    def input_count(self) -> int:
        """How many inputs the model takes (from the graph, else its forward's signature)."""
        if self._plan is not None:
            return len(self._plan.graph.inputs)
        parameters = inspect.signature(self._model.forward).parameters.values()
        kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        return max(1, sum(1 for p in parameters if p.kind in kinds and p.default is p.empty))

    def _trace(self, specs: list[Any], examples: list[Tensor] | None) -> None:
        graph = trace_layer(self._model, specs, examples)
        plan = build_plan(prepare_graph(graph), self._config, self._model)
        self._executor = Executor(plan.calibration_graph())
        self._plan = plan
        unsupported = {
            path: why for path, why in plan.report.float_layers.items() if "QuantConfig" not in why
        }
        if unsupported:
            listing = "; ".join(f"{path}: {why}" for path, why in unsupported.items())
            warnings.warn(
                f"{len(unsupported)} layers of {type(self._model).__name__} stay float ({listing})",
                stacklevel=3,
            )

    def forward(self, *inputs: Any) -> Any:
        arrays = [as_array(x) for x in inputs]
        with self._lock:
            if self._plan is None:
                specs = [InputSpec([None, *a.shape[1:]], a.dtype.name) for a in arrays]
                self._trace(specs, [Tensor(a) for a in arrays])
            plan = self._plan
            expected = len(plan.graph.inputs)
            if len(arrays) != expected:
                raise ValueError(f"the model takes {expected} inputs, got {len(arrays)}")
            arrays = [
                a.astype(plan.graph.values[name].dtype, copy=False)
                for a, name in zip(arrays, plan.graph.inputs, strict=True)
            ]
            results = self._executor.run(arrays)
            observe_outputs(plan, results)
            self.batches += 1
        outputs = [Tensor(np.array(r)) for r in results[: len(plan.graph.outputs)]]
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def extra_repr(self) -> str:
        if self._plan is None:
            return f"{type(self._model).__name__}, not traced yet"
        report = self._plan.report
        return (
            f"{type(self._model).__name__}: {len(report.quantized)} INT8 layers, "
            f"{len(self._plan.observers)} observers, {self.batches} batches seen"
        )
