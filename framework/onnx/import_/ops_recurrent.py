"""ONNX recurrent ops (RNN, GRU, LSTM) unrolled over time on the framework's ops.

The loop runs in Python, one step per time step, so an imported recurrent model trains like
any other. `sequence_lens` is honoured by masking: a step past a sequence's end leaves its
state alone and writes zeros to `Y`, which is also what makes the reverse direction start
at each sequence's own last element.
"""

from __future__ import annotations

import framework
import framework.nn.functional as F
from framework.onnx.import_.registry import array_op, imports, text_attr, text_attrs

_ACTIVATIONS = {
    "Sigmoid": lambda x, a, b: F.sigmoid(x),
    "Tanh": lambda x, a, b: framework.tanh(x),
    "Relu": lambda x, a, b: F.relu(x),
    "HardSigmoid": lambda x, a, b: F.hardsigmoid(
        x, slope=0.2 if a is None else a, offset=0.5 if b is None else b
    ),
    "LeakyRelu": lambda x, a, b: F.leaky_relu(x, 0.01 if a is None else a),
    "Elu": lambda x, a, b: F.elu(x, 1.0 if a is None else a),
    "Softsign": lambda x, a, b: F.softsign(x),
    "Softplus": lambda x, a, b: F.softplus(x),
    "ScaledTanh": lambda x, a, b: (
        (1.0 if a is None else a) * framework.tanh((1.0 if b is None else b) * x)
    ),
    "Affine": lambda x, a, b: (1.0 if a is None else a) * x + (0.0 if b is None else b),
}
_DEFAULTS = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}
_GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}


def _recurrent_check(node, opset) -> str | None:
    for name in text_attrs(node, "activations"):
        if name not in _ACTIVATIONS:
            return f"{node.op_type}(activations={name})"
    if node.op_type == "LSTM" and node.attrs.get("input_forget", 0):
        return "LSTM(input_forget=1)"
    return None


def _activations(node, directions: int) -> list[list]:
    """Per direction, the activation callables in ONNX's order (f, g[, h])."""
    names = text_attrs(node, "activations")
    per = len(_DEFAULTS[node.op_type])
    names = names or _DEFAULTS[node.op_type] * directions
    if len(names) == per and directions == 2:
        names = names * 2
    alphas = list(node.attrs.get("activation_alpha", []))
    betas = list(node.attrs.get("activation_beta", []))
    chosen = []
    for k, name in enumerate(names):
        alpha = alphas[k] if k < len(alphas) else None
        beta = betas[k] if k < len(betas) else None
        chosen.append(lambda x, f=_ACTIVATIONS[name], a=alpha, b=beta: f(x, a, b))
    return [chosen[d * per : (d + 1) * per] for d in range(directions)]


