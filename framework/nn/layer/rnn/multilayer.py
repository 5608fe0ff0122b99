"""RNNBase: stacked, optionally bidirectional layers of one cell type, the base of SimpleRNN,
LSTM and GRU, as `paddle.nn.layer.rnn.RNNBase`.
"""

from __future__ import annotations

from typing import Any

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.functional.sequence import sequence_mask
from framework.nn.layer.checks import array_of
from framework.nn.layer.container import LayerList
from framework.nn.layer.rnn.loops import RNN, BiRNN, _swap_batch_time
from framework.nn.layer.rnn_cells import (
    GRUCell,
    LSTMCell,
    SimpleRNNCell,
    batch_filled,
)
from framework.ops.creation import zeros
from framework.ops.manipulation import stack, unbind, where

_BIDIRECTIONAL = ("bidirect", "bidirectional")


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
