"""Running a cell over time: the functions `rnn` and `birnn`, and the layers RNN and BiRNN
that wrap a cell, as in `paddle.nn`.
"""

from __future__ import annotations

from typing import Any

from framework.core.tensor import Tensor
from framework.nn.functional.sequence import sequence_mask
from framework.nn.layer.checks import array_of
from framework.nn.layer.layers import Layer
from framework.nn.layer.rnn_cells import (
    RNNCellBase,
    map_structure,
)
from framework.ops.manipulation import concat, stack, transpose, unbind, where


def _swap_batch_time(x: Tensor) -> Tensor:
    return transpose(x, [1, 0, *range(2, x.ndim)])


def rnn(
    cell: Layer,
    inputs: Tensor,
    initial_states=None,
    sequence_length: Tensor | None = None,
    time_major: bool = False,
    is_reverse: bool = False,
    **kwargs: Any,
):
    """Run `cell` over every time step of `inputs`; returns `(outputs, final_states)`.

    `outputs` is `[batch, time, cell output size]` (`[time, batch, ...]` when `time_major`),
    `final_states` has the structure of the cell's states. Steps at or past a sequence's
    `sequence_length` leave its state unchanged; their outputs are whatever the cell returns.
    """
    x = array_of("RNN", inputs)
    if x.ndim < 3:
        raise ValueError(
            "RNN expects inputs of shape [batch_size, time_steps, input_size] "
            f"([time_steps, batch_size, input_size] with time_major=True), got {list(x.shape)}"
        )
    time_steps = x.shape[0 if time_major else 1]
    if time_steps == 0:
        raise ValueError(f"RNN needs at least one time step, got inputs of shape {list(x.shape)}")
    if initial_states is None:
        initial_states = cell.get_initial_states(inputs, batch_dim_idx=1 if time_major else 0)
    if not time_major:
        inputs = _swap_batch_time(inputs)
    keep = None
    if sequence_length is not None:
        keep = sequence_mask(sequence_length, time_steps, dtype="bool")._data
        if keep.shape[0] != inputs.shape[1]:
            raise ValueError(
                f"RNN: sequence_length has {keep.shape[0]} entries for a batch of {inputs.shape[1]}"
            )
    # Our cells, used as they are, take the input projection of all steps as one product.
    if isinstance(cell, RNNCellBase) and type(cell).forward is RNNCellBase.forward and not kwargs:
        cell._check_inputs(inputs, "[time_steps, batch_size, {}]")
        steps, step = unbind(cell._input_gates(inputs), 0), cell._step
    else:
        steps, step = unbind(inputs, 0), lambda x_t, s: cell(x_t, s, **kwargs)
    states = initial_states
    outputs: list[Tensor | None] = [None] * time_steps
    for t in reversed(range(time_steps)) if is_reverse else range(time_steps):
        outputs[t], new_states = step(steps[t], states)
        if keep is not None:
            live = keep[:, t : t + 1]
            new_states = map_structure(lambda n, o, m=live: where(m, n, o), new_states, states)
        states = new_states
    return stack(outputs, axis=0 if time_major else 1), states


def birnn(
    cell_fw: Layer,
    cell_bw: Layer,
    inputs: Tensor,
    initial_states=None,
    sequence_length: Tensor | None = None,
    time_major: bool = False,
    **kwargs: Any,
):
    """Forward and reverse `rnn` over `inputs`, outputs concatenated on the last axis;
    returns `(outputs, (states_fw, states_bw))`."""
    if initial_states is None:
        states_fw = states_bw = None
    else:
        if not isinstance(initial_states, list | tuple) or len(initial_states) != 2:
            raise ValueError("BiRNN: initial_states should be a pair (forward, backward)")
        states_fw, states_bw = initial_states
    out_fw, states_fw = rnn(cell_fw, inputs, states_fw, sequence_length, time_major, **kwargs)
    out_bw, states_bw = rnn(
        cell_bw, inputs, states_bw, sequence_length, time_major, is_reverse=True, **kwargs
    )
    return concat([out_fw, out_bw], axis=-1), (states_fw, states_bw)


class RNN(Layer):
    """Run a cell over a sequence, as `paddle.nn.RNN`.

    Runs a cell over a sequence (see `rnn`): `forward(inputs, initial_states=None,
    sequence_length=None, **kwargs)` returns `(outputs, final_states)`.

    Args:
        cell (RNNCellBase): the cell run at each step.
        is_reverse (bool, optional): run from the last step. Default: False.
        time_major (bool, optional): inputs are `[time, batch, ...]`. Default: False.

    Shape:
        - inputs: `[batch, time, input_size]`; float32 or float64.
        - initial_states: the cell's states, or None for zeros.
        - sequence_length: `[batch]` int64, or None.
        - output: `(outputs [batch, time, hidden_size], final_states)`.

    Examples:
        >>> import framework as paddle
        >>> layer = paddle.nn.RNN(paddle.nn.GRUCell(16, 32))
        >>> y, h = layer(paddle.ones([4, 23, 16]))
        >>> y.shape, h.shape
        (paddle.Size([4, 23, 32]), paddle.Size([4, 32]))
    """

    def __init__(self, cell: Layer, is_reverse: bool = False, time_major: bool = False) -> None:
        super().__init__()
        self.cell = cell
        self.is_reverse = is_reverse
        self.time_major = time_major

    def forward(
        self,
        inputs: Tensor,
        initial_states=None,
        sequence_length: Tensor | None = None,
        **kwargs: Any,
    ):
        return rnn(
            self.cell,
            inputs,
            initial_states,
            sequence_length,
            self.time_major,
            self.is_reverse,
            **kwargs,
        )


class BiRNN(Layer):
    """A forward and a backward cell over one sequence, as `paddle.nn.BiRNN`.

    A forward and a reverse cell over the same sequence (see `birnn`): outputs
    `[batch, time, fw_size + bw_size]` and final states `(states_fw, states_bw)`.

    Args:
        cell_fw (RNNCellBase): the forward cell.
        cell_bw (RNNCellBase): the backward cell.
        time_major (bool, optional): inputs are `[time, batch, ...]`. Default: False.

    Shape:
        - inputs: `[batch, time, input_size]`; float32 or float64.
        - initial_states: `(states_fw, states_bw)`, or None for zeros.
        - sequence_length: `[batch]` int64, or None.
        - output: `(outputs [batch, time, fw_size + bw_size], (states_fw, states_bw))`.

    Examples:
        >>> import framework as paddle
        >>> nn = paddle.nn
        >>> layer = nn.BiRNN(nn.LSTMCell(16, 32), nn.LSTMCell(16, 32))
        >>> y, (fw, bw) = layer(paddle.ones([2, 23, 16]))
        >>> y.shape, fw[0].shape
        (paddle.Size([2, 23, 64]), paddle.Size([2, 32]))
    """

    def __init__(self, cell_fw: Layer, cell_bw: Layer, time_major: bool = False) -> None:
        super().__init__()
        if cell_fw.input_size != cell_bw.input_size:
            raise ValueError(
                f"input size of the forward cell ({cell_fw.input_size}) differs from that of "
                f"the backward cell ({cell_bw.input_size})"
            )
        self.cell_fw = cell_fw
        self.cell_bw = cell_bw
        self.time_major = time_major

    def forward(
        self,
        inputs: Tensor,
        initial_states=None,
        sequence_length: Tensor | None = None,
        **kwargs: Any,
    ):
        return birnn(
            self.cell_fw,
            self.cell_bw,
            inputs,
            initial_states,
            sequence_length,
            self.time_major,
            **kwargs,
        )
