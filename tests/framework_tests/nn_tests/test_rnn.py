"""Recurrent cells and networks against NumPy references: cell steps, padded sequences in both
directions, numerical gradients (inputs, states and every parameter), double backward,
layer-to-layer dropout, parameter layout, errors, and the GPU."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.testing import check_backward, check_double_backward, numerical_grad

rng = np.random.default_rng(0)


# --- NumPy references ---------------------------------------------------------------------------
def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def params(cell) -> dict[str, np.ndarray]:
    return {name: p.numpy() for name, p in cell.named_parameters()}


def simple_ref(w, x, h, activation="tanh"):
    pre = x @ w["weight_ih"].T + w["bias_ih"] + h @ w["weight_hh"].T + w["bias_hh"]
    h = np.tanh(pre) if activation == "tanh" else np.maximum(pre, 0)
    return h, h


def lstm_ref(w, x, state):
    h, c = state
    gates = x @ w["weight_ih"].T + w["bias_ih"] + h @ w["weight_hh"].T + w["bias_hh"]
    i, f, g, o = np.split(gates, 4, axis=-1)
    c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
    h = sigmoid(o) * np.tanh(c)
    if "weight_ho" in w:
        h = h @ w["weight_ho"]
    return h, (h, c)


def gru_ref(w, x, h):
    x_r, x_z, x_c = np.split(x @ w["weight_ih"].T + w["bias_ih"], 3, axis=-1)
    h_r, h_z, h_c = np.split(h @ w["weight_hh"].T + w["bias_hh"], 3, axis=-1)
    r, z = sigmoid(x_r + h_r), sigmoid(x_z + h_z)
    c = np.tanh(x_c + r * h_c)
    h = z * h + (1 - z) * c
    return h, h


def rnn_ref(step, x, state, lengths=None, reverse=False):
    """Batch-major `x` [B, T, I]; states hold still past each sequence's length."""
    steps = x.shape[1]
    outputs = [None] * steps
    for t in reversed(range(steps)) if reverse else range(steps):
        out, new = step(x[:, t], state)
        if lengths is not None:
            live = (t < lengths)[:, None]
            if isinstance(new, tuple):
                new = tuple(np.where(live, n, o) for n, o in zip(new, state, strict=True))
            else:
                new = np.where(live, new, state)
        outputs[t], state = out, new
    return np.stack(outputs, axis=1), state


CELLS = {
    "simple_tanh": (lambda: nn.SimpleRNNCell(3, 4), simple_ref, 1),
    "simple_relu": (
        lambda: nn.SimpleRNNCell(3, 4, activation="relu"),
        lambda w, x, h: simple_ref(w, x, h, "relu"),
        1,
    ),
    "lstm": (lambda: nn.LSTMCell(3, 4), lstm_ref, 2),
    "lstm_proj": (lambda: nn.LSTMCell(3, 4, proj_size=2), lstm_ref, 2),
    "gru": (lambda: nn.GRUCell(3, 4), gru_ref, 1),
}


def random_state(cell, batch: int):
    shapes = cell.state_shape
    if isinstance(shapes[0], tuple):
        return tuple(rng.standard_normal((batch, *s)) for s in shapes)
    return rng.standard_normal((batch, *shapes))


def to_tensors(state):
    if isinstance(state, tuple):
        return tuple(framework.to_tensor(s) for s in state)
    return framework.to_tensor(state)


def flat(state) -> list[np.ndarray]:
    return [s.numpy() for s in state] if isinstance(state, tuple) else [state.numpy()]


