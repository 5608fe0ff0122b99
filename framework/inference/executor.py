"""`Executor`: runs a graph on raw arrays with the inference kernels.

Compiling turns each node into a prebuilt kernel call over numbered slots; running is a loop
over those steps with no autograd objects, no dict lookups and no Tensor wrappers. With a
memory plan, dead buffers go back to an arena and elementwise ops write into dying inputs.

An executor is used by one thread at a time (its arena and slots are private); make one per
thread, or `clone()` a Predictor, for concurrent requests. Weights are shared read-only.

How a run spends the cores is `routing.run_plan`'s: with several workers and a batch of
several samples, a graph whose every op treats the samples independently (`batch_separable`)
runs one slice of the batch per core, each on a single-threaded twin executor with its own
arena: no synchronisation between the cores until the outputs are joined (rather than ~70
per-op joins, each waiting for a partner thread that is often not scheduled). A single sample
runs every op on the calling thread, its cores given to one team: oneDNN's, which then runs
every convolution (on a twin without fused blocks, whose kernels are NumPy's), else BLAS's
(lent threads). With oneDNN installed, a run on one thread also runs its convolutions on
oneDNN. `benchmarks/predictor.py` measures these plans.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from framework.backends.cpu import blas_threads, routing, threads
from framework.backends.cpu.onednn import library as onednn
from framework.backends.cpu.routing import RunMode
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
        self._splits = routing.splits_batches(workers, xp is np, batch_separable(graph))
        self._twins: list[Executor] = []
        self._prepared = PreparedWeights() if prepared is None else prepared
        if precompute and xp is np and fuse_blocks:  # kernels fused across nodes (own copy)
            graph = block_fusion.run(graph)
        self._has_fused_blocks = any(node.op_type == block_fusion.OP_TYPE for node in graph.nodes)
        # Where oneDNN may run, a run on one thread or one sample puts its convolutions on it,
        # on an executor without fused blocks (see `run`).
        self._use_onednn = routing.predictor_uses_onednn(precompute, xp is np, routing.live())
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
        first = inputs[0] if inputs else None
        batch = first.shape[0] if getattr(first, "ndim", 0) >= 1 else None
        plan = routing.run_plan(batch, self.workers, self._splits, self._use_onednn, self.xp is np)
        if plan.mode is RunMode.SPLIT:
            return self._run_split(inputs, initializers, plan.parts)
        if plan.mode is RunMode.ONEDNN:
            with threads.at_most(1), onednn.cores(plan.team):
                return self._unfused()._run_steps(inputs, initializers)
        if plan.mode is RunMode.LENT_BLAS:
            with threads.at_most(1), blas_threads.lent_threads(plan.team):
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

    def _run_split(self, inputs: list[Any], initializers: list[Any] | None, parts: int):
        """`parts` slices of the batch, each on its own single-threaded twin."""
        n = len(inputs[0])
        if any(len(array) != n for array in inputs):
            raise ValueError(f"graph inputs disagree on the batch size: {[len(a) for a in inputs]}")
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
