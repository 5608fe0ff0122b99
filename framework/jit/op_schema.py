"""The op set of the graph IR: every op type, its inputs, outputs and attributes.

This table is the contract between the tracer (which emits nodes), the executors (which run
them), the graph passes (which rewrite them) and the exporters (ONNX and friends, which map
them). Conventions, chosen so that most ops map one to one onto ONNX:

- Tensors are logical NCHW unless an op's `data_format` says otherwise; memory layout is an
  executor detail and never appears in the graph.
- Binary elementwise ops broadcast as NumPy (= ONNX multidirectional broadcasting).
- Axes may be negative (counted from the end). `pads` of an N-d window op are ONNX-ordered:
  all begins, then all ends (`[top, left, bottom, right]` in 2-D).
- An optional input that is absent is the empty string `""` (as in ONNX); trailing absent
  optional inputs may be dropped.
- `activation` (on conv, linear, add and batch_norm) is only produced by the inference
  activation-fusion pass: `None`, or a dict `{"type": "relu"}`, `{"type": "clip", "min": 0.0,
  "max": 6.0}`, `{"type": "hardswish"}`, `{"type": "hard_sigmoid", "slope": s, "offset": o}`,
  `{"type": "leaky_relu", "alpha": a}`, `{"type": "sigmoid"}` or `{"type": "silu"}`, applied to
  the op's result. A traced graph never has it; an exporter may emit it as a separate node.

`validate_node(node)` checks a node against its schema.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

REQUIRED = object()  # marks an attribute without a default


@dataclass(frozen=True)
class OpSchema:
    op_type: str
    inputs: tuple[str, ...]  # "x", "bias?" (optional), "xs*" (variadic, last only)
    outputs: tuple[str, ...]  # "y", or "ys*" for a variable number
    attrs: dict[str, Any] = field(default_factory=dict)  # name -> default (or REQUIRED)
    doc: str = ""

    def input_range(self) -> tuple[int, int | None]:
        """(fewest, most) inputs; most is None for a variadic op."""
        if self.inputs and self.inputs[-1].endswith("*"):
            return len(self.inputs) - 1, None
        required = sum(1 for name in self.inputs if not name.endswith("?"))
        return required, len(self.inputs)


SCHEMAS: dict[str, OpSchema] = {}

ACTIVATION_TYPES = ("relu", "clip", "hardswish", "hard_sigmoid", "leaky_relu", "sigmoid", "silu")


def register_schema(
    op_type: str, inputs: str, outputs: str = "y", doc: str = "", **attrs: Any
) -> OpSchema:
    """Add an op type to the IR: `inputs`/`outputs` are space-separated names ("x bias?" for an
    optional input, "xs*" for a variadic last one), `attrs` name -> default (or REQUIRED).
    Subsystems with their own ops (INT8 quantization) register them here; an op type is
    registered once."""
    if op_type in SCHEMAS:
        raise ValueError(f"op type {op_type!r} is already registered")
    found = SCHEMAS[op_type] = OpSchema(
        op_type, tuple(inputs.split()), tuple(outputs.split()), dict(attrs), doc
    )
    return found


_op = register_schema


# --- elementwise ---------------------------------------------------------------------------------
for _name in ("subtract", "multiply", "divide", "maximum", "minimum", "pow"):
    _op(_name, "x y", doc=f"{_name}(x, y), NumPy broadcasting")
_op("add", "x y", doc="x + y, NumPy broadcasting", activation=None)
_op("remainder", "x y", doc="x mod y with the sign of y (Python/NumPy; ONNX Mod fmod=0)")
_op("atan2", "x y", doc="atan2(x, y)")
for _name in (
    "neg abs exp expm1 log log1p log2 log10 sqrt rsqrt square reciprocal sin cos tan asin acos "
    "atan sinh cosh tanh erf floor ceil trunc sign relu sigmoid silu hardswish mish softsign "
    "tanhshrink log_sigmoid identity"
).split():
    _op(_name, "x", doc=f"elementwise {_name}")
_op("round", "x", doc="round half to even, to `decimals`", decimals=0)
_op("scale", "x", doc="x * scale + bias (bias_after_scale) else (x + bias) * scale",
    scale=1.0, bias=0.0, bias_after_scale=True)  # fmt: skip
_op("clip", "x", doc="clip(x, min, max); None leaves that side open", min=None, max=None)
_op("leaky_relu", "x", doc="x if x > 0 else alpha * x", alpha=0.01)
_op("elu", "x", doc="scale * (x if x > 0 else alpha * (exp(x) - 1)); selu is scale != 1",
    alpha=1.0, scale=1.0)  # fmt: skip
_op("celu", "x", doc="max(0, x) + min(0, alpha * (exp(x / alpha) - 1))", alpha=1.0)
_op("hard_sigmoid", "x", doc="clip(slope * x + offset, 0, 1)", slope=0.1666667, offset=0.5)
_op("gelu", "x", doc="x * Phi(x); tanh approximation when approximate", approximate=False)
_op("softplus", "x", doc="log(1 + exp(beta x)) / beta, x where beta x > threshold",
    beta=1.0, threshold=20.0)  # fmt: skip
_op("shrink", "x", doc="ONNX Shrink: x - bias if x > lambd, x + bias if x < -lambd, else 0",
    lambd=0.5, bias=0.0)  # fmt: skip
_op("thresholded_relu", "x", doc="x if x > threshold else value", threshold=1.0, value=0.0)
_op("softmax", "x", doc="softmax along axis", axis=-1)
_op("log_softmax", "x", doc="log(softmax) along axis", axis=-1)
_op("prelu", "x slope", doc="max(0, x) + slope * min(0, x); slope per channel along `axis`, "
    "or one slope when axis is None", axis=None)  # fmt: skip
_op("where", "condition x y", doc="condition ? x : y, NumPy broadcasting")
_op("cast", "x", doc="x as `dtype` (a NumPy dtype name)", dtype=REQUIRED)

# --- comparisons, logic, arg-extrema (no gradient) -----------------------------------------------
for _name in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
    _op(_name, "x y", doc=f"bool: {_name}(x, y), NumPy broadcasting")
for _name in ("logical_and", "logical_or", "logical_xor"):
    _op(_name, "x y", doc=f"bool: {_name}(x, y) (nonzero is True), NumPy broadcasting")
_op("logical_not", "x", doc="bool: not x (nonzero is True)")
for _name in ("argmax", "argmin"):
    _op(_name, "x", doc=f"index of the {_name[3:]} along axis (None: of the flattened tensor; "
        "the first wins a tie), as dtype", axis=None, keepdim=False, dtype="int64")  # fmt: skip

# --- resizing -----------------------------------------------------------------------------------
_op("resample_axis", "x", doc="resize one axis (framework.ops.nn.interpolate.ResampleSpec): mode "
    "nearest/linear/cubic/area; to out_size, or floor(size * scale) when out_size is None; "
    "Paddle's align_corners and align_mode", axis=REQUIRED, mode=REQUIRED, out_size=None,
    scale=None, align_corners=False, align_mode=0)  # fmt: skip

# --- linear algebra, convolution, pooling, normalization --------------------------------------
_op("matmul", "x y", doc="NumPy matmul; transpose_* swap the last two dims of that input first",
    transpose_x=False, transpose_y=False)  # fmt: skip
_op("linear", "x weight bias?", doc="x @ weight + bias; weight is [in, out] (Paddle layout)",
    activation=None)  # fmt: skip
for _dims in (1, 2):
    _op(f"conv{_dims}d", "x weight bias?",
        doc=f"{_dims}-D convolution, weight [O, C/groups, k...] (ONNX Conv)",
        strides=REQUIRED, pads=REQUIRED, dilations=REQUIRED, groups=1,
        data_format="NCHW" if _dims == 2 else "NCL", activation=None)  # fmt: skip
    _op(f"conv{_dims}d_transpose", "x weight bias?",
        doc=f"{_dims}-D transposed convolution, weight [C, O/groups, k...] (ONNX ConvTranspose)",
        strides=REQUIRED, pads=REQUIRED, dilations=REQUIRED, groups=1,
        output_padding=REQUIRED, data_format="NCHW" if _dims == 2 else "NCL")  # fmt: skip
    _op(f"max_pool{_dims}d", "x", doc="max over windows, -inf padding (ONNX MaxPool)",
        kernel_shape=REQUIRED, strides=REQUIRED, pads=REQUIRED, ceil_mode=False,
        data_format="NCHW" if _dims == 2 else "NCL")  # fmt: skip
    _op(f"avg_pool{_dims}d", "x",
        doc="mean over windows; exclusive leaves padding out of the divisor "
        "(ONNX AveragePool count_include_pad = not exclusive); divisor overrides both",
        kernel_shape=REQUIRED, strides=REQUIRED, pads=REQUIRED, ceil_mode=False,
        exclusive=True, divisor=None, data_format="NCHW" if _dims == 2 else "NCL")  # fmt: skip
_op("adaptive_avg_pool2d", "x", doc="[N,C,H,W] -> [N,C,oh,ow], window i covers "
    "[floor(i*H/oh), ceil((i+1)*H/oh)); [1,1] is ONNX GlobalAveragePool",
    output_size=REQUIRED, data_format="NCHW")  # fmt: skip
_op("adaptive_max_pool2d", "x", doc="max over adaptive windows (as adaptive_avg_pool2d)",
    output_size=REQUIRED)  # fmt: skip
_op("batch_norm", "x scale? bias? mean variance",
    doc="inference batch norm with running statistics along channel `axis` "
    "(ONNX BatchNormalization when axis is 1)", epsilon=1e-5, axis=1, activation=None)  # fmt: skip
_op("layer_norm", "x scale? bias?", doc="normalize over dims axis..-1 (ONNX "
    "LayerNormalization)", epsilon=1e-5, axis=-1)  # fmt: skip
_op("group_norm", "x scale? bias?", doc="normalize over groups of channels and all positions",
    num_groups=REQUIRED, epsilon=1e-5, data_format="NCHW")  # fmt: skip
_op("instance_norm", "x scale? bias?", doc="normalize each (sample, channel) plane",
    epsilon=1e-5, data_format="NCHW")  # fmt: skip

# --- shapes -------------------------------------------------------------------------------------
_op("reshape", "x", doc="reshape; 0 copies the input dim at that position, one -1 is inferred "
    "(ONNX Reshape semantics)", shape=REQUIRED)  # fmt: skip
_op("transpose", "x", doc="y.shape[i] = x.shape[perm[i]]", perm=REQUIRED)
_op("concat", "xs*", doc="join along axis", axis=0)
_op("split", "x", "ys*", doc="cut along axis into pieces of the given sizes",
    axis=0, sections=REQUIRED)  # fmt: skip
_op("stack", "xs*", doc="join along a new axis", axis=0)
_op("unstack", "x", "ys*", doc="cut along axis and drop it", axis=0)
_op("slice", "x", doc="ONNX Slice over axes (ends clamp; 2**62 means to the end), then drop the "
    "decrease_axes (int indexing)", axes=REQUIRED, starts=REQUIRED, ends=REQUIRED,
    steps=REQUIRED, decrease_axes=[])  # fmt: skip
_op("expand", "x", doc="broadcast to shape (NumPy rules; -1 keeps the input dim)", shape=REQUIRED)
_op("tile", "x", doc="repeat the whole tensor along each dim", repeat_times=REQUIRED)
_op("pad", "x", doc="pads: [[before, after], ...] per dim; mode constant/reflect/replicate/"
    "circular", pads=REQUIRED, mode="constant", value=0.0)  # fmt: skip
_op("flip", "x", doc="reverse along axes", axes=REQUIRED)
_op("roll", "x", doc="roll by shifts along axes (None: flattened)", shifts=REQUIRED, axes=None)
_op("gather", "x index", doc="ONNX Gather: take the entries of x along axis at integer index",
    axis=0)  # fmt: skip
_op("embedding", "ids weight", doc="weight[ids] (rows of a [V, D] table); rows where ids == "
    "padding_idx are zero", padding_idx=None)  # fmt: skip

# --- reductions ---------------------------------------------------------------------------------
for _name in ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
              "reduce_logsumexp"):  # fmt: skip
    _op(_name, "x", doc=f"{_name[7:]} over axes (None: all)", axes=None, keepdim=False)
_op("reduce_var", "x", doc="variance over axes with ddof", axes=None, keepdim=False, ddof=0.0)

# --- control flow (sub-graphs in attrs: framework.jit.subgraph) ---------------------------------
_op("cond", "pred xs*", "ys*", doc="run true_graph if pred (a one-element bool tensor) else "
    "false_graph on xs (the values either branch reads); ys are that branch's outputs",
    true_graph=REQUIRED, false_graph=REQUIRED)  # fmt: skip
_op("while_loop", "xs*", "ys*", doc="xs = loop vars (the first num_loop_vars) then the values "
    "the loop reads; while cond_graph(vars, reads) is true, vars = body_graph(vars, reads); "
    "ys are the final loop vars", num_loop_vars=REQUIRED, cond_graph=REQUIRED,
    body_graph=REQUIRED)  # fmt: skip
SUBGRAPH_OPS = frozenset({"cond", "while_loop"})


def schema(op_type: str) -> OpSchema:
    found = SCHEMAS.get(op_type)
    if found is None:
        raise KeyError(f"unknown op type {op_type!r}; the IR knows: {', '.join(sorted(SCHEMAS))}")
    return found


def validate_node(node) -> None:
    """Raise ValueError when `node` (a graph Node) does not fit its op's schema."""
    try:
        spec = schema(node.op_type)
    except KeyError as error:
        raise ValueError(error.args[0]) from None
    fewest, most = spec.input_range()
    given = len(node.inputs)
    if given < fewest or (most is not None and given > most):
        raise ValueError(
            f"node {node.name} ({node.op_type}) has {given} inputs; its schema "
            f"{list(spec.inputs)} takes {fewest}..{most if most is not None else 'any'}"
        )
    for index, name in enumerate(node.inputs):
        declared = spec.inputs[min(index, len(spec.inputs) - 1)]
        if name == "" and not declared.endswith("?"):
            raise ValueError(f"node {node.name} ({node.op_type}) lacks its input '{declared}'")
    variadic_out = spec.outputs[-1].endswith("*")
    if not variadic_out and len(node.outputs) != len(spec.outputs):
        raise ValueError(
            f"node {node.name} ({node.op_type}) has {len(node.outputs)} outputs, "
            f"expected {len(spec.outputs)}"
        )
    unknown = set(node.attrs) - set(spec.attrs)
    if unknown:
        raise ValueError(f"node {node.name} ({node.op_type}) has unknown attrs {sorted(unknown)}")
    missing = [k for k, v in spec.attrs.items() if v is REQUIRED and k not in node.attrs]
    if missing:
        raise ValueError(f"node {node.name} ({node.op_type}) lacks required attrs {missing}")


def attr(node, name: str) -> Any:
    """`node.attrs[name]`, or the schema default."""
    if name in node.attrs:
        return node.attrs[name]
    default = schema(node.op_type).attrs[name]
    if default is REQUIRED:
        raise KeyError(f"node {node.name} ({node.op_type}) lacks attribute {name!r}")
    return default