@pytest.mark.parametrize("name", sorted(CELLS))
def test_a_cell_step_matches_numpy(name):
    make, ref, _ = CELLS[name]
    cell = make().double()
    x = rng.standard_normal((5, 3))
    state = random_state(cell, 5)
    out, new = cell(framework.to_tensor(x), to_tensors(state))
    want_out, want_new = ref(params(cell), x, state)
    np.testing.assert_allclose(out.numpy(), want_out, rtol=1e-12, atol=1e-12)
    want = list(want_new) if isinstance(want_new, tuple) else [want_new]
    for got, expected in zip(flat(new), want, strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", sorted(CELLS))
def test_a_cell_without_states_starts_from_zeros(name):
    make, ref, _ = CELLS[name]
    cell = make()
    x = rng.standard_normal((2, 3)).astype(np.float32)
    out, _ = cell(framework.to_tensor(x))
    zeros = random_state(cell, 2)
    zeros = tuple(np.zeros_like(z) for z in zeros) if isinstance(zeros, tuple) else zeros * 0
    np.testing.assert_allclose(out.numpy(), ref(params(cell), x, zeros)[0], rtol=1e-5, atol=1e-6)
    assert out.dtype == framework.float32


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("time_major", [False, True])
@pytest.mark.parametrize("name", ["lstm", "gru"])
def test_rnn_over_padded_sequences_matches_numpy(name, time_major, reverse):
    make, ref, _ = CELLS[name]
    cell = make().double()
    x = rng.standard_normal((3, 6, 3))
    lengths = np.array([6, 2, 4])
    state = random_state(cell, 3)
    layer = nn.RNN(cell, is_reverse=reverse, time_major=time_major)
    feed = framework.to_tensor(x.transpose(1, 0, 2) if time_major else x)
    out, final = layer(feed, to_tensors(state), framework.to_tensor(lengths))
    want_out, want_final = rnn_ref(lambda a, s: ref(params(cell), a, s), x, state, lengths, reverse)
    got = out.numpy().transpose(1, 0, 2) if time_major else out.numpy()
    np.testing.assert_allclose(got, want_out, rtol=1e-12, atol=1e-12)
    want = list(want_final) if isinstance(want_final, tuple) else [want_final]
    for a, b in zip(flat(final), want, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_a_network_zeroes_outputs_past_each_sequence_and_stacks_states_per_layer():
    gru = nn.GRU(3, 4, num_layers=2, direction="bidirect").double()
    x = rng.standard_normal((2, 5, 3))
    lengths = np.array([5, 3])
    out, h = gru(framework.to_tensor(x), sequence_length=framework.to_tensor(lengths))
    assert out.shape == [2, 5, 8] and h.shape == [4, 2, 4]
    np.testing.assert_array_equal(out.numpy()[1, 3:], 0.0)
    # Layer by layer by hand: forward states at even rows, backward at odd rows.
    layer_input, zero = x, np.zeros((2, 4))
    for k in range(2):
        fw, bw = gru[k].cell_fw, gru[k].cell_bw
        out_fw, h_fw = rnn_ref(
            lambda a, s, c=fw: gru_ref(params(c), a, s), layer_input, zero, lengths
        )
        out_bw, h_bw = rnn_ref(
            lambda a, s, c=bw: gru_ref(params(c), a, s), layer_input, zero, lengths, reverse=True
        )
        np.testing.assert_allclose(h.numpy()[2 * k], h_fw, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(h.numpy()[2 * k + 1], h_bw, rtol=1e-12, atol=1e-12)
        layer_input = np.concatenate([out_fw, out_bw], axis=-1)
    layer_input[1, 3:] = 0.0
    np.testing.assert_allclose(out.numpy(), layer_input, rtol=1e-12, atol=1e-12)


# --- gradients ----------------------------------------------------------------------------------
def check_parameter_gradients(layer, loss_of_layer, atol=1e-6, rtol=1e-5):
    """Every parameter's autograd gradient of a scalar loss against central differences."""
    named = [(n, p) for n, p in layer.named_parameters() if not p.stop_gradient]
    loss_of_layer().backward()
    analytic = [p.grad.numpy().copy() for _, p in named]

    def loss_value() -> float:
        with framework.no_grad():
            return float(loss_of_layer().numpy())

    numeric = numerical_grad(loss_value, [p._data for _, p in named])
    for (name, _), a, n in zip(named, analytic, numeric, strict=True):
        np.testing.assert_allclose(a, n, atol=atol, rtol=rtol, err_msg=f"gradient of {name}")


@pytest.mark.parametrize("name", sorted(CELLS))
def test_cell_gradients_match_numerical_ones(name):
    make, _, components = CELLS[name]
    cell = make().double()
    x = rng.standard_normal((2, 3))
    state = random_state(cell, 2)
    states = list(state) if components == 2 else [state]

    def step(x_t, *s):
        out, new = cell(x_t, tuple(s) if components == 2 else s[0])
        return [out, *new] if components == 2 else [out]

    check_backward(step, [x, *states])
    check_double_backward(step, [x, *states])
    weights = rng.standard_normal(cell(framework.to_tensor(x), to_tensors(state))[0].shape)
    check_parameter_gradients(
        cell, lambda: (cell(framework.to_tensor(x), to_tensors(state))[0] * weights).sum()
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda: nn.LSTM(3, 3, num_layers=2, direction="bidirect"),
        lambda: nn.GRU(3, 3, time_major=True),
        lambda: nn.LSTM(3, 3, proj_size=2),
        lambda: nn.SimpleRNN(3, 3, direction="bidirectional"),
    ],
    ids=["lstm_2_layers_bidirect", "gru_time_major", "lstm_proj", "simple_bidirect"],
)
def test_network_gradients_match_numerical_ones_on_padded_sequences(make):
    net = make().double()
    x = rng.standard_normal((3, 2, 3) if net.time_major else (2, 3, 3))
    lengths = framework.to_tensor(np.array([3, 2]))
    weights = rng.standard_normal(net(framework.to_tensor(x))[0].shape)

    def outputs(x_t):
        out, final = net(x_t, sequence_length=lengths)
        return [out, *(final if isinstance(final, tuple) else [final])]

    check_backward(outputs, [x])
    check_parameter_gradients(
        net, lambda: (net(framework.to_tensor(x), sequence_length=lengths)[0] * weights).sum()
    )


def test_gradients_reach_the_initial_states():
    lstm = nn.LSTM(3, 2, num_layers=2).double()
    x = rng.standard_normal((2, 3, 3))
    h0, c0 = rng.standard_normal((2, 2, 2)), rng.standard_normal((2, 2, 2))
    check_backward(lambda x_t, h, c: lstm(x_t, (h, c))[0], [x, h0, c0])
    # Padded and bidirectional, where Paddle's fused GRU kernel goes wrong.
    gru = nn.GRU(3, 2, direction="bidirect").double()
    lengths = framework.to_tensor(np.array([3, 1]))
    check_backward(lambda x_t, h: list(gru(x_t, h, lengths)), [x, rng.standard_normal((2, 2, 2))])


# --- dropout, layout, errors --------------------------------------------------------------------
def test_dropout_applies_between_layers_in_training_only():
    lstm = nn.LSTM(3, 4, num_layers=2, dropout=0.5)
    x = framework.to_tensor(rng.standard_normal((2, 5, 3)).astype(np.float32))
    lstm.eval()
    first, second = lstm(x)[0].numpy(), lstm(x)[0].numpy()
    np.testing.assert_array_equal(first, second)
    lstm.train()
    assert not np.allclose(lstm(x)[0].numpy(), first)
    single = nn.LSTM(3, 4, dropout=0.5)  # one layer: nothing between layers to drop
    np.testing.assert_array_equal(single(x)[0].numpy(), single.eval()(x)[0].numpy())


def test_parameters_keep_paddle_layout_and_names():
    lstm = nn.LSTM(3, 4, direction="bidirect")
    shapes = {k: v.shape for k, v in lstm.state_dict().items()}
    assert shapes["weight_ih_l0"] == [16, 3] and shapes["weight_hh_l0_reverse"] == [16, 4]
    assert shapes["0.cell_bw.bias_hh"] == [16]
    assert lstm.weight_ih_l0 is lstm[0].cell_fw.weight_ih
    assert len(lstm.parameters()) == 8
    frozen = nn.GRUCell(3, 4, bias_ih_attr=False)
    assert frozen.bias_ih.stop_gradient and not frozen.bias_ih.numpy().any()
    bound = 1 / np.sqrt(4)
    assert np.abs(nn.SimpleRNNCell(3, 4).weight_hh.numpy()).max() <= bound


def test_sequence_mask():
    mask = F.sequence_mask(framework.to_tensor(np.array([[1, 3], [0, 2]])), maxlen=4)
    assert mask.dtype == framework.int64 and mask.shape == [2, 2, 4]
    np.testing.assert_array_equal(mask.numpy()[0], [[1, 0, 0, 0], [1, 1, 1, 0]])
    assert F.sequence_mask(framework.to_tensor([2, 1])).shape == [2, 2]
    with pytest.raises(TypeError, match="integers"):
        F.sequence_mask(framework.to_tensor([1.5]))


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: nn.LSTM(3, 4, direction="both"), "direction should be forward or bidirect"),
        (lambda: nn.GRU(3, 0), "hidden_size of GRUCell must be greater than 0"),
        (lambda: nn.LSTM(3, 4, proj_size=4), "proj_size must be smaller than hidden_size"),
        (lambda: nn.SimpleRNN(3, 4, activation="gelu"), "Unknown activation"),
        (lambda: nn.SimpleRNNCell(3, 4, activation="gelu"), "tanh or relu"),
        (lambda: nn.GRU(3, 4, num_layers=0), "num_layers must be >= 1"),
        (lambda: nn.BiRNN(nn.GRUCell(3, 4), nn.GRUCell(2, 4)), "input size of the forward cell"),
    ],
)
def test_bad_configuration_is_a_clear_error(build, message):
    with pytest.raises(ValueError, match=message):
        build()


