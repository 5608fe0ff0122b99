"""Recurrent networks: RNN and BiRNN (wrapping cells), SimpleRNN, LSTM and GRU, as in
`paddle.nn`.

Inputs are `[batch_size, time_steps, input_size]`, or `[time_steps, batch_size, input_size]`
with `time_major=True`. `sequence_length` (`[batch_size]` ints) marks padded sequences: a
state stops changing after its sequence's last step, so the final states are those of each
sequence's own last step, and the reverse direction starts at each sequence's own end.

The networks are composed from framework ops, one cell step per time step, so gradients of
any order, `jit.save` and ONNX export (unrolled over the traced length) come from the ops.

This package re-exports them from its modules: `loops` (`rnn`, `birnn`, RNN, BiRNN),
`multilayer` (RNNBase) and `networks` (SimpleRNN, LSTM, GRU).
"""

from __future__ import annotations

# The names the module held before it became a package stay reachable by their old paths.
from typing import Any

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.functional.sequence import sequence_mask
from framework.nn.layer.checks import array_of
from framework.nn.layer.container import LayerList
from framework.nn.layer.layers import Layer
from framework.nn.layer.rnn.loops import RNN, BiRNN, birnn, rnn
from framework.nn.layer.rnn.multilayer import RNNBase
from framework.nn.layer.rnn.networks import GRU, LSTM, SimpleRNN
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
