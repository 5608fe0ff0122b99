"""The recurrent networks SimpleRNN, LSTM and GRU, as in `paddle.nn`."""

from __future__ import annotations

from framework.nn.layer.rnn.multilayer import RNNBase


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