def test_bad_inputs_are_clear_errors():
    lstm = nn.LSTM(3, 4, num_layers=2)
    with pytest.raises(ValueError, match=r"expects inputs of shape \[batch_size, time_steps, 3\]"):
        lstm(framework.randn([2, 5, 7]))
    with pytest.raises(ValueError, match=r"initial states of shape .* \[2, 2, 4\]"):
        lstm(framework.randn([2, 5, 3]), (framework.zeros([1, 2, 4]), framework.zeros([2, 2, 4])))
    with pytest.raises(ValueError, match="expects 2 initial state"):
        lstm(framework.randn([2, 5, 3]), framework.zeros([2, 2, 4]))
    with pytest.raises(
        ValueError, match=r"LSTMCell\(3, 4\) expects inputs of shape \[batch_size, 3\]"
    ):
        nn.LSTMCell(3, 4)(framework.randn([2, 5]))
    with pytest.raises(TypeError, match="float64 input"):
        nn.GRU(3, 4)(framework.randn([2, 5, 3]).astype("float64"))
    with pytest.raises(ValueError, match="sequence_length has 3 entries for a batch of 2"):
        nn.RNN(nn.GRUCell(3, 4))(
            framework.randn([2, 5, 3]), sequence_length=framework.to_tensor([1, 2, 3])
        )
    with pytest.raises(ValueError, match="at least one time step"):
        nn.GRU(3, 4)(framework.randn([2, 0, 3]))


