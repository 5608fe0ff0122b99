"""`Executor`: runs a graph on raw arrays with the inference kernels.

Compiling turns each node into a prebuilt kernel call over numbered slots; running is a loop
over those steps with no autograd objects, no dict lookups and no Tensor wrappers. With a
memory plan, dead buffers go back to an arena and elementwise ops write into dying inputs.

An executor is used by one thread at a time (its arena and slots are private); make one per
thread, or `clone()` a Predictor, for concurrent requests. Weights are shared read-only.

With several workers and a batch of several samples, a graph whose every op treats the
samples independently (`batch_separable`) is run as one slice of the batch per core, each on
a single-threaded twin executor with its own arena: no synchronisation between the cores
until the outputs are joined (20% faster than sharing every op's chunks on a busy 2-core
machine, where each of ~70 per-op joins waits for a partner thread that is often not
scheduled). A single sample runs every op on the calling thread: its ops are too small to cut
into chunks for our workers, whose every hand-off wakes a sleeping thread (about 0.1 ms here).

With oneDNN installed (`framework.backends.cpu.onednn`), every convolution of a run on one thread
(a twin's slice, a one-thread predictor) runs on oneDNN's kernels with one thread, and a
single sample's on oneDNN's OpenMP team with the executor's cores. Such runs use a twin
without fused blocks (their kernels are NumPy's). Measured on 2 cores, oneDNN on / off: batch
1 CIFAR ResNet-18 4.75 / 9.4 ms, MobileNetV2 4.5 / 16.8 ms; batch 32 116 / 145 and 136 / 348.
Without oneDNN a single sample's GEMMs spread over the cores through BLAS (lent threads):
batch 1 CIFAR ResNet-18 16.5 -> 12.8 ms, ResNet-18 36.8 -> 34.9 ms, MobileNetV2 23.5 -> 21.2.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from framework.backends.cpu import blas_threads, onednn, threads
from framework.inference.arena import BufferArena
from framework.inference.kernels import KernelContext, builder_for
from framework.inference.kernels.registry import PreparedWeights, share_out
from framework.inference.passes import block_fusion
from framework.inference.passes.batch_split import batch_separable
from framework.inference.passes.memory_plan import MemoryPlan, plan_memory
from framework.jit.graph import Graph


class Executor:
    def __init__(
        self,
        graph: Graph,
        xp: Any = np,
        memory_optim: bool = True,
        precompute: bool = True,
        workers: int = 1,
        prepared: PreparedWeights | None = None,
        fuse_blocks: bool = True,
    ) -> None:
        """`precompute=False` builds kernels that derive nothing from initializer values (no
        prepared weights), for callers that pass live weights to every `run`. `workers > 1` lets
        kernels share chunks out over that many cores (the caller then keeps BLAS
        single-threaded during runs, see `blas_threads`). `prepared` holds weights the kernels
        derived from initializers, shared with the twins that run slices of a batch."""
        self.graph = graph
        self.xp = xp
        self.workers = workers
        self._options = (memory_optim, precompute)
        self._separable = workers > 1 and xp is np and batch_separable(graph)
        self._twins: list[Executor] = []
        self._prepared = PreparedWeights() if prepared is None else prepared
        if precompute and xp is np and fuse_blocks:  # kernels fused across nodes (own copy)
            graph = block_fusion.run(graph)
        self._has_fused_blocks = any(node.op_type == block_fusion.OP_TYPE for node in graph.nodes)
        # With oneDNN installed, convolutions run on it wherever a run is on one thread or on
        # one sample, on an executor without fused blocks (see `run`).
        self._use_onednn = precompute and xp is np and onednn.available()
        self._unfused_twin: Executor | None = None
        self.arena = BufferArena(xp) if memory_optim else None
        self.plan: MemoryPlan = plan_memory(graph, inplace=memory_optim)
        slots: dict[str, int] = {"": 0}
        for name in [*graph.inputs, *graph.initializers]:
            slots.setdefault(name, len(slots))
        for node in graph.nodes:
            for name in node.outputs:
                slots[name] = len(slots)
        self._template: list[Any] = [None] * len(slots)
        for name in graph.initializers:
            self._template[slots[name]] = graph.tensors[name]
        self._input_slots = [slots[name] for name in graph.inputs]
        self._initializer_slots = [slots[name] for name in graph.initializers]
        self._output_slots = [slots[name] for name in graph.outputs]
        protected = set(graph.inputs) | set(graph.initializers)
        roots = self.plan.roots
        # Outputs that are (views of) inputs or weights are copied, so callers own the result.
        self._copy_output = [roots.get(n, n) in protected for n in graph.outputs]
        self._steps = []
        for index, node in enumerate(graph.nodes):
            ctx = KernelContext(
                xp,
                self.arena,
                self.plan.inplace[index],
                [
                    graph.tensors.get(name) if precompute and name in graph.initializers else None
                    for name in node.inputs
                ],
                escapes=self.plan.escapes(index, node.outputs),
                workers=workers,
                prepared=self._prepared,
            )
            try:
                run = builder_for(node.op_type)(node, ctx)
            except Exception as error:
                error.add_note(f"while building the kernel of node {node.name} ({node.op_type})")
                raise
            release = tuple(slots[n] for n in self.plan.release_after[index])
            drop = tuple(slots[n] for n in self.plan.drop_after[index])
            ins = tuple(slots[n] for n in node.inputs)
            outs = tuple(slots[n] for n in node.outputs)
            self._steps.append((run, ins, outs, release, drop, node))

    def run(self, inputs: list[Any], initializers: list[Any] | None = None) -> list[Any]:
        """Feed `inputs` (arrays, in graph-input order) and return the output arrays.
        `initializers` (in `graph.initializers` order) replace the graph's own arrays."""
        if self._separable and inputs and len(inputs[0]) > 1:
            return self._run_split(inputs, initializers)
        one_sample = self.xp is np and _one_sample(inputs)
        if self._use_onednn and (self.workers == 1 or one_sample):
            # A single sample gives the cores to oneDNN's OpenMP team, not to BLAS (the two
            # thread pools would fight, see `onednn.cores`); one worker means one thread.
            with threads.at_most(1), onednn.cores(self.workers if one_sample else 1):
                return self._unfused()._run_steps(inputs, initializers)
        if self.workers > 1 and one_sample:
            with threads.at_most(1), blas_threads.lent_threads(self.workers):
                return self._run_steps(inputs, initializers)
        return self._run_steps(inputs, initializers)

    def _run_steps(self, inputs: list[Any], initializers: list[Any] | None) -> list[Any]:
        env = list(self._template)
        if initializers is not None:
            for slot, array in zip(self._initializer_slots, initializers, strict=True):
                env[slot] = array
        for slot, array in zip(self._input_slots, inputs, strict=True):
            env[slot] = array
        arena = self.arena
        for run, ins, outs, release, drop, node in self._steps:
            try:
                result = run(*[env[i] for i in ins])
            except Exception as error:
                error.add_note(
                    f"while running node {node.name} ({node.op_type}) of layer '{node.scope}'"
                    if node.scope
                    else f"while running node {node.name}"
                )
                raise
            if len(outs) == 1:
                # A multi-output kernel (split, unstack) with one output still returns a tuple.
                env[outs[0]] = result[0] if type(result) is tuple else result
            else:
                for slot, array in zip(outs, result, strict=True):
                    env[slot] = array
            for slot in release:
                if arena is not None:
                    arena.release(env[slot])
                env[slot] = None
            for slot in drop:
                env[slot] = None
        return [
            env[slot].copy() if copy else env[slot]
            for slot, copy in zip(self._output_slots, self._copy_output, strict=True)
        ]

    def _unfused(self) -> Executor:
        """This executor, or (when it has fused blocks, whose kernels are NumPy's) a twin
        without them, made once: oneDNN runs every convolution of that one."""
        if not self._has_fused_blocks:
            return self
        if self._unfused_twin is None:
            memory_optim, precompute = self._options
            self._unfused_twin = Executor(
                self.graph,
                self.xp,
                memory_optim,
                precompute,
                self.workers,
                self._prepared,
                fuse_blocks=False,
            )
        return self._unfused_twin

    def _run_split(self, inputs: list[Any], initializers: list[Any] | None) -> list[Any]:
        """One slice of the batch per worker, each on its own single-threaded twin."""
        n = len(inputs[0])
        if any(len(array) != n for array in inputs):
            raise ValueError(f"graph inputs disagree on the batch size: {[len(a) for a in inputs]}")
        parts = min(self.workers, n)
        while len(self._twins) < parts:
            memory_optim, precompute = self._options
            twin = Executor(
                self.graph,
                self.xp,
                memory_optim,
                precompute,
                1,
                self._prepared,
                fuse_blocks=not self._use_onednn,  # on oneDNN, one thread each (see `run`)
            )
            self._twins.append(twin)
        bounds = [n * k // parts for k in range(parts + 1)]
        results: list[Any] = [None] * parts

        def work(start: int, stop: int) -> None:
            for k in range(start, stop):
                lo, hi = bounds[k], bounds[k + 1]
                results[k] = self._twins[k].run([array[lo:hi] for array in inputs], initializers)

        share_out(work, parts, parts)
        return [
            self.xp.concatenate([part[index] for part in results])
            for index in range(len(self.graph.outputs))
        ]

    def clear(self) -> None:
        """Give the arena's buffers back (they are reallocated on the next run)."""
        if self.arena is not None:
            self.arena.clear()
        for twin in [*self._twins, *([self._unfused_twin] if self._unfused_twin else [])]:
            twin.clear()


def _one_sample(inputs: list[Any]) -> bool:
    """Whether the run is on a single sample: the first input's leading dimension is 1."""
    return bool(inputs) and getattr(inputs[0], "ndim", 0) >= 1 and inputs[0].shape[0] == 1
