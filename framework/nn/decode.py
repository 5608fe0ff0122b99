"""Decoding, as in `paddle.nn`: the `Decoder` interface, `BeamSearchDecoder` and
`dynamic_decode` (run a decoder step by step until every sequence finishes).

Beam states are `[batch, beam, ...]`; the cell sees them merged as `[batch * beam, ...]`. Each
step scores `log softmax(logits)` plus the beam's running log probability (a finished beam can
only emit `end_token`, at no cost), keeps the `beam_size` best of `beam * vocab` per batch entry
and reorders the cell states, finished flags and lengths after the beams they extend.
`finalize` backtraces the choices with `gather_tree`. Eager only (a Python loop).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.extension import gather_tree
from framework.nn.functional.softmax import log_softmax
from framework.ops.manipulation import index_select, stack, transpose, where


def map_structure(fn: Callable, *structures):
    """`fn` leafwise over equally nested lists, tuples and namedtuples of Tensors."""
    first = structures[0]
    if isinstance(first, list | tuple):
        parts = [map_structure(fn, *items) for items in zip(*structures, strict=True)]
        return type(first)(*parts) if hasattr(first, "_fields") else type(first)(parts)
    return fn(*structures)


def _first_leaf(structure) -> Tensor:
    while isinstance(structure, list | tuple):
        structure = structure[0]
    return structure


class Decoder:
    """The interface `dynamic_decode` drives: `initialize(inits)` -> `(inputs, states,
    finished)`, `step(time, inputs, states, **kwargs)` -> `(outputs, next_states, next_inputs,
    finished)`, and optionally `finalize(outputs, final_states, sequence_lengths)`."""

    def initialize(self, inits):
        raise NotImplementedError

    def step(self, time, inputs, states, **kwargs):
        raise NotImplementedError

    def finalize(self, outputs, final_states, sequence_lengths):
        raise NotImplementedError

    @property
    def tracks_own_finished(self) -> bool:
        return False


class BeamSearchDecoder(Decoder):
    """Beam search over an RNN cell, as `paddle.nn.BeamSearchDecoder`.

    Beam search over an RNN cell: `cell(inputs, states) -> (outputs, next_states)`, with
    `embedding_fn` mapping token ids to the cell's inputs and `output_fn` mapping its outputs to
    `[.., vocab]` logits.

    Args:
        cell (RNNCellBase): `cell(inputs, states) -> (outputs, next_states)`.
        start_token (int): the id every beam starts from.
        end_token (int): the id that finishes a beam.
        beam_size (int): beams kept per sequence.
        embedding_fn (callable, optional): token ids `[batch * beam]` (int64) to the cell's inputs.
            Default: None.
        output_fn (callable, optional): the cell's outputs to `[batch * beam, vocab]` logits.
            Default: None.

    Returns:
        Decoder: for `dynamic_decode`, which returns ids `[batch, time, beam]` int64.

    Examples:
        >>> import framework as paddle
        >>> _ = paddle.seed(1)
        >>> nn = paddle.nn
        >>> cell, embed = nn.GRUCell(8, 16), nn.Embedding(20, 8)
        >>> head = nn.Linear(16, 20)
        >>> decoder = nn.BeamSearchDecoder(
        ...     cell, start_token=0, end_token=1, beam_size=4, embedding_fn=embed, output_fn=head
        ... )
        >>> h0 = paddle.zeros([2, 16])  # the encoder's states for 2 sequences
        >>> ids, states = nn.dynamic_decode(decoder, inits=h0, max_step_num=5)
        >>> ids.shape[0], ids.shape[2], ids.dtype == paddle.int64
        (2, 4, True)
    """

    class OutputWrapper(NamedTuple):
        scores: Tensor
        predicted_ids: Tensor
        parent_ids: Tensor

    class StateWrapper(NamedTuple):
        cell_states: Any
        log_probs: Tensor
        finished: Tensor
        lengths: Tensor

    def __init__(
        self,
        cell: Callable,
        start_token: int,
        end_token: int,
        beam_size: int,
        embedding_fn: Callable | None = None,
        output_fn: Callable | None = None,
    ) -> None:
        self.cell = cell
        self.embedding_fn = embedding_fn
        self.output_fn = output_fn
        self.start_token = start_token
        self.end_token = end_token
        self.beam_size = beam_size
        self.kinf = 1e9

    @staticmethod
    def tile_beam_merge_with_batch(x: Tensor, beam_size: int) -> Tensor:
        """`[batch, ...]` -> `[batch * beam_size, ...]`, each entry repeated beam_size times."""
        tiled = x.unsqueeze(1).tile([1, beam_size] + [1] * (x.ndim - 1))
        return tiled.reshape([-1, *x.shape[1:]])

    def _split_batch_beams(self, x: Tensor) -> Tensor:
        return x.reshape([-1, self.beam_size, *x.shape[1:]])

    def _merge_batch_beams(self, x: Tensor) -> Tensor:
        return x.reshape([-1, *x.shape[2:]])

    def _expand_to_beam_size(self, x: Tensor) -> Tensor:
        return x.unsqueeze(1).tile([1, self.beam_size] + [1] * (x.ndim - 1))

    def _gather(self, x: Tensor, indices: Tensor) -> Tensor:
        """`x[b, indices[b, k]]`: x `[batch, width, ...]`, indices `[batch, k]` int64."""
        batch, width = x.shape[0], x.shape[1]
        xp = get_array_module(indices._data)
        rows = xp.arange(batch, dtype=np.int64)[:, None] * width
        flat = Tensor._wrap((rows + indices._data).reshape(-1))
        picked = index_select(x.reshape([batch * width, *x.shape[2:]]), flat, axis=0)
        return picked.reshape([batch, indices.shape[1], *x.shape[2:]])

    def _log_prob_dtype(self) -> str:
        from framework import get_default_dtype

        return "float64" if get_default_dtype() == "float64" else "float32"

    def initialize(self, initial_cell_states) -> tuple[Any, StateWrapper, Tensor]:
        """Tile the cell states to the beams; every beam starts with `start_token`, only beam
        0 alive (the others at log probability -1e9)."""
        reference = _first_leaf(initial_cell_states)
        xp = get_array_module(reference._data)
        batch = reference.shape[0]
        cell_states = map_structure(self._expand_to_beam_size, initial_cell_states)
        inputs = Tensor._wrap(xp.full((batch, self.beam_size), self.start_token, np.int64))
        first = np.array([[0.0] + [-self.kinf] * (self.beam_size - 1)], self._log_prob_dtype())
        log_probs = Tensor._wrap(xp.asarray(np.repeat(first, batch, axis=0)))
        finished = Tensor._wrap(xp.zeros((batch, self.beam_size), bool))
        lengths = Tensor._wrap(xp.zeros((batch, self.beam_size), np.int64))
        if self.embedding_fn is not None:
            inputs = self.embedding_fn(inputs)
        return inputs, self.StateWrapper(cell_states, log_probs, finished, lengths), finished

    def _beam_search_step(self, logits: Tensor, next_cell_states, beam_state: StateWrapper):
        vocab = logits.shape[-1]
        xp = get_array_module(logits._data)
        step_log_probs = log_softmax(logits, axis=-1)
        only_end = np.full(vocab, -self.kinf, self._log_prob_dtype())
        only_end[self.end_token] = 0.0
        only_end = Tensor._wrap(xp.asarray(only_end.astype(step_log_probs.dtype)))
        step_log_probs = where(beam_state.finished.unsqueeze(2), only_end, step_log_probs)
        log_probs = step_log_probs + beam_state.log_probs.unsqueeze(2)
        scores = log_probs.reshape([-1, self.beam_size * vocab])
        top_scores, top_indices = scores.topk(self.beam_size)
        beam_indices = top_indices // vocab
        token_indices = top_indices % vocab
        next_log_probs = self._gather(scores, top_indices)
        next_cell_states = map_structure(lambda s: self._gather(s, beam_indices), next_cell_states)
        next_finished = self._gather(beam_state.finished, beam_indices)
        next_lengths = self._gather(beam_state.lengths, beam_indices)
        next_lengths = next_lengths + (~next_finished).astype(next_lengths.dtype)
        next_finished = next_finished | (token_indices == self.end_token)
        output = self.OutputWrapper(top_scores, token_indices, beam_indices)
        state = self.StateWrapper(next_cell_states, next_log_probs, next_finished, next_lengths)
        return output, state

    def step(self, time: Tensor, inputs, states: StateWrapper, **kwargs: Any):
        """One beam search step: `(outputs, next_states, next_inputs, finished)`."""
        cell_inputs = map_structure(self._merge_batch_beams, inputs)
        cell_states = map_structure(self._merge_batch_beams, states.cell_states)
        cell_outputs, next_cell_states = self.cell(cell_inputs, cell_states, **kwargs)
        cell_outputs = map_structure(self._split_batch_beams, cell_outputs)
        next_cell_states = map_structure(self._split_batch_beams, next_cell_states)
        if self.output_fn is not None:
            cell_outputs = self.output_fn(cell_outputs)
        output, state = self._beam_search_step(cell_outputs, next_cell_states, states)
        sample_ids = output.predicted_ids
        next_inputs = self.embedding_fn(sample_ids) if self.embedding_fn else sample_ids
        return output, state, next_inputs, state.finished

    def finalize(self, outputs: OutputWrapper, final_states: StateWrapper, sequence_lengths):
        """The full sequences `[time, batch, beam]`, backtraced through the parents."""
        ids = gather_tree(outputs.predicted_ids, outputs.parent_ids)
        return ids.astype(outputs.predicted_ids.dtype), final_states

    @property
    def tracks_own_finished(self) -> bool:
        return True  # beams are reordered each step, so their finished flags move with them


def _keep_finished(state: Tensor, new_state: Tensor, finished: Tensor) -> Tensor:
    mask = finished.reshape([finished.shape[0]] + [1] * (state.ndim - 1))
    return where(mask, state, new_state)


def dynamic_decode(
    decoder: Decoder,
    inits=None,
    max_step_num: int | None = None,
    output_time_major: bool = False,
    impute_finished: bool = False,
    is_test: bool = False,
    return_length: bool = False,
    **kwargs: Any,
):
    """Run a decoder step by step, as `paddle.nn.dynamic_decode`.

    Run `decoder` from `decoder.initialize(inits)` until every sequence has finished or
    `max_step_num` steps have run (`max_step_num + 1` steps at most, as Paddle). Returns
    `(outputs, final_states)` (and `sequence_lengths` with `return_length`); outputs stack every
    step, `[batch, time, ...]` unless `output_time_major`. `impute_finished` keeps a finished
    sequence's states frozen (decoders that do not track their own finished flags).

    Args:
        decoder (Decoder): e.g. a `BeamSearchDecoder`.
        inits (Tensor|list, optional): the decoder's initial states, e.g. `[batch, hidden]`.
            Default: None.
        max_step_num (int, optional): the most steps (plus one, as Paddle); None runs until all
            finish. Default: None.
        output_time_major (bool, optional): outputs `[time, batch, ...]`. Default: False.
        impute_finished (bool, optional): freeze finished sequences' states. Default: False.
        is_test (bool, optional): accepted for Paddle compatibility. Default: False.
        return_length (bool, optional): also return the `[batch]` int64 lengths. Default: False.

    Returns:
        tuple: `(outputs, final_states)`, outputs `[batch, time, ...]` (int64 ids for beam search),
        and with `return_length` the lengths (`[batch, beam]` for beam search).

    Examples:
        >>> import framework as paddle
        >>> _ = paddle.seed(1)
        >>> nn = paddle.nn
        >>> cell, embed = nn.GRUCell(8, 16), nn.Embedding(20, 8)
        >>> head = nn.Linear(16, 20)
        >>> decoder = nn.BeamSearchDecoder(
        ...     cell, start_token=0, end_token=1, beam_size=4, embedding_fn=embed, output_fn=head
        ... )
        >>> h0 = paddle.zeros([2, 16])  # the encoder's states for 2 sequences
        >>> out = nn.dynamic_decode(decoder, inits=h0, max_step_num=5, return_length=True)
        >>> ids, states, lengths = out
        >>> ids.shape[0], lengths.shape
        (2, paddle.Size([2, 4]))
    """
    inputs, states, finished = decoder.initialize(inits)
    sequence_lengths = finished.astype("int64") * 0
    collected = None
    step = 0
    while not bool(finished.all()):
        time = Tensor._wrap(np.array([step], np.int64))
        outputs, next_states, next_inputs, next_finished = decoder.step(
            time, inputs, states, **kwargs
        )
        if not decoder.tracks_own_finished:
            next_finished = next_finished | finished
            next_lengths = sequence_lengths + (~finished).astype(sequence_lengths.dtype)
            if impute_finished:
                next_states = map_structure(
                    lambda old, new, done=finished: _keep_finished(old, new, done),
                    states,
                    next_states,
                )
        else:
            if not hasattr(next_states, "lengths"):
                warnings.warn(
                    "`next_states` has no `lengths` attribute, the returned `sequence_lengths` "
                    "would be all zeros.",
                    stacklevel=2,
                )
            next_lengths = getattr(next_states, "lengths", sequence_lengths)
        if collected is None:
            collected = map_structure(lambda x: [x], outputs)
        else:
            map_structure(lambda x, bucket: bucket.append(x), outputs, collected)
        inputs, states, finished, sequence_lengths = (
            next_inputs,
            next_states,
            next_finished,
            next_lengths,
        )
        step += 1
        if max_step_num is not None and step > max_step_num:
            break
    final_outputs = _stack_steps(collected, outputs)
    final_states = states
    try:
        final_outputs, final_states = decoder.finalize(
            final_outputs, final_states, sequence_lengths
        )
    except NotImplementedError:
        pass
    if not output_time_major:
        final_outputs = map_structure(
            lambda x: transpose(x, [1, 0, *range(2, x.ndim)]), final_outputs
        )
    if return_length:
        return final_outputs, final_states, sequence_lengths
    return final_outputs, final_states


def _stack_steps(collected, template):
    """Stack the per-step lists, keeping the outputs' (named)tuple structure."""
    if isinstance(template, list | tuple):
        parts = [_stack_steps(c, t) for c, t in zip(collected, template, strict=True)]
        return type(template)(*parts) if hasattr(template, "_fields") else type(template)(parts)
    return stack(collected, axis=0)