def test_a_custom_cell_runs_through_its_own_forward():
    class Accumulate(nn.RNNCellBase):
        input_size = 2

        @property
        def state_shape(self):
            return (2,)

        def forward(self, inputs, states, scale=1.0):
            new = states + inputs * scale
            return new * 10, new

    x = rng.standard_normal((3, 4, 2)).astype(np.float32)
    out, final = nn.RNN(Accumulate())(framework.to_tensor(x), scale=2.0)
    np.testing.assert_allclose(final.numpy(), 2 * x.sum(1), rtol=1e-5)
    np.testing.assert_allclose(out.numpy(), 20 * np.cumsum(x, 1), rtol=1e-5)


@pytest.mark.gpu
def test_an_lstm_on_gpu_matches_the_cpu():
    cpu = nn.LSTM(3, 4, num_layers=2, direction="bidirect")
    gpu = copy.deepcopy(cpu).to("gpu")
    x = rng.standard_normal((2, 5, 3)).astype(np.float32)
    lengths = np.array([5, 2])
    cpu_out, (cpu_h, _) = cpu(framework.to_tensor(x), sequence_length=framework.to_tensor(lengths))
    framework.set_device("gpu")
    try:
        gx = framework.to_tensor(x, stop_gradient=False)
        out, (h, _) = gpu(gx, sequence_length=framework.to_tensor(lengths))
        out.sum().backward()
    finally:
        framework.set_device("cpu")
    np.testing.assert_allclose(out.numpy(), cpu_out.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h.numpy(), cpu_h.numpy(), rtol=1e-5, atol=1e-6)
    assert gx.grad is not None and gx.grad.place.is_gpu_place()
