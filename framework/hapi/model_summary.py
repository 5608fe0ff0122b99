"""`framework.summary` (a per-layer table of shapes and parameters) and `framework.flops`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from framework.core.autograd import no_grad
from framework.core.tensor import Tensor


def _as_shapes(input_size: Any) -> list[tuple[int, ...]]:
    """One shape per input; a None or -1 batch dimension becomes 1."""

    def is_shape(value: Any) -> bool:
        return isinstance(value, list | tuple) and all(
            isinstance(v, int | np.integer) or v is None for v in value
        )

    if hasattr(input_size, "shape") and not isinstance(input_size, Tensor):
        input_size = tuple(input_size.shape)  # an InputSpec
    shapes = [input_size] if is_shape(input_size) else list(input_size)
    resolved = []
    for shape in shapes:
        if hasattr(shape, "shape"):
            shape = shape.shape
        if not is_shape(shape):
            raise ValueError(f"input_size must be a shape or a list of shapes, got {input_size!r}")
        resolved.append(tuple(1 if d is None or d == -1 else int(d) for d in shape))
    return resolved


def _build_inputs(input_size: Any, dtypes: Any, inputs: Any) -> list[Tensor]:
    if inputs is not None:
        values = list(inputs) if isinstance(inputs, list | tuple) else [inputs]
        return [v if isinstance(v, Tensor) else Tensor(v) for v in values]
    if input_size is None:
        raise ValueError("summary() needs input_size or input")
    shapes = _as_shapes(input_size)
    if dtypes is None:
        dtypes = ["float32"] * len(shapes)
    elif isinstance(dtypes, str):
        dtypes = [dtypes] * len(shapes)
    rng = np.random.default_rng(0)
    return [
        Tensor(
            rng.standard_normal(shape).astype(dtype)
            if "float" in str(dtype)
            else np.ones(shape, dtype=dtype)
        )
        for shape, dtype in zip(shapes, dtypes, strict=True)
    ]


def _output_shape(output: Any) -> list:
    if isinstance(output, list | tuple):
        return [_output_shape(o) for o in output]
    return list(output.shape) if hasattr(output, "shape") else []


def _leaf_layers(net: Any) -> list[tuple[str, Any]]:
    """Layers with no children, or with parameters of their own."""
    chosen = []
    for name, layer in net.named_sublayers():
        own = list(layer.parameters(include_sublayers=False))
        if not list(layer.children()) or own:
            chosen.append((name, layer))
    return chosen or [("", net)]


def _trace(net: Any, inputs: list[Tensor], on_layer: Callable) -> None:
    handles = []
    for name, layer in _leaf_layers(net):

        def hook(layer: Any, layer_inputs: Any, output: Any, name: str = name) -> None:
            on_layer(name, layer, layer_inputs, output)

        handles.append(layer.register_forward_post_hook(hook))
    was_training = net.training
    net.eval()
    try:
        with no_grad():
            net(*inputs)
    finally:
        for handle in handles:
            handle.remove()
        if was_training:
            net.train()


def summary(
    net: Any, input_size: Any = None, dtypes: Any = None, input: Any = None
) -> dict[str, int]:
    """Print a per-layer table (output shape, parameters) and return the parameter counts.

    framework.summary(LeNet(), (1, 1, 28, 28))
    # {'total_params': 61610, 'trainable_params': 61610}
    """
    rows: list[tuple[str, list, list, int]] = []

    def record(name: str, layer: Any, layer_inputs: Any, output: Any) -> None:
        own = sum(int(p.size) for p in layer.parameters(include_sublayers=False))
        first_input = layer_inputs[0] if isinstance(layer_inputs, tuple | list) else layer_inputs
        label = f"{type(layer).__name__}-{len(rows) + 1}"
        rows.append((label, _output_shape(first_input), _output_shape(output), own))

    _trace(net, _build_inputs(input_size, dtypes, input), record)
    total = sum(int(p.size) for p in net.parameters())
    trainable = sum(int(p.size) for p in net.parameters() if not p.stop_gradient)
    print(_format_table(rows, total, trainable))
    return {"total_params": total, "trainable_params": trainable}


def _format_table(rows: Sequence[tuple], total: int, trainable: int) -> str:
    header = ("Layer (type)", "Input Shape", "Output Shape", "Param #")
    cells = [header] + [(r[0], str(r[1]), str(r[2]), f"{r[3]:,}") for r in rows]
    widths = [max(len(row[i]) for row in cells) + 2 for i in range(4)]
    width = sum(widths) + 3
    lines = ["-" * width, "  ".join(h.center(w) for h, w in zip(header, widths, strict=True))]
    lines.append("=" * width)
    for row in cells[1:]:
        lines.append("  ".join(c.center(w) for c, w in zip(row, widths, strict=True)))
    lines += [
        "=" * width,
        f"Total params: {total:,}",
        f"Trainable params: {trainable:,}",
        f"Non-trainable params: {total - trainable:,}",
        "-" * width,
    ]
    return "\n".join(lines)


# --- FLOPs, counted per leaf layer as Paddle's `paddle.flops` counts them ------------------------
def _count_conv(layer: Any, x: Tensor, y: Tensor) -> int:
    kernel_ops = int(np.prod(layer.weight.shape[2:]))
    groups = getattr(layer, "_groups", 1)
    bias_ops = 1 if getattr(layer, "bias", None) is not None else 0
    return int(y.size * (x.shape[1] / groups * kernel_ops + bias_ops))


def _count_linear(layer: Any, x: Tensor, y: Tensor) -> int:
    return int(layer.weight.shape[0] * y.size)


def _count_bn(layer: Any, x: Tensor, y: Tensor) -> int:
    return 2 * int(x.size)


def _count_elementwise(layer: Any, x: Tensor, y: Tensor) -> int:
    return int(x.size)


def _count_avgpool(layer: Any, x: Tensor, y: Tensor) -> int:
    return int(y.size)


def _count_adaptive_avgpool(layer: Any, x: Tensor, y: Tensor) -> int:
    kernel = np.array(x.shape[2:]) // np.maximum(np.array(y.shape[2:]), 1)
    return int((int(np.prod(kernel)) + 1) * y.size)


def _default_counters() -> dict[str, Callable]:
    by_name = {
        "Conv1D": _count_conv,
        "Conv2D": _count_conv,
        "Conv1DTranspose": _count_conv,
        "Conv2DTranspose": _count_conv,
        "BatchNorm": _count_bn,
        "BatchNorm1D": _count_bn,
        "BatchNorm2D": _count_bn,
        "LeakyReLU": _count_elementwise,
        "Linear": _count_linear,
        "AvgPool1D": _count_avgpool,
        "AvgPool2D": _count_avgpool,
        "AdaptiveAvgPool1D": _count_adaptive_avgpool,
        "AdaptiveAvgPool2D": _count_adaptive_avgpool,
    }
    return by_name


def flops(
    net: Any,
    input_size: Sequence[int],
    custom_ops: dict[type, Callable] | None = None,
    print_detail: bool = False,
) -> int:
    """Total FLOPs of one forward pass at `input_size` (batch 1), counted per layer as
    `paddle.flops` does (multiply-adds counted once; activations other than LeakyReLU are free).
    `custom_ops` maps a layer class to `fn(layer, x, y) -> int`."""
    counters = _default_counters()
    custom_ops = custom_ops or {}
    rows: list[tuple[str, list, list, int, int]] = []

    def record(name: str, layer: Any, layer_inputs: Any, output: Any) -> None:
        x = layer_inputs[0] if isinstance(layer_inputs, tuple | list) else layer_inputs
        y = output[0] if isinstance(output, tuple | list) else output
        counter = custom_ops.get(type(layer)) or counters.get(type(layer).__name__)
        ops = abs(int(counter(layer, x, y))) if counter else 0
        params = sum(int(p.size) for p in layer.parameters(include_sublayers=False))
        rows.append((name or type(layer).__name__, list(x.shape), list(y.shape), params, ops))

    _trace(net, _build_inputs(list(input_size), None, None), record)
    total_ops = sum(r[4] for r in rows)
    total_params = sum(r[3] for r in rows)
    if print_detail:
        header = ("Layer Name", "Input Shape", "Output Shape", "Params", "Flops")
        cells = [header] + [tuple(str(c) for c in r) for r in rows]
        widths = [max(len(row[i]) for row in cells) + 2 for i in range(5)]
        rule = "+" + "+".join("-" * w for w in widths) + "+"
        print(rule)
        for index, row in enumerate(cells):
            print("|" + "|".join(c.center(w) for c, w in zip(row, widths, strict=True)) + "|")
            if index == 0:
                print(rule)
        print(rule)
    print(f"Total Flops: {total_ops}     Total Params: {total_params}")
    return total_ops
