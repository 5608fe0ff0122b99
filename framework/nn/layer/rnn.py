"""Recurrent networks: RNN and BiRNN (wrapping cells), SimpleRNN, LSTM and GRU, as in
`paddle.nn`.

Inputs are `[batch_size, time_steps, input_size]`, or `[time_steps, batch_size, input_size]`
with `time_major=True`. `sequence_length` (`[batch_size]` ints) marks padded sequences: a
state stops changing after its sequence's last step, so the final states are those of each
sequence's own last step, and the reverse direction starts at each sequence's own end.

The networks are composed from framework ops, one cell step per time step, so gradients of
any order, `jit.save` and ONNX export (unrolled over the traced length) come from the ops.
"""

from __future__ import annotations

from typing import Any

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.functional.sequence import sequence_mask
from framework.nn.layer.checks import array_of
from framework.nn.layer.container import LayerList
from framework.nn.layer.layers import Layer
from framework.nn.layer.rnn_cells import (
    GRUCell,
    LSTMCell,
    RNNCellBase,
    SimpleRNNCell,
    batch_filled,
    map_structure,
)
from framework.ops.creation import zeros
from framework.ops.manipulation import concat, stack, transpose, unbind, where

_BIDIRECTIONAL = ("bidirect", "bidirectional")


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


