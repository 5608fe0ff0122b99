"""`Predictor` and `create_predictor`, as `paddle.inference`.

    predictor = create_predictor(Config("out/resnet"))
    handle = predictor.get_input_handle(predictor.get_input_names()[0])
    handle.reshape(images.shape)
    handle.copy_from_cpu(images)
    predictor.run()
    logits = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()

    logits, = predictor.run([images])           # the same, in one call

Loading reads and validates the graph, runs the configured passes once and moves the weights
to the device once. `clone()` makes a predictor that shares those (read-only) weights and the
optimised graph but has its own buffers and handles: one clone per serving thread.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any

from framework.backends.cpu import blas_threads, openmp, routing, threads
from framework.core import backend
from framework.inference.config import Config
from framework.inference.executor import Executor
from framework.inference.handle import PredictorTensor
from framework.inference.kernels.registry import PreparedWeights
from framework.inference.passes import optimize
from framework.jit.graph import Graph
from framework.jit.serialization import load_graph


class _Shared:
    """What clones share: the optimised graph with its weights already on the device, and the
    weights the kernels prepare from them (GEMM layouts, Winograd transforms)."""

    def __init__(self, config: Config) -> None:
        if config.prog_file() is None:
            raise ValueError("Config has no model: give Config(model_path) or set_model()")
        graph = load_graph(config.prog_file(), config.params_file())
        if config.passes():
            graph = optimize(graph, config.passes())
        self.place = _place(config)
        self.xp = backend.xp_for_place(self.place)
        if config.use_gpu():
            with _device(self.xp, self.place):
                graph.tensors = {
                    k: backend.to_place(v, self.place) for k, v in graph.tensors.items()
                }
        self.graph = graph
        # On the CPU the predictor shares conv chunks out over its own workers and keeps BLAS
        # single-threaded while it runs (see blas_threads), except that a single sample lends
        # BLAS the cores (see executor); on a GPU none of this applies.
        self.own_threads = not config.use_gpu() and blas_threads.available()
        cores = config.cpu_math_library_num_threads() or threads.CPU_WORKERS
        self.workers = cores if self.own_threads else 1
        # Before anything here loads OpenMP (oneDNN, MKL): its wait policy is fixed then.
        if self.own_threads and routing.wait_policy(self.workers) is routing.WaitPolicy.PASSIVE:
            openmp.wait_passively()
        self.prepared = PreparedWeights()


class Predictor:
    def __init__(self, config: Config, shared: _Shared | None = None) -> None:
        self._config = config
        self._shared = shared if shared is not None else _Shared(config)
        graph = self._shared.graph
        with _device(self._shared.xp, self._shared.place):
            self._executor = Executor(
                graph,
                self._shared.xp,
                config.memory_optim_enabled(),
                workers=self._shared.workers,
                prepared=self._shared.prepared,
            )
        self._inputs = {
            name: PredictorTensor(name, graph.values[name], self._shared.place, is_input=True)
            for name in graph.inputs
        }
        self._outputs = {
            name: PredictorTensor(name, graph.values[name], self._shared.place, is_input=False)
            for name in graph.outputs
        }
        self._lock = threading.Lock()  # one run at a time per predictor: clone() for more

    @property
    def program(self) -> Graph:
        """The optimised graph this predictor runs."""
        return self._shared.graph

    def get_input_names(self) -> list[str]:
        return list(self._inputs)

    def get_output_names(self) -> list[str]:
        return list(self._outputs)

    def get_input_handle(self, name: str) -> PredictorTensor:
        if name not in self._inputs:
            raise KeyError(f"no input named {name!r}; inputs: {list(self._inputs)}")
        return self._inputs[name]

    def get_output_handle(self, name: str) -> PredictorTensor:
        if name not in self._outputs:
            raise KeyError(f"no output named {name!r}; outputs: {list(self._outputs)}")
        return self._outputs[name]

    def run(self, inputs: list[Any] | None = None) -> Any:
        """With no argument: run on the input handles' data and fill the output handles
        (returns True). With a list of arrays (graph-input order): return the outputs as NumPy
        arrays."""
        if inputs is None:
            arrays = [handle._take() for handle in self._inputs.values()]
            results = self._execute(arrays)
            for handle, array in zip(self._outputs.values(), results, strict=True):
                handle._data = array
            return True
        if len(inputs) != len(self._inputs):
            raise ValueError(
                f"the model takes {len(self._inputs)} inputs {list(self._inputs)}, "
                f"got {len(inputs)}"
            )
        arrays = [
            handle._prepare(array)
            for handle, array in zip(self._inputs.values(), inputs, strict=True)
        ]
        return [backend.to_numpy(a) for a in self._execute(arrays)]

    def _execute(self, arrays: list[Any]) -> list[Any]:
        blas = blas_threads.single_threaded_blas() if self._shared.own_threads else _nothing()
        cores = threads.at_most(self._shared.workers)  # also for kernels borrowed from training
        with self._lock, _device(self._shared.xp, self._shared.place), blas, cores:
            return self._executor.run(arrays)

    def clone(self) -> Predictor:
        """A predictor sharing this one's weights and graph, with its own buffers and handles."""
        return Predictor(self._config, self._shared)

    def clear_intermediate_tensor(self) -> None:
        """Free the reusable buffers (they come back on the next run)."""
        self._executor.clear()

    def try_shrink_memory(self) -> int:
        self._executor.clear()
        return 0

    def __repr__(self) -> str:
        names = f"{self.get_input_names()} -> {self.get_output_names()}"
        return f"<Predictor {self.program.name}: {names}>"


def create_predictor(config: Config) -> Predictor:
    """Load the model `config` describes and prepare it to run (Paddle's entry point)."""
    return Predictor(config)


def _place(config: Config) -> backend.Place:
    if not config.use_gpu():
        return backend.CPUPlace()
    return backend._parse_device(f"gpu:{config.gpu_device_id()}")


def _device(xp: Any, place: backend.Place):
    if isinstance(place, backend.CUDAPlace):
        return xp.cuda.Device(place.device_id)
    return contextlib.nullcontext()


def _nothing():
    return contextlib.nullcontext()


__all__ = ["Predictor", "create_predictor"]
