"""Recurrent cells: SimpleRNNCell, LSTMCell and GRUCell, as in `paddle.nn`.

A cell maps one step's input `[batch_size, input_size]` and the previous state to the step's
output and the new state. Weights keep Paddle's layout and names (`weight_ih` is
`[gates * hidden_size, input_size]`, gates concatenated in Paddle's order), so Paddle and
PyTorch state dicts load unchanged.

Each cell splits its step in two: `_input_gates` (the input projection, which has no time
dependency) and `_step` (everything that needs the previous state). `framework.nn.RNN` uses
that split to project a whole sequence with one matrix product instead of one per step.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.initializer import Constant, Uniform
from framework.nn.layer.checks import array_of, check_dtype_and_device
from framework.nn.layer.layers import Layer
from framework.ops.linalg import matmul
from framework.ops.manipulation import pad, split
from framework.ops.math import tanh


def map_structure(fn, *structures):
    """Apply `fn` leafwise to equally nested lists/tuples of Tensors (states of any cell)."""
    first = structures[0]
    if isinstance(first, list | tuple):
        return type(first)(map_structure(fn, *parts) for parts in zip(*structures, strict=True))
    return fn(*structures)


def batch_filled(
    batch_ref: Tensor, batch_dim_idx: int, dims: list[int], dtype: object, value: float = 0.0
) -> Tensor:
    """`[batch, *dims]` filled with `value`, the batch size that of `batch_ref`'s axis
    `batch_dim_idx`.

    It is built by padding an empty slice of `batch_ref` rather than with `full`, so a traced
    model (`jit.save`, ONNX export) keeps the batch dimension dynamic; the values of
    `batch_ref` are never read, so a NaN in the input cannot leak into the state.
    """
    key = tuple(slice(None) if axis == batch_dim_idx else 0 for axis in range(batch_ref.ndim))
    empty = batch_ref[key].unsqueeze(-1)[:, 0:0]  # [batch, 0]
    size = math.prod(dims)
    filled = pad(empty.astype(dtype), [0, size], value=value)
    return filled if len(dims) == 1 else filled.reshape([-1, *dims])


class RNNCellBase(Layer):
    """The base class of recurrent cells, as `paddle.nn.RNNCellBase`.

    Base class of recurrent cells: `forward(inputs, states)` returns `(outputs, new_states)`.

    A subclass that defines `state_shape` (nested tuples of ints, without the batch dim) gets
    zero initial states from `get_initial_states`.

    Args:
        name_scope (str, optional): the prefix of its parameters' names. Default: None.
        dtype (str, optional): the parameters' dtype. Default: 'float32'.

    Shape:
        - inputs: `[batch, ...]`; float32 or float64.
        - states: the cell's states.
        - output: `(outputs, new_states)`.

    Examples:
        >>> import framework as paddle
        >>> class Accumulate(paddle.nn.RNNCellBase):
        ...     state_shape = (2,)
        ...     def forward(self, inputs, states=None):
        ...         states = self.get_initial_states(inputs) if states is None else states
        ...         return states + inputs, states + inputs
        ...
        >>> y, h = paddle.nn.RNN(Accumulate())(paddle.ones([1, 3, 2]))
        >>> y.tolist()
        [[[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]]
    """

    def get_initial_states(
        self,
        batch_ref: Tensor,
        shape: object = None,
        dtype: object = None,
        init_value: float = 0.0,
        batch_dim_idx: int = 0,
    ):
        """States filled with `init_value`, shaped `[batch, *shape]` for each (nested) shape,
        the batch size read from `batch_ref.shape[batch_dim_idx]` (the first tensor of a
        nested `batch_ref`)."""
        while isinstance(batch_ref, list | tuple):
            batch_ref = batch_ref[0]
        shapes = self.state_shape if shape is None else shape
        dtype = batch_ref.dtype if dtype is None else dtype

        def fill(s):
            if isinstance(s, list | tuple) and all(isinstance(d, int) for d in s):
                dims = list(s[1:]) if s and s[0] == -1 else list(s)
                return batch_filled(batch_ref, batch_dim_idx, dims, dtype, init_value)
            return type(s)(fill(part) for part in s)

        return fill(shapes)

    @property
    def state_shape(self):
        raise NotImplementedError(f"{type(self).__name__} does not define state_shape")

    def forward(self, inputs: Tensor, states=None):
        self._check_inputs(inputs, "[batch_size, {}]")
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        return self._step(self._input_gates(inputs), states)

    def _check_inputs(self, inputs: Tensor, layout: str) -> None:
        """Raise unless `inputs` has `layout`'s rank, input_size last and the weights' dtype."""
        x = array_of(self, inputs)
        if x.ndim != layout.count(",") + 1 or x.shape[-1] != self.input_size:
            raise ValueError(
                f"{type(self).__name__}({self.extra_repr()}) expects inputs of shape "
                f"{layout.format(self.input_size)}, got {list(x.shape)}"
            )
        check_dtype_and_device(self, inputs, self.weight_ih)

    def _input_gates(self, inputs: Tensor) -> Tensor:
        """`inputs @ weight_ih^T + bias_ih` over the last axis: `[..., gates * hidden_size]`."""
        return matmul(inputs, self.weight_ih, transpose_y=True) + self.bias_ih

    def _hidden_gates(self, hidden: Tensor) -> Tensor:
        return matmul(hidden, self.weight_hh, transpose_y=True) + self.bias_hh

    def _create_weights(
        self, gates: int, input_size: int, hidden_size: int, recurrent_size: int, attrs
    ) -> None:
        """Paddle's parameters: Uniform(-1/sqrt(hidden), 1/sqrt(hidden)); an attr of False
        gives a frozen constant (weights 1, biases 0), as Paddle does, so shapes and state
        dicts stay the same."""
        if hidden_size <= 0:
            raise ValueError(
                f"hidden_size of {type(self).__name__} must be greater than 0, got {hidden_size}"
            )
        std = 1.0 / math.sqrt(hidden_size)
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr = attrs
        specs = (
            ("weight_ih", (gates * hidden_size, input_size), weight_ih_attr, False),
            ("weight_hh", (gates * hidden_size, recurrent_size), weight_hh_attr, False),
            ("bias_ih", (gates * hidden_size,), bias_ih_attr, True),
            ("bias_hh", (gates * hidden_size,), bias_hh_attr, True),
        )
        for name, shape, attr, is_bias in specs:
            if attr is False:
                frozen = Constant(0.0 if is_bias else 1.0)
                param = self.create_parameter(
                    shape, None, is_bias=is_bias, default_initializer=frozen
                )
                param.stop_gradient = True
            else:
                param = self.create_parameter(
                    shape, attr, is_bias=is_bias, default_initializer=Uniform(-std, std)
                )
            setattr(self, name, param)
        self.input_size = input_size
        self.hidden_size = hidden_size

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}"


class SimpleRNNCell(RNNCellBase):
    """An Elman cell, as `paddle.nn.SimpleRNNCell`.

    Elman cell: `h_t = act(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh)`, output `h_t`.

    `weight_ih` is `[hidden_size, input_size]`, `weight_hh` `[hidden_size, hidden_size]`;
    `activation` is `'tanh'` or `'relu'`. `forward(inputs [batch, input_size], states=None)`
    returns `(h, h)`, both `[batch, hidden_size]`, in the input's float dtype.

    Args:
        input_size (int): the input's features.
        hidden_size (int): the hidden state's size.
        activation (str, optional): 'tanh' or 'relu'. Default: 'tanh'.
        weight_ih_attr (ParamAttr, optional): the input weights' attribute. Default: None.
        weight_hh_attr (ParamAttr, optional): the recurrent weights' attribute. Default: None.
        bias_ih_attr (ParamAttr|bool, optional): the input biases' attribute; False drops them.
            Default: None.
        bias_hh_attr (ParamAttr|bool, optional): the recurrent biases' attribute; False drops them.
            Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - inputs: `[batch, input_size]`; float32 or float64.
        - states: `[batch, hidden_size]`, or None for zeros.
        - output: `(h, h)`, both `[batch, hidden_size]`.

    Examples:
        >>> import framework as paddle
        >>> cell = paddle.nn.SimpleRNNCell(4, 3)
        >>> h, _ = cell(paddle.ones([2, 4]))
        >>> h.shape, cell.weight_ih.shape
        (paddle.Size([2, 3]), paddle.Size([3, 4]))
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        activation: str = "tanh",
        weight_ih_attr: object = None,
        weight_hh_attr: object = None,
        bias_ih_attr: object = None,
        bias_hh_attr: object = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        attrs = (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        self._create_weights(1, input_size, hidden_size, hidden_size, attrs)
        if activation not in ("tanh", "relu"):
            raise ValueError(
                f"activation for SimpleRNNCell should be tanh or relu, got {activation}"
            )
        self.activation = activation
        self._activation_fn = tanh if activation == "tanh" else F.relu

    def _step(self, input_gates: Tensor, states: Tensor) -> tuple[Tensor, Tensor]:
        h = self._activation_fn(input_gates + self._hidden_gates(states))
        return h, h

    @property
    def state_shape(self) -> tuple[int]:
        return (self.hidden_size,)

    def extra_repr(self) -> str:
        act = f", activation={self.activation}" if self.activation != "tanh" else ""
        return f"{self.input_size}, {self.hidden_size}{act}"


class LSTMCell(RNNCellBase):
    """A long short-term memory cell, as `paddle.nn.LSTMCell`.

    Long short-term memory cell, gates in Paddle's order i, f, g (cell), o:

        c_t = sigmoid(f) * c_{t-1} + sigmoid(i) * tanh(g);  h_t = sigmoid(o) * tanh(c_t)

    `weight_ih` is `[4 * hidden_size, input_size]`, `weight_hh`
    `[4 * hidden_size, proj_size or hidden_size]`. With `proj_size > 0` the hidden state is
    projected, `h_t = h_t @ weight_ho` (`weight_ho`: `[hidden_size, proj_size]`).
    `forward(inputs [batch, input_size], states=(h, c) or None)` returns `(h, (h, c))`, `h`
    `[batch, proj_size or hidden_size]` and `c` `[batch, hidden_size]`.

    Args:
        input_size (int): the input's features.
        hidden_size (int): the hidden state's size.
        weight_ih_attr (ParamAttr, optional): the input weights' attribute. Default: None.
        weight_hh_attr (ParamAttr, optional): the recurrent weights' attribute. Default: None.
        bias_ih_attr (ParamAttr|bool, optional): the input biases' attribute; False drops them.
            Default: None.
        bias_hh_attr (ParamAttr|bool, optional): the recurrent biases' attribute; False drops them.
            Default: None.
        proj_size (int, optional): project the hidden state to this size. Default: 0.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - inputs: `[batch, input_size]`; float32 or float64.
        - states: `(h, c)`, or None for zeros.
        - output: `(h, (h, c))`, `h` `[batch, proj_size or hidden_size]`, `c` `[batch,
          hidden_size]`.

    Examples:
        >>> import framework as paddle
        >>> cell = paddle.nn.LSTMCell(4, 3)
        >>> h, (h, c) = cell(paddle.ones([2, 4]))
        >>> h.shape, c.shape, cell.weight_ih.shape
        (paddle.Size([2, 3]), paddle.Size([2, 3]), paddle.Size([12, 4]))
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        weight_ih_attr: object = None,
        weight_hh_attr: object = None,
        bias_ih_attr: object = None,
        bias_hh_attr: object = None,
        proj_size: int = 0,
        name: str | None = None,
    ) -> None:
        super().__init__()
        if proj_size < 0:
            raise ValueError(f"proj_size of LSTMCell must be >= 0, got {proj_size}")
        if proj_size and proj_size >= hidden_size:
            raise ValueError(
                f"proj_size must be smaller than hidden_size, got {proj_size} and {hidden_size}"
            )
        attrs = (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        self._create_weights(4, input_size, hidden_size, proj_size or hidden_size, attrs)
        self.proj_size = proj_size
        if proj_size:
            std = 1.0 / math.sqrt(hidden_size)
            self.weight_ho = self.create_parameter(
                (hidden_size, proj_size), weight_hh_attr, default_initializer=Uniform(-std, std)
            )

    def _step(self, input_gates: Tensor, states: Sequence[Tensor]):
        pre_hidden, pre_cell = states
        gates = input_gates + self._hidden_gates(pre_hidden)
        i, f, g, o = split(gates, 4, axis=-1)
        c = F.sigmoid(f) * pre_cell + F.sigmoid(i) * tanh(g)
        h = F.sigmoid(o) * tanh(c)
        if self.proj_size:
            h = matmul(h, self.weight_ho)
        return h, (h, c)

    @property
    def state_shape(self) -> tuple[tuple[int], tuple[int]]:
        """`((proj_size or hidden_size,), (hidden_size,))`: the shapes of h and c."""
        return ((self.proj_size or self.hidden_size,), (self.hidden_size,))

    def extra_repr(self) -> str:
        proj = f", proj_size={self.proj_size}" if self.proj_size else ""
        return f"{self.input_size}, {self.hidden_size}{proj}"


class GRUCell(RNNCellBase):
    """A gated recurrent unit cell, as `paddle.nn.GRUCell`.

    Gated recurrent unit, gates in Paddle's order r, z, c; the reset gate applies after
    the recurrent product (as in cuDNN and PyTorch):

        h~ = tanh(x_c + r * (W_hc h_{t-1} + b_hc));  h_t = z * h_{t-1} + (1 - z) * h~

    `weight_ih` is `[3 * hidden_size, input_size]`, `weight_hh` `[3 * hidden_size,
    hidden_size]`. `forward(inputs [batch, input_size], states=None)` returns `(h, h)`, both
    `[batch, hidden_size]`.

    Args:
        input_size (int): the input's features.
        hidden_size (int): the hidden state's size.
        weight_ih_attr (ParamAttr, optional): the input weights' attribute. Default: None.
        weight_hh_attr (ParamAttr, optional): the recurrent weights' attribute. Default: None.
        bias_ih_attr (ParamAttr|bool, optional): the input biases' attribute; False drops them.
            Default: None.
        bias_hh_attr (ParamAttr|bool, optional): the recurrent biases' attribute; False drops them.
            Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - inputs: `[batch, input_size]`; float32 or float64.
        - states: `[batch, hidden_size]`, or None for zeros.
        - output: `(h, h)`, both `[batch, hidden_size]`.

    Examples:
        >>> import framework as paddle
        >>> cell = paddle.nn.GRUCell(4, 3)
        >>> h, _ = cell(paddle.ones([2, 4]))
        >>> h.shape, cell.weight_hh.shape
        (paddle.Size([2, 3]), paddle.Size([9, 3]))
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        weight_ih_attr: object = None,
        weight_hh_attr: object = None,
        bias_ih_attr: object = None,
        bias_hh_attr: object = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        attrs = (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        self._create_weights(3, input_size, hidden_size, hidden_size, attrs)

    def _step(self, input_gates: Tensor, states: Tensor) -> tuple[Tensor, Tensor]:
        x_r, x_z, x_c = split(input_gates, 3, axis=-1)
        h_r, h_z, h_c = split(self._hidden_gates(states), 3, axis=-1)
        r = F.sigmoid(x_r + h_r)
        z = F.sigmoid(x_z + h_z)
        c = tanh(x_c + r * h_c)
        h = (states - c) * z + c
        return h, h

    @property
    def state_shape(self) -> tuple[int]:
        return (self.hidden_size,)