class RNNBase(LayerList):
    """Stacked, optionally bidirectional recurrent layers, as `paddle.nn.RNNBase`.

    Stacked, optionally bidirectional recurrent layers: the base of SimpleRNN, LSTM, GRU.

    Sublayer `k` is an `RNN` (or `BiRNN`) of layer `k`'s cell(s). As in Paddle, every
    parameter is also an attribute of the network itself (`weight_ih_l0`,
    `weight_hh_l0_reverse`, ...), so state dicts carry both spellings and Paddle's load as
    they are. States are `[num_layers * num_directions, batch, size]`, forward and backward
    interleaved per layer (0, 2, ... forward; 1, 3, ... backward).

    Args:
        mode (str): 'RNN_TANH', 'RNN_RELU', 'LSTM' or 'GRU'.
        input_size (int): the features of each step.
        hidden_size (int): the hidden state's size.
        num_layers (int, optional): stacked layers. Default: 1.
        direction (str, optional): 'forward' or 'bidirect' ('bidirectional'). Default: 'forward'.
        time_major (bool, optional): inputs are `[time, batch, ...]`. Default: False.
        dropout (float, optional): dropout between layers. Default: 0.0.
        weight_ih_attr (ParamAttr, optional): the input weights' attribute. Default: None.
        weight_hh_attr (ParamAttr, optional): the recurrent weights' attribute. Default: None.
        bias_ih_attr (ParamAttr|bool, optional): the input biases' attribute; False drops them.
            Default: None.
        bias_hh_attr (ParamAttr|bool, optional): the recurrent biases' attribute; False drops them.
            Default: None.
        proj_size (int, optional): LSTM only. Default: 0.

    Shape:
        - inputs: `[batch, time, input_size]` (`[time, batch, ...]` when `time_major`); float32 or
          float64.
        - initial_states: `[num_layers * num_directions, batch, hidden_size]`, or None for zeros.
        - sequence_length: `[batch]` int64 valid lengths, or None.
        - output: `(outputs, final_states)`, as the subclass's.

    Examples:
        >>> import framework as paddle
        >>> net = paddle.nn.RNNBase('GRU', 4, 8)
        >>> sorted(name for name, _ in net.named_parameters())[:4]
        ['bias_hh_l0', 'bias_ih_l0', 'weight_hh_l0', 'weight_ih_l0']
    """

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        direction: str = "forward",
        time_major: bool = False,
        dropout: float = 0.0,
        weight_ih_attr: object = None,
        weight_hh_attr: object = None,
        bias_ih_attr: object = None,
        bias_hh_attr: object = None,
        proj_size: int = 0,
    ) -> None:
        super().__init__()
        if direction not in ("forward", *_BIDIRECTIONAL):
            raise ValueError(
                f"direction should be forward or bidirect (or bidirectional), got {direction!r}"
            )
        if num_layers < 1:
            raise ValueError(f"num_layers must be >= 1, got {num_layers}")
        if not 0.0 <= dropout <= 1.0:
            raise ValueError(f"dropout must be in [0, 1], got {dropout}")
        if proj_size and mode != "LSTM":
            raise ValueError(f"proj_size is only for LSTM, got proj_size={proj_size} for {mode}")
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.num_directions = 2 if direction in _BIDIRECTIONAL else 1
        self.time_major = time_major
        self.dropout = dropout
        self.proj_size = proj_size
        self.state_components = 2 if mode == "LSTM" else 1
        kwargs: dict[str, Any] = {
            "weight_ih_attr": weight_ih_attr,
            "weight_hh_attr": weight_hh_attr,
            "bias_ih_attr": bias_ih_attr,
            "bias_hh_attr": bias_hh_attr,
        }
        if mode == "LSTM":
            cell_class, kwargs["proj_size"] = LSTMCell, proj_size
        elif mode == "GRU":
            cell_class = GRUCell
        else:
            cell_class, kwargs["activation"] = SimpleRNNCell, mode[len("RNN_") :].lower()
        layer_output = (proj_size or hidden_size) * self.num_directions
        for layer in range(num_layers):
            in_size = input_size if layer == 0 else layer_output
            if self.num_directions == 1:
                self.append(RNN(cell_class(in_size, hidden_size, **kwargs), False, time_major))
            else:
                cells = [cell_class(in_size, hidden_size, **kwargs) for _ in range(2)]
                self.append(BiRNN(*cells, time_major))
        self._alias_parameters(bias_ih_attr is not False, bias_hh_attr is not False)

    def _alias_parameters(self, has_bias_ih: bool, has_bias_hh: bool) -> None:
        # Paddle's naming, kept exactly so its state dicts load: four names per cell zipped
        # with parameters() in order. With proj_size (five parameters per cell) or a bias
        # attr of False (biases still exist, frozen), names and tensors drift apart in
        # Paddle too; mirroring that is what makes those checkpoints load.
        names = []
        for layer in range(self.num_layers):
            for direction in range(self.num_directions):
                suffix = "_reverse" if direction else ""
                kinds = ["weight_ih", "weight_hh"]
                kinds += ["bias_ih"] if has_bias_ih else []
                kinds += ["bias_hh"] if has_bias_hh else []
                names += [f"{kind}_l{layer}{suffix}" for kind in kinds]
        for name, param in zip(names, self.parameters(), strict=False):
            setattr(self, name, param)

    def forward(self, inputs: Tensor, initial_states=None, sequence_length: Tensor | None = None):
        x = array_of(self, inputs)
        if x.ndim != 3 or x.shape[-1] != self.input_size:
            layout = "time_steps, batch_size" if self.time_major else "batch_size, time_steps"
            raise ValueError(
                f"{type(self).__name__}({self.extra_repr()}) expects inputs of shape "
                f"[{layout}, {self.input_size}], got {list(x.shape)}"
            )
        if x.shape[0 if self.time_major else 1] == 0:
            raise ValueError(
                f"RNN needs at least one time step, got inputs of shape {list(x.shape)}"
            )
        states = self._split_states(self._initial_states(initial_states, inputs))
        final_states = []
        for index, layer in enumerate(self):
            if index > 0 and self.dropout > 0:
                inputs = F.dropout(inputs, self.dropout, training=self.training)
            inputs, final = layer(inputs, states[index], sequence_length)
            final_states.append(final)
        if sequence_length is not None:
            # Paddle's fused kernel gives zeros past each sequence's end; so do we.
            steps = inputs.shape[0 if self.time_major else 1]
            keep = sequence_mask(sequence_length, steps, dtype="bool")._data
            keep = keep.T if self.time_major else keep
            inputs = where(keep[..., None], inputs, zeros([1], inputs.dtype))
        return inputs, self._concat_states(final_states)

    def _state_sizes(self) -> list[int]:
        return [self.proj_size or self.hidden_size, self.hidden_size][: self.state_components]

    def _initial_states(self, initial_states, batch_ref: Tensor) -> list[Tensor]:
        """`[rows, batch, size]` per state component: the given ones (checked) or zeros."""
        rows = self.num_layers * self.num_directions
        batch_dim = 1 if self.time_major else 0
        batch, dtype = batch_ref.shape[batch_dim], batch_ref.dtype
        sizes = self._state_sizes()
        if initial_states is None:
            return [
                _swap_batch_time(batch_filled(batch_ref, batch_dim, [rows, size], dtype))
                for size in sizes
            ]
        states = [initial_states] if isinstance(initial_states, Tensor) else list(initial_states)
        if len(states) != self.state_components:
            raise ValueError(
                f"{type(self).__name__} expects {self.state_components} initial state "
                f"tensor(s), got {len(states)}"
            )
        for state, size in zip(states, sizes, strict=True):
            if state.shape != [rows, batch, size]:
                raise ValueError(
                    f"{type(self).__name__}({self.extra_repr()}) expects initial states of "
                    f"shape [num_layers * num_directions, batch_size, size] = "
                    f"{[rows, batch, size]}, got {state.shape}"
                )
        return states

    def _split_states(self, states: list[Tensor]) -> list:
        """`[rows, batch, size]` per component -> one cell state per layer (a pair per layer
        when bidirectional); an LSTM cell state is `(h, c)`."""
        per_cell = [unbind(s, 0) for s in states]
        cells = list(zip(*per_cell, strict=True)) if self.state_components == 2 else per_cell[0]
        if self.num_directions == 1:
            return list(cells)
        return [(cells[2 * k], cells[2 * k + 1]) for k in range(self.num_layers)]

    def _concat_states(self, final_states: list):
        cells = []
        for final in final_states:
            cells += list(final) if self.num_directions == 2 else [final]
        if self.state_components == 1:
            return stack(cells, axis=0)
        return tuple(stack([cell[i] for cell in cells], axis=0) for i in range(2))

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if self.num_directions == 2:
            text += ", direction=bidirect"
        if self.time_major:
            text += ", time_major=True"
        if self.dropout:
            text += f", dropout={self.dropout}"
        if self.proj_size:
            text += f", proj_size={self.proj_size}"
        return text


