"""BeamSearchDecoder, dynamic_decode and F.gather_tree: a NumPy backtrace, real Paddle parity of
decoded ids, lengths and log probabilities with GRU and LSTM cells (Paddle weights loaded),
time-major output, and a plain decoder's finished tracking with impute_finished."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn

rng = np.random.default_rng(0)


def _numpy_gather_tree(ids, parents):
    out = np.empty_like(ids)
    steps, batch, beam = ids.shape
    for b in range(batch):
        for k in range(beam):
            out[-1, b, k], parent = ids[-1, b, k], parents[-1, b, k]
            for t in range(steps - 2, -1, -1):
                out[t, b, k] = ids[t, b, parent]
                parent = parents[t, b, parent]
    return out


def test_gather_tree_matches_numpy_and_paddle():
    paddle = pytest.importorskip("paddle")
    ids = rng.integers(0, 9, (5, 2, 3))
    parents = rng.integers(0, 3, (5, 2, 3))
    got = F.gather_tree(framework.to_tensor(ids), framework.to_tensor(parents))
    np.testing.assert_array_equal(got.numpy(), _numpy_gather_tree(ids, parents))
    want = paddle.nn.functional.gather_tree(paddle.to_tensor(ids), paddle.to_tensor(parents))
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]


def test_tile_beam_merge_with_batch_matches_paddle():
    paddle = pytest.importorskip("paddle")
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    got = nn.BeamSearchDecoder.tile_beam_merge_with_batch(framework.to_tensor(x), 3)
    want = paddle.nn.BeamSearchDecoder.tile_beam_merge_with_batch(paddle.to_tensor(x), 3)
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def _decoder(module, cell_name, weights=None, beam_size=3):
    emb = module.nn.Embedding(10, 6)
    cell = getattr(module.nn, cell_name)(6, 8)
    fc = module.nn.Linear(8, 10)
    if weights is not None:
        for layer, state in zip((emb, cell, fc), weights, strict=True):
            layer.set_state_dict({k: module.to_tensor(v) for k, v in state.items()})
    decoder = module.nn.BeamSearchDecoder(
        cell, start_token=0, end_token=1, beam_size=beam_size, embedding_fn=emb, output_fn=fc
    )
    return decoder, (emb, cell, fc)


@pytest.mark.parametrize("cell_name", ["GRUCell", "LSTMCell"])
@pytest.mark.parametrize("time_major", [False, True])
def test_beam_search_matches_paddle(cell_name, time_major):
    paddle = pytest.importorskip("paddle")
    paddle.seed(1)
    theirs, layers = _decoder(paddle, cell_name)
    weights = [{k: v.numpy() for k, v in layer.state_dict().items()} for layer in layers]
    ours, _ = _decoder(framework, cell_name, weights)
    h0 = rng.standard_normal((2, 8)).astype(np.float32)
    inits = {m: m.to_tensor(h0) for m in (paddle, framework)}
    if cell_name == "LSTMCell":
        c0 = rng.standard_normal((2, 8)).astype(np.float32)
        inits = {m: (m.to_tensor(h0), m.to_tensor(c0)) for m in (paddle, framework)}
    want = paddle.nn.dynamic_decode(
        theirs,
        inits=inits[paddle],
        max_step_num=6,
        output_time_major=time_major,
        return_length=True,
    )
    got = nn.dynamic_decode(
        ours,
        inits=inits[framework],
        max_step_num=6,
        output_time_major=time_major,
        return_length=True,
    )
    (ids, states, lengths), (pids, pstates, plengths) = got, want
    assert ids.shape == list(pids.shape) and str(ids.dtype).split(".")[-1] == "int64"
    np.testing.assert_array_equal(ids.numpy(), pids.numpy())
    np.testing.assert_array_equal(lengths.numpy(), plengths.numpy())
    np.testing.assert_allclose(
        states.log_probs.numpy(), pstates.log_probs.numpy(), rtol=1e-5, atol=1e-5
    )
    np.testing.assert_array_equal(states.finished.numpy(), pstates.finished.numpy())


class _CountDown(nn.decode.Decoder):
    """A plain decoder: the state counts down by one a step; a row finishes at zero."""

    def initialize(self, inits):
        return inits, inits, inits <= 0

    def step(self, time, inputs, states, **kwargs):
        next_states = states - 1
        return next_states * 10, next_states, next_states, next_states <= 0


def test_a_plain_decoder_stops_when_every_row_finishes_and_imputes_finished_states():
    start = framework.to_tensor(np.array([[1.0], [3.0]], np.float32))
    outputs, states, lengths = nn.dynamic_decode(
        _CountDown(), inits=start, impute_finished=True, return_length=True
    )
    assert outputs.shape == [2, 3, 1]  # the longest row needs 3 steps
    np.testing.assert_array_equal(lengths.numpy(), [[1], [3]])
    np.testing.assert_array_equal(states.numpy(), [[0.0], [0.0]])  # row 0 frozen at 0
    _, unfrozen = nn.dynamic_decode(_CountDown(), inits=start)
    np.testing.assert_array_equal(unfrozen.numpy(), [[-2.0], [0.0]])
    _, capped = nn.dynamic_decode(_CountDown(), inits=start * 10, max_step_num=2)
    np.testing.assert_array_equal(capped.numpy(), [[7.0], [27.0]])  # max_step_num + 1 steps
