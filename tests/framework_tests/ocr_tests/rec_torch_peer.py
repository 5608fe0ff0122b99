"""The shipped PP-OCRv4 recognizer (an ONNX graph) in PyTorch: a small interpreter for exactly
the op types that graph uses, as a `torch.nn.Module` whose trainable initializers are
`nn.Parameter`s. The oracle of `test_rec_torch_peer.py` and the peer of
`benchmarks/ocr.py --parts finetune`. Not a test module.

BatchNormalization uses the graph's running statistics in training too, as our importer does
(`framework.onnx.load`), so both train the same function.

Activations and 4-D weights are channels-last by default, as PyTorch advises for CNNs on CPU:
in NCHW, oneDNN's backward of the graph's 5x5 depthwise convolutions takes a slow path that
costs most of a step (benchmarks/README.md, `ocr.py`, 2026-12-07).
"""

from __future__ import annotations

from typing import Any

import numpy as np

_DTYPES = {1: "float32", 6: "int32", 7: "int64", 9: "bool", 11: "float64"}


def torch_recognizer(path: str, trainable: set[str], *, channels_last: bool = True) -> Any:
    """The ONNX model at `path` as a `torch.nn.Module`: `forward(x)` takes `[N, 3, 48, W]`
    float32 and returns the graph's output (`[N, W / 8, C]` softmax probabilities).
    Initializers and Constant values named in `trainable` (ONNX names: pass the ones our
    `OnnxLayer` makes Parameters) are `nn.Parameter`s, in graph order; the rest are buffers.
    `channels_last` stores the input and the 4-D weights NHWC (the same values and shapes;
    `channels_last=False` keeps NCHW, for comparison).

        net = torch_recognizer(rec_path, {p.name for p in layer.parameters()})
        probs = net(torch.from_numpy(batch))
    """
    import onnx
    import torch
    from onnx import helper, numpy_helper
    from torch import nn

    model = onnx.load(str(path))
    graph = model.graph
    values = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    nodes = []
    for node in graph.node:
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        if node.op_type == "Constant":
            values[node.output[0]] = numpy_helper.to_array(attrs["value"])
        else:
            nodes.append((node.op_type, list(node.input), list(node.output), attrs))

    layout = torch.channels_last if channels_last else torch.contiguous_format

    def tensor(array: np.ndarray) -> Any:
        value = torch.from_numpy(np.array(array))
        return value.contiguous(memory_format=layout) if value.dim() == 4 else value

    class Recognizer(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.params = nn.ParameterList()
            self.slots: dict[str, tuple[str, int]] = {}
            self.fixed: dict[str, Any] = {}
            used = {n for _, inputs, _, _ in nodes for n in inputs}
            for index, (name, array) in enumerate(values.items()):
                if name not in used:
                    continue
                if name in trainable:
                    self.slots[name] = ("p", len(self.params))
                    self.params.append(nn.Parameter(tensor(array)))
                else:
                    self.register_buffer(f"c{index}", tensor(array))
                    self.slots[name] = ("b", index)
            self.input_name = graph.input[0].name
            self.output_name = graph.output[0].name

        def value(self, name: str) -> Any:
            kind, index = self.slots[name]
            return self.params[index] if kind == "p" else getattr(self, f"c{index}")

        def forward(self, x: Any) -> Any:
            env = {self.input_name: x.contiguous(memory_format=layout)}
            for op, inputs, outputs, attrs in nodes:
                args = [env[n] if n in env else self.value(n) if n else None for n in inputs]
                env[outputs[0]] = _run(torch, op, args, attrs)
            return env[self.output_name]

    return Recognizer()


def _ints(t: Any) -> list[int]:
    return [int(v) for v in t.reshape(-1).tolist()]


def _run(torch: Any, op: str, a: list, attrs: dict) -> Any:
    F = torch.nn.functional
    if op in ("Add", "Sub", "Mul", "Div", "Pow"):
        return {"Add": torch.add, "Sub": torch.sub, "Mul": torch.mul, "Div": torch.div,
                "Pow": torch.pow}[op](a[0], a[1])  # fmt: skip
    if op == "MatMul":
        return torch.matmul(a[0], a[1])
    if op in ("Sqrt", "Sigmoid", "Relu"):
        return {"Sqrt": torch.sqrt, "Sigmoid": torch.sigmoid, "Relu": torch.relu}[op](a[0])
    if op == "Conv":
        pads = attrs.get("pads", [0, 0, 0, 0])
        x = a[0]
        if pads[:2] != pads[2:]:
            x, pads = F.pad(x, [pads[1], pads[3], pads[0], pads[2]]), [0, 0, 0, 0]
        return F.conv2d(x, a[1], a[2] if len(a) > 2 else None, attrs.get("strides", 1),
                        pads[:2], attrs.get("dilations", 1), attrs.get("group", 1))  # fmt: skip
    if op == "BatchNormalization":
        return F.batch_norm(a[0], a[3], a[4], a[1], a[2], False, 0.0, attrs.get("epsilon", 1e-5))
    if op == "Clip":
        low = float(a[1]) if len(a) > 1 and a[1] is not None else None
        high = float(a[2]) if len(a) > 2 and a[2] is not None else None
        return torch.clamp(a[0], low, high)
    if op == "HardSigmoid":
        return torch.clamp(attrs.get("alpha", 0.2) * a[0] + attrs.get("beta", 0.5), 0.0, 1.0)
    if op == "Cast":
        return a[0].to(getattr(torch, _DTYPES[attrs["to"]]))
    if op == "Shape":
        return torch.tensor(list(a[0].shape), dtype=torch.int64)
    if op == "Slice":
        x = a[0]
        starts, ends = _ints(a[1]), _ints(a[2])
        axes = _ints(a[3]) if len(a) > 3 and a[3] is not None else list(range(len(starts)))
        steps = _ints(a[4]) if len(a) > 4 and a[4] is not None else [1] * len(starts)
        index = [slice(None)] * x.dim()
        for s, e, ax, st in zip(starts, ends, axes, steps, strict=True):
            index[ax] = slice(s, e, st)
        return x[tuple(index)]
    if op == "ReduceMean":
        return a[0].mean(dim=attrs["axes"], keepdim=bool(attrs.get("keepdims", 1)))
    if op == "Transpose":
        return a[0].permute(*attrs["perm"])
    if op == "Squeeze":
        x = a[0]
        for axis in sorted((ax % x.dim() for ax in attrs["axes"]), reverse=True):
            x = x.squeeze(axis)
        return x
    if op == "Concat":
        return torch.cat(a, dim=attrs["axis"])
    if op == "Reshape":
        shape = _ints(a[1])
        shape = [a[0].shape[i] if s == 0 else s for i, s in enumerate(shape)]
        return a[0].reshape(shape)
    if op == "Softmax":  # opset < 13: over the dims from `axis` on, flattened
        x, axis = a[0], attrs.get("axis", 1) % a[0].dim()
        return torch.softmax(x.reshape(*x.shape[:axis], -1), dim=-1).reshape(x.shape)
    if op == "GlobalAveragePool":
        return a[0].mean(dim=(2, 3), keepdim=True)
    if op == "AveragePool":
        pads = attrs.get("pads", [0, 0, 0, 0])
        return F.avg_pool2d(a[0], attrs["kernel_shape"], attrs.get("strides"), pads[:2],
                            bool(attrs.get("ceil_mode", 0)),
                            bool(attrs.get("count_include_pad", 0)))  # fmt: skip
    raise NotImplementedError(f"the recognizer twin has no {op}")