class SimpleRNN(RNNBase):
    """A multilayer Elman network, as `paddle.nn.SimpleRNN`.

    Multilayer Elman network (`activation` 'tanh' or 'relu'). `forward(inputs,
    initial_states=None, sequence_length=None)` returns outputs `[batch, time,
    num_directions * hidden_size]` and final states `[num_layers * num_directions, batch,
    hidden_size]`.

    Args:
        input_size (int): the features of each step.
        hidden_size (int): the hidden state's size.
        num_layers (int, optional): stacked layers. Default: 1.
        direction (str, optional): 'forward' or 'bidirect' ('bidirectional'). Default: 'forward'.
        time_major (bool, optional): inputs are `[time, batch, ...]`. Default: False.
        dropout (float, optional): dropout between layers. Default: 0.0.
        activation (str, optional): 'tanh' or 'relu'. Default: 'tanh'.
        weight_ih_attr (ParamAttr, optional): the input weights' attribute. Default: None.
        weight_hh_attr (ParamAttr, optional): the recurrent weights' attribute. Default: None.
        bias_ih_attr (ParamAttr|bool, optional): the input biases' attribute; False drops them.
            Default: None.
        bias_hh_attr (ParamAttr|bool, optional): the recurrent biases' attribute; False drops them.
            Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - inputs: `[batch, time, input_size]` (`[time, batch, ...]` when `time_major`); float32 or
          float64.
        - initial_states: `[num_layers * num_directions, batch, hidden_size]`, or None for zeros.
        - sequence_length: `[batch]` int64 valid lengths, or None.
        - output: `(outputs [batch, time, num_directions * hidden_size], final_states)`.

    Examples:
        >>> import framework as paddle
        >>> rnn = paddle.nn.SimpleRNN(16, 32, num_layers=2)
        >>> y, h = rnn(paddle.ones([4, 23, 16]))
        >>> y.shape, h.shape
        (paddle.Size([4, 23, 32]), paddle.Size([2, 4, 32]))
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        direction: str = "forward",
        time_major: bool = False,
        dropout: float = 0.0,
        activation: str = "tanh",
        weight_ih_attr: object = None,
        weight_hh_attr: object = None,
        bias_ih_attr: object = None,
        bias_hh_attr: object = None,
        name: str | None = None,
    ) -> None:
        if activation not in ("tanh", "relu"):
            raise ValueError(f"Unknown activation {activation!r}: use 'tanh' or 'relu'")
        self.activation = activation
        super().__init__(
            f"RNN_{activation.upper()}",
            input_size,
            hidden_size,
            num_layers,
            direction,
            time_major,
            dropout,
            weight_ih_attr,
            weight_hh_attr,
            bias_ih_attr,
            bias_hh_attr,
        )


class LSTM(RNNBase):
    """A multilayer LSTM, as `paddle.nn.LSTM`.

    Multilayer LSTM (see `LSTMCell`). `forward(inputs, initial_states=None,
    sequence_length=None)` with `initial_states=(h, c)` returns outputs `[batch, time,
    num_directions * (proj_size or hidden_size)]` and `(h, c)`, `h` `[num_layers *
    num_directions, batch, proj_size or hidden_size]` and `c` `[..., hidden_size]`.

    Args:
        input_size (int): the features of each step.
        hidden_size (int): the hidden state's size.
        num_layers (int, optional): stacked layers. Default: 1.
        direction (str, optional): 'forward' or 'bidirect' ('bidirectional'). Default: 'forward'.
        time_major (bool, optional): inputs are `[time, batch, ...]`. Default: False.
        dropout (float, optional): dropout between layers. Default: 0.0.
        weight_ih_attr (ParamAttr, optional): the input weights' attribute. Default: None.
        weight_hh_attr (ParamAttr, optional): the recurrent weights' attribute. Default: None.
        bias_ih_attr (ParamAttr|bool, optional): the input biases' attribute; False drops them.
            Default: None.
        bias_hh_attr (ParamAttr|bool, optional): the recurrent biases' attribute; False drops them.
            Default: None.
        proj_size (int, optional): project the hidden state to this size. Default: 0.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - inputs: `[batch, time, input_size]` (`[time, batch, ...]` when `time_major`); float32 or
          float64.
        - initial_states: `(h, c)`, each `[num_layers * num_directions, batch, ...]`, or None.
        - sequence_length: `[batch]` int64 valid lengths, or None.
        - output: `(outputs, (h, c))`; outputs `[batch, time, num_directions * (proj_size or
          hidden_size)]`.

    Examples:
        >>> import framework as paddle
        >>> lstm = paddle.nn.LSTM(16, 32, num_layers=2, direction='bidirect')
        >>> y, (h, c) = lstm(paddle.ones([4, 23, 16]))
        >>> y.shape, h.shape, c.shape
        (paddle.Size([4, 23, 64]), paddle.Size([4, 4, 32]), paddle.Size([4, 4, 32]))
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        direction: str = "forward",
        time_major: bool = False,
        dropout: float = 0.0,
        weight_ih_attr: object = None,
        weight_hh_attr: object = None,
        bias_ih_attr: object = None,
        bias_hh_attr: object = None,
        proj_size: int = 0,
        name: str | None = None,
    ) -> None:
        super().__init__(
            "LSTM",
            input_size,
            hidden_size,
            num_layers,
            direction,
            time_major,
            dropout,
            weight_ih_attr,
            weight_hh_attr,
            bias_ih_attr,
            bias_hh_attr,
            proj_size,
        )