@imports("RNN", "GRU", "LSTM", weights=(1, 2, 3, 7), check=_recurrent_check)
def _recurrent(ctx, node, args):
    op = node.op_type
    x, w, r, b, lens, h0, c0, peep = (list(args) + [None] * 8)[:8]
    batch_first = bool(node.attrs.get("layout", 0))
    if batch_first:  # [B, T, I] -> [T, B, I]
        x = framework.transpose(x, [1, 0, 2])
        h0 = None if h0 is None else framework.transpose(h0, [1, 0, 2])
        c0 = None if c0 is None else framework.transpose(c0, [1, 0, 2])
    steps, batch = x.shape[0], x.shape[1]
    hidden = int(node.attrs.get("hidden_size", r.shape[-1]))
    direction = text_attr(node, "direction", "forward")
    directions = 2 if direction == "bidirectional" else 1
    clip = node.attrs.get("clip")
    acts = _activations(node, directions)
    gates = _GATES[op]
    step = {"RNN": _rnn_step, "GRU": _gru_step, "LSTM": _lstm_step}[op]

    ys, last_h, last_c = [], [], []
    for d in range(directions):
        reverse = direction == "reverse" or d == 1
        wd, rd = w[d], r[d]
        bias_w = bias_r = None
        if b is not None:
            bias_w, bias_r = b[d][: gates * hidden], b[d][gates * hidden :]
        h = h0[d] if h0 is not None else framework.zeros([batch, hidden], x.dtype)
        c = None
        if op == "LSTM":
            c = c0[d] if c0 is not None else framework.zeros([batch, hidden], x.dtype)
        # The input projections of all steps at once; only the recurrence is sequential.
        projected = framework.matmul(x, wd, transpose_y=True)
        if bias_w is not None:
            projected = projected + bias_w
        outputs = [None] * steps
        order = range(steps - 1, -1, -1) if reverse else range(steps)
        for t in order:
            new_h, new_c = step(
                node, projected[t], h, c, rd, bias_r, peep, d, hidden, acts[d], clip
            )
            if lens is not None:
                running = array_op(lambda xp, n, t=t: (t < n).reshape(-1, 1), lens)
                outputs[t] = framework.where(running, new_h, framework.zeros_like(new_h))
                h = framework.where(running, new_h, h)
                c = None if c is None else framework.where(running, new_c, c)
            else:
                outputs[t] = h = new_h
                c = new_c
        ys.append(framework.stack(outputs, axis=0))  # [T, B, H]
        last_h.append(h)
        last_c.append(c)

    y = framework.stack(ys, axis=1)  # [T, D, B, H]
    y_h = framework.stack(last_h, axis=0)  # [D, B, H]
    y_c = framework.stack(last_c, axis=0) if op == "LSTM" else None
    if batch_first:
        y = framework.transpose(y, [2, 0, 1, 3])  # [B, T, D, H]
        y_h = framework.transpose(y_h, [1, 0, 2])
        y_c = None if y_c is None else framework.transpose(y_c, [1, 0, 2])
    results = (y, y_h) if op != "LSTM" else (y, y_h, y_c)
    return results[: len(node.outputs)]


def _clipped(x, clip):
    return x if clip is None else framework.clip(x, -float(clip), float(clip))


def _recur(h, r, bias):
    out = framework.matmul(h, r, transpose_y=True)
    return out if bias is None else out + bias


def _rnn_step(node, xw, h, c, r, bias_r, peep, d, hidden, acts, clip):
    (f,) = acts
    return f(_clipped(xw + _recur(h, r, bias_r), clip)), None


def _gru_step(node, xw, h, c, r, bias_r, peep, d, hidden, acts, clip):
    f, g = acts
    xz, xr, xh = xw[:, :hidden], xw[:, hidden : 2 * hidden], xw[:, 2 * hidden :]
    rz, rr, rh = r[:hidden], r[hidden : 2 * hidden], r[2 * hidden :]
    bz = br = bh = None
    if bias_r is not None:
        bz, br, bh = bias_r[:hidden], bias_r[hidden : 2 * hidden], bias_r[2 * hidden :]
    z = f(_clipped(xz + _recur(h, rz, bz), clip))
    reset = f(_clipped(xr + _recur(h, rr, br), clip))
    if node.attrs.get("linear_before_reset", 0):
        candidate = g(_clipped(xh + reset * _recur(h, rh, bh), clip))
    else:
        candidate = g(_clipped(xh + _recur(reset * h, rh, bh), clip))
    return (1.0 - z) * candidate + z * h, None


def _lstm_step(node, xw, h, c, r, bias_r, peep, d, hidden, acts, clip):
    f, g, act_h = acts
    gates = xw + _recur(h, r, bias_r)
    i, o, fg, cand = (gates[:, k * hidden : (k + 1) * hidden] for k in range(4))
    if peep is not None:
        pi, po, pf = (peep[d][k * hidden : (k + 1) * hidden] for k in range(3))
        i, fg = i + pi * c, fg + pf * c
    i, fg = f(_clipped(i, clip)), f(_clipped(fg, clip))
    new_c = fg * c + i * g(_clipped(cand, clip))
    if peep is not None:
        o = o + po * new_c
    o = f(_clipped(o, clip))
    return o * act_h(new_c), new_c