class GRU(RNNBase):
    """A multilayer GRU, as `paddle.nn.GRU`.

    Multilayer GRU (see `GRUCell`). `forward(inputs, initial_states=None,
    sequence_length=None)` returns outputs `[batch, time, num_directions * hidden_size]` and
    final states `[num_layers * num_directions, batch, hidden_size]`.

    Args:
        input_size (int): the features of each step.
        hidden_size (int): the hidden state's size.
        num_layers (int, optional): stacked layers. Default: 1.
        direction (str, optional): 'forward' or 'bidirect' ('bidirectional'). Default: 'forward'.
        time_major (bool, optional): inputs are `[time, batch, ...]`. Default: False.
        dropout (float, optional): dropout between layers. Default: 0.0.
        weight_ih_attr (ParamAttr, optional): the input weights' attribute. Default: None.
        weight_hh_attr (ParamAttr, optional): the recurrent weights' attribute. Default: None.
        bias_ih_attr (ParamAttr|bool, optional): the input biases' attribute; False drops them.
            Default: None.
        bias_hh_attr (ParamAttr|bool, optional): the recurrent biases' attribute; False drops them.
            Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - inputs: `[batch, time, input_size]` (`[time, batch, ...]` when `time_major`); float32 or
          float64.
        - initial_states: `[num_layers * num_directions, batch, hidden_size]`, or None for zeros.
        - sequence_length: `[batch]` int64 valid lengths, or None.
        - output: `(outputs [batch, time, num_directions * hidden_size], final_states)`.

    Examples:
        >>> import framework as paddle
        >>> gru = paddle.nn.GRU(16, 32, num_layers=2, direction='bidirect')
        >>> y, h = gru(paddle.ones([4, 23, 16]))
        >>> y.shape, h.shape
        (paddle.Size([4, 23, 64]), paddle.Size([4, 4, 32]))
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        direction: str = "forward",
        time_major: bool = False,
        dropout: float = 0.0,
        weight_ih_attr: object = None,
        weight_hh_attr: object = None,
        bias_ih_attr: object = None,
        bias_hh_attr: object = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            "GRU",
            input_size,
            hidden_size,
            num_layers,
            direction,
            time_major,
            dropout,
            weight_ih_attr,
            weight_hh_attr,
            bias_ih_attr,
            bias_hh_attr,
        )
