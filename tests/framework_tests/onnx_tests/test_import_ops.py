"""Single ONNX ops (built with onnx.helper) imported and run on framework ops give
onnxruntime's results: coordinate modes of Resize, pooling with ceil mode and auto_pad,
opset-dependent forms (Softmax before 13, attributes that became inputs), shape chains."""

from __future__ import annotations

import numpy as np
import pytest

import framework

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
helper = onnx.helper
F32, I64, BOOL = onnx.TensorProto.FLOAT, onnx.TensorProto.INT64, onnx.TensorProto.BOOL
RNG = np.random.default_rng(0)


def _x(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def _ints(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def _floats(*values: float) -> np.ndarray:
    return np.array(values, dtype=np.float32)


def _model(nodes, inputs: dict, consts: dict, outputs: dict, opset: int) -> bytes:
    graph = helper.make_graph(
        nodes,
        "case",
        [helper.make_tensor_value_info(k, _type(v), list(v.shape)) for k, v in inputs.items()],
        [helper.make_tensor_value_info(k, t, None) for k, t in outputs.items()],
        [onnx.numpy_helper.from_array(v, k) for k, v in consts.items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8 if opset < 21 else 10
    return model.SerializeToString()


def _type(array: np.ndarray) -> int:
    return {np.float32: F32, np.int64: I64, np.bool_: BOOL, np.int32: onnx.TensorProto.INT32}[
        array.dtype.type
    ]


def _check(nodes, inputs, consts=None, outputs=None, opset=17, atol=1e-5, fused=True) -> None:
    """Our import of the graph answers as onnxruntime does; `fused=False` compares with its
    unoptimised reference instead (its fused int8 kernels saturate on x86 without VNNI)."""
    outputs = outputs or {"y": F32}
    data = _model(nodes, inputs, consts or {}, outputs, opset)
    options = ort.SessionOptions()
    if not fused:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])
    want = session.run(None, inputs)
    layer = framework.onnx.load(data)
    got = layer(*inputs.values())
    got = got if isinstance(got, tuple) else (got,)
    for g, w in zip(got, want, strict=True):
        assert g.shape == list(w.shape)
        np.testing.assert_allclose(g.numpy(), w, rtol=1e-5, atol=atol)


def _node(op: str, inputs: list[str], outputs: list[str] | None = None, **attrs):
    return helper.make_node(op, inputs, outputs or ["y"], **attrs)


# --- Resize / Upsample --------------------------------------------------------------------------
RESIZE_CASES = {
    "nearest_asymmetric_floor_x2": (
        {"mode": "nearest", "coordinate_transformation_mode": "asymmetric",
         "nearest_mode": "floor"}, _floats(1, 1, 2, 2), None),
    "nearest_half_pixel_sizes": ({"mode": "nearest"}, None, _ints(1, 2, 4, 9)),
    "nearest_round_prefer_ceil": (
        {"mode": "nearest", "nearest_mode": "round_prefer_ceil"}, _floats(1, 1, 1.5, 0.6), None),
    "nearest_tf_half_pixel_ceil": (
        {"mode": "nearest", "coordinate_transformation_mode": "tf_half_pixel_for_nn",
         "nearest_mode": "ceil"}, None, _ints(1, 2, 3, 11)),
    "linear_half_pixel": ({"mode": "linear"}, _floats(1, 1, 1.5, 2.5), None),
    "linear_pytorch_half_pixel": (
        {"mode": "linear", "coordinate_transformation_mode": "pytorch_half_pixel"}, None,
        _ints(1, 2, 1, 3)),
    "linear_align_corners": (
        {"mode": "linear", "coordinate_transformation_mode": "align_corners"}, None,
        _ints(1, 2, 9, 4)),
    "linear_asymmetric": (
        {"mode": "linear", "coordinate_transformation_mode": "asymmetric"}, _floats(1, 1, 2, 0.5),
        None),
    "cubic_half_pixel": ({"mode": "cubic"}, _floats(1, 1, 2, 1.7), None),
    "cubic_exclude_outside": (
        {"mode": "cubic", "cubic_coeff_a": -0.5, "exclude_outside": 1}, None, _ints(1, 2, 3, 12)),
    "cubic_align_corners": (
        {"mode": "cubic", "coordinate_transformation_mode": "align_corners"}, None,
        _ints(1, 2, 8, 5)),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(RESIZE_CASES))
def test_resize_matches_onnxruntime(case) -> None:
    attrs, scales, sizes = RESIZE_CASES[case]
    consts = {"roi": np.zeros(0, np.float32), "scales": np.zeros(0, np.float32)}
    if scales is not None:
        consts["scales"] = scales
    names = ["x", "roi", "scales"]
    if sizes is not None:
        consts["sizes"] = sizes
        names.append("sizes")
    _check([_node("Resize", names, **attrs)], {"x": _x(1, 2, 5, 6)}, consts, opset=13)


@pytest.mark.parametrize("opset, mode", [(9, "nearest"), (9, "linear"), (10, "nearest")])
def test_upsample_and_opset_10_resize_use_legacy_coordinates(opset, mode) -> None:
    op = "Upsample" if opset == 9 else "Resize"
    node = _node(op, ["x", "scales"], mode=mode)
    _check([node], {"x": _x(1, 2, 3, 4)}, {"scales": _floats(1, 1, 2, 3)}, opset=opset)


# --- convolution and pooling --------------------------------------------------------------------
@pytest.mark.parametrize(
    "attrs",
    [
        {"auto_pad": "SAME_LOWER", "strides": [2, 2], "group": 2},
        {"auto_pad": "SAME_UPPER", "strides": [2, 1], "group": 2},
        {"pads": [1, 0, 2, 1], "dilations": [2, 1], "group": 2},
        {"auto_pad": "VALID", "group": 2},
    ],
)
def test_conv_padding_forms(attrs) -> None:
    consts = {"w": _x(4, 2, 3, 3), "b": _x(4)}
    _check([_node("Conv", ["x", "w", "b"], **attrs)], {"x": _x(2, 4, 7, 8)}, consts)


def test_conv_1d() -> None:
    node = _node("Conv", ["x", "w"], pads=[2, 1], strides=[2])
    _check([node], {"x": _x(2, 3, 11)}, {"w": _x(5, 3, 4)})


@pytest.mark.parametrize(
    "attrs",
    [
        {"strides": [2, 2], "pads": [1, 1, 0, 0], "output_padding": [1, 0]},
        {"strides": [2, 2], "output_shape": [9, 10]},
        {"strides": [2, 3], "auto_pad": "SAME_UPPER"},
        {"strides": [1, 1], "group": 2, "dilations": [2, 1]},
    ],
)
def test_conv_transpose_forms(attrs) -> None:
    consts = {"w": _x(4, 3, 3, 3), "b": _x(3 * attrs.get("group", 1))}
    if "group" in attrs:
        consts["w"] = _x(4, 3, 3, 3)
    _check([_node("ConvTranspose", ["x", "w", "b"], **attrs)], {"x": _x(1, 4, 4, 5)}, consts)


@pytest.mark.parametrize(
    "op, attrs",
    [
        ("MaxPool", {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1}),
        ("MaxPool", {"kernel_shape": [3, 2], "strides": [2, 2], "pads": [1, 0, 1, 1]}),
        ("MaxPool", {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_UPPER"}),
        ("AveragePool", {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}),
        ("AveragePool", {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1],
                         "count_include_pad": 1}),
        ("AveragePool", {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1}),
        ("AveragePool", {"kernel_shape": [2, 2], "strides": [2, 2], "ceil_mode": 1,
                         "pads": [1, 1, 1, 1], "count_include_pad": 1}),
        ("GlobalAveragePool", {}),
        ("GlobalMaxPool", {}),
    ],
)  # fmt: skip
def test_pooling_forms(op, attrs) -> None:
    _check([_node(op, ["x"], **attrs)], {"x": _x(2, 3, 8, 7)})


def test_pooling_1d() -> None:
    node = _node("MaxPool", ["x"], kernel_shape=[3], strides=[2], pads=[1, 1])
    _check([node], {"x": _x(2, 3, 9)})


# --- normalization and products -----------------------------------------------------------------
def test_batch_norm_of_a_2d_input_at_opset_9() -> None:
    consts = {"s": _x(5), "b": _x(5), "m": _x(5), "v": np.abs(_x(5)) + 0.5}
    node = _node("BatchNormalization", ["x", "s", "b", "m", "v"], epsilon=1e-3)
    _check([node], {"x": _x(4, 5)}, consts, opset=9)


def test_layer_group_and_instance_normalization() -> None:
    nodes = [
        _node("LayerNormalization", ["x", "ls", "lb"], ["a"], axis=-2, epsilon=1e-3),
        _node("GroupNormalization", ["a", "gs", "gb"], ["b"], num_groups=2),
        _node("InstanceNormalization", ["b", "is", "ib"]),
    ]
    consts = {"ls": _x(3, 5), "lb": _x(3, 5), "gs": _x(2), "gb": _x(2), "is": _x(4), "ib": _x(4)}
    _check(nodes, {"x": _x(2, 4, 3, 5)}, consts, opset=18, atol=1e-4)


@pytest.mark.parametrize("attrs", [{}, {"transA": 1}, {"transB": 1, "alpha": 0.5, "beta": 2.0}])
def test_gemm_forms(attrs) -> None:
    a = _x(3, 4) if not attrs.get("transA") else _x(4, 3)
    b = _x(5, 4) if attrs.get("transB") else _x(4, 5)
    _check([_node("Gemm", ["a", "b", "c"], **attrs)], {"a": a}, {"b": b, "c": _x(5)})


def test_matmul_broadcasts_and_einsum() -> None:
    nodes = [
        _node("MatMul", ["x", "w"], ["m"]),
        _node("Einsum", ["m", "x"], ["y"], equation="bij,bkj->bik"),
    ]
    _check(nodes, {"x": _x(2, 3, 4)}, {"w": _x(4, 4)})


# --- activations and elementwise ----------------------------------------------------------------
ACTIVATIONS = [
    ("Relu", {}), ("LeakyRelu", {"alpha": 0.2}), ("Sigmoid", {}), ("HardSigmoid", {"alpha": 0.3}),
    ("HardSwish", {}), ("Elu", {"alpha": 0.7}), ("Selu", {}), ("Celu", {"alpha": 1.5}),
    ("Softplus", {}), ("Softsign", {}), ("ThresholdedRelu", {"alpha": 0.4}),
    ("Shrink", {"lambd": 0.3, "bias": 0.1}), ("Mish", {}), ("Tanh", {}), ("Erf", {}),
    ("Exp", {}), ("Abs", {}), ("Neg", {}), ("Floor", {}), ("Ceil", {}), ("Round", {}),
    ("Sign", {}), ("Sin", {}), ("Atan", {}), ("Softmax", {"axis": 1}),
    ("LogSoftmax", {"axis": 0}),
]  # fmt: skip


@pytest.mark.parametrize("op, attrs", ACTIVATIONS, ids=[a[0] for a in ACTIVATIONS])
def test_unary_ops(op, attrs) -> None:
    _check([_node(op, ["x"], **attrs)], {"x": _x(3, 4, 5) * 2}, opset=18)


def test_gelu_at_opset_20() -> None:
    nodes = [_node("Gelu", ["x"], ["a"]), _node("Gelu", ["a"], approximate="tanh")]
    _check(nodes, {"x": _x(3, 5)}, opset=20)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_softmax_before_opset_13_flattens_from_axis(axis) -> None:
    _check([_node("Softmax", ["x"], axis=axis)], {"x": _x(2, 3, 4)}, opset=11)


def test_clip_bounds_as_attributes_and_as_inputs() -> None:
    _check([_node("Clip", ["x"], min=-0.5, max=0.7)], {"x": _x(3, 4)}, opset=7)
    consts = {"lo": np.array(-0.2, np.float32)}
    _check([_node("Clip", ["x", "lo"])], {"x": _x(3, 4)}, consts, opset=13)


def test_prelu_and_binary_broadcasting() -> None:
    nodes = [
        _node("PRelu", ["x", "slope"], ["a"]),
        _node("Sub", ["a", "b"], ["c"]),
        _node("Pow", ["c", "two"], ["d"]),
        _node("Div", ["d", "b"], ["e"]),
        _node("Max", ["e", "x", "b"], ["f"]),
        _node("Mean", ["f", "x"], ["y"]),
    ]
    consts = {"slope": _x(3, 1, 1), "b": np.abs(_x(4)) + 1, "two": np.array(2.0, np.float32)}
    _check(nodes, {"x": _x(2, 3, 5, 4)}, consts)


def test_integer_arithmetic_follows_onnx() -> None:
    nodes = [
        _node("Div", ["a", "b"], ["q"]),
        _node("Mod", ["a", "b"], ["r"]),
        _node("Mod", ["a", "b"], ["f"], fmod=1),
    ]
    inputs = {"a": _ints(7, -7, 9, -9, 0)}
    outputs = {"q": I64, "r": I64, "f": I64}
    _check(nodes, inputs, {"b": _ints(2, 2, -4, -4, 3)}, outputs)


def test_comparisons_where_and_casts() -> None:
    nodes = [
        _node("Greater", ["x", "zero"], ["g"]),
        _node("Not", ["g"], ["n"]),
        _node("Cast", ["n"], ["nf"], to=F32),
        _node("Where", ["g", "x", "nf"], ["y"]),
        _node("IsNaN", ["x"], ["nan"]),
    ]
    _check(nodes, {"x": _x(3, 4)}, {"zero": np.array(0.0, np.float32)}, {"y": F32, "nan": BOOL})


def test_is_inf_gives_booleans() -> None:
    x = np.array([1.0, np.inf, -np.inf, np.nan], np.float32)
    nodes = [_node("IsInf", ["x"], ["all"]), _node("IsInf", ["x"], ["neg"], detect_positive=0)]
    data = _model(nodes, {"x": x}, {}, {"all": BOOL, "neg": BOOL}, 20)
    every, negative = framework.onnx.load(data)(x)
    assert every.dtype == framework.bool and negative.dtype == framework.bool
    assert every.numpy().tolist() == [False, True, True, False]
    assert negative.numpy().tolist() == [False, False, True, False]


def test_cumsum_keeps_int32() -> None:
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    data = _model(
        [_node("CumSum", ["x", "a"], ["y"], reverse=1)],
        {"x": x},
        {"a": np.array(1, np.int64)},
        {"y": onnx.TensorProto.INT32},
        17,
    )
    y = framework.onnx.load(data)(x)
    assert y.dtype == framework.int32
    np.testing.assert_array_equal(y.numpy(), np.flip(np.cumsum(np.flip(x, 1), 1), 1))


@pytest.mark.parametrize("opset", [21, 23])
def test_casts_to_bfloat16_and_float16_round(opset) -> None:
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = (RNG.standard_normal(200) * 300).astype(np.float32)
    x[:4] = [np.nan, np.inf, 3.4e38, 1.00390625]  # NaN, inf, overflow, a tie to even
    nodes = [
        _node("Cast", ["x"], ["b"], to=onnx.TensorProto.BFLOAT16),
        _node("Cast", ["b"], ["bf"], to=F32),
        _node("Cast", ["x"], ["h"], to=onnx.TensorProto.FLOAT16),
    ]
    data = _model(nodes, {"x": x}, {}, {"bf": F32, "h": onnx.TensorProto.FLOAT16}, opset)
    bf, half = framework.onnx.load(data)(x)
    want = x.astype(ml_dtypes.bfloat16).astype(np.float32)
    np.testing.assert_array_equal(bf.numpy(), want)
    assert not np.array_equal(bf.numpy(), x, equal_nan=True)  # the cast did round
    assert half.dtype == framework.float16
    np.testing.assert_array_equal(half.numpy(), x.astype(np.float16))


# --- recurrent ----------------------------------------------------------------------------------
def _recurrent_inputs(op: str, directions: int, hidden: int = 3, size: int = 4) -> dict:
    gates = {"RNN": 1, "GRU": 3, "LSTM": 4}[op]
    return {
        "x": _x(5, 2, size),
        "w": _x(directions, gates * hidden, size) * 0.5,
        "r": _x(directions, gates * hidden, hidden) * 0.5,
        "b": _x(directions, 2 * gates * hidden) * 0.5,
        "lens": np.array([5, 3], np.int32),
        "h0": _x(directions, 2, hidden),
    }


@pytest.mark.parametrize(
    ("op", "attrs"),
    [
        ("LSTM", {"direction": "bidirectional"}),
        ("LSTM", {"direction": "reverse", "clip": 0.8}),
        ("GRU", {"direction": "bidirectional", "linear_before_reset": 1}),
        ("GRU", {"direction": "reverse"}),
        ("RNN", {"direction": "bidirectional", "activations": ["Relu", "Tanh"]}),
    ],
)
def test_recurrent_ops_with_sequence_lengths_match_onnxruntime(op, attrs) -> None:
    directions = 2 if attrs["direction"] == "bidirectional" else 1
    inputs = _recurrent_inputs(op, directions)
    names = ["x", "w", "r", "b", "lens", "h0"]
    outputs = {"y": F32, "y_h": F32}
    if op == "LSTM":
        inputs["c0"] = _x(directions, 2, 3)
        inputs["p"] = _x(directions, 9)
        names += ["c0", "p"]
        outputs["y_c"] = F32
    node = _node(op, names, list(outputs), hidden_size=3, **attrs)
    _check([node], inputs, outputs=outputs, opset=22)


@pytest.mark.parametrize("mode", ["half_pixel", "output_half_pixel"])
def test_roi_align_with_boxes_out_of_image_order_matches_onnxruntime(mode) -> None:
    inputs = {
        "x": _x(2, 3, 8, 9),
        "rois": _floats(0.5, 1, 6, 7.5, 2, 0, 8, 4, 1, 1, 3, 6).reshape(3, 4),
        "idx": _ints(1, 0, 1),
    }
    node = _node(
        "RoiAlign",
        ["x", "rois", "idx"],
        output_height=2,
        output_width=3,
        sampling_ratio=2,
        spatial_scale=0.5,
        coordinate_transformation_mode=mode,
    )
    _check([node], inputs, opset=16)  # onnxruntime runs RoiAlign up to opset 16


# --- shapes -------------------------------------------------------------------------------------
def test_dynamic_reshape_chain_as_torch_writes_it() -> None:
    nodes = [
        _node("Shape", ["x"], ["s"]),
        _node("Gather", ["s", "zero"], ["n"], axis=0),
        _node("Unsqueeze", ["n", "axes0"], ["n1"]),
        _node("Concat", ["n1", "minus1"], ["target"], axis=0),
        _node("Reshape", ["x", "target"], ["flat"]),
        _node("Flatten", ["x"], ["y"], axis=2),
        _node("Size", ["x"], ["count"]),
    ]
    consts = {"zero": np.array(0, np.int64), "axes0": _ints(0), "minus1": _ints(-1)}
    outputs = {"flat": F32, "y": F32, "count": I64}
    for batch in (1, 3):
        _check(nodes, {"x": _x(batch, 2, 3, 4)}, consts, outputs)


@pytest.mark.parametrize(
    "starts, ends, axes, steps",
    [
        ([1, -1], [100, -100], [1, 2], [1, -1]),
        ([-1], [-100], [0], [-2]),
        ([0, 2], [-1, 1], [2, 1], [2, -1]),
        ([5], [10], [1], [1]),
    ],
)
def test_slice_clamping_and_negative_steps(starts, ends, axes, steps) -> None:
    consts = {"s": _ints(*starts), "e": _ints(*ends), "a": _ints(*axes), "t": _ints(*steps)}
    _check([_node("Slice", ["x", "s", "e", "a", "t"])], {"x": _x(4, 5, 6)}, consts)


def test_slice_with_attributes_before_opset_10() -> None:
    node = _node("Slice", ["x"], starts=[1, 0], ends=[3, -1], axes=[0, 2])
    _check([node], {"x": _x(4, 5, 6)}, opset=9)


@pytest.mark.parametrize("opset", [11, 13, 18])
def test_split_squeeze_unsqueeze_across_opsets(opset) -> None:
    if opset == 11:
        split = _node("Split", ["x"], ["a", "b"], axis=1, split=[1, 3])
        squeeze = _node("Squeeze", ["a"], ["c"], axes=[-2])
        unsqueeze = _node("Unsqueeze", ["c"], ["y"], axes=[0, -1])
        consts = {}
    elif opset == 13:
        split = _node("Split", ["x", "sizes"], ["a", "b"], axis=1)
        squeeze = _node("Squeeze", ["a", "sq"], ["c"])
        unsqueeze = _node("Unsqueeze", ["c", "un"], ["y"])
        consts = {"sizes": _ints(1, 3), "sq": _ints(-2), "un": _ints(0, -1)}
    else:
        split = _node("Split", ["x"], ["a", "b"], axis=1, num_outputs=2)
        squeeze = _node("Squeeze", ["a"], ["c"])
        unsqueeze = _node("Unsqueeze", ["c", "un"], ["y"])
        consts = {"un": _ints(0, -1)}
    x = _x(2, 4, 3) if opset != 18 else _x(2, 2, 3)
    _check([split, squeeze, unsqueeze], {"x": x}, consts, {"y": F32, "b": F32}, opset=opset)


@pytest.mark.parametrize("mode", ["constant", "reflect", "edge"])
def test_pad_modes_and_negative_pads(mode) -> None:
    consts = {"p": _ints(0, 1, -1, 0, 2, 1), "v": np.array(1.5, np.float32)}
    inputs = ["x", "p", "v"] if mode == "constant" else ["x", "p"]
    _check([_node("Pad", inputs, mode=mode)], {"x": _x(2, 4, 5)}, consts)


def test_pad_with_attributes_at_opset_10() -> None:
    node = _node("Pad", ["x"], pads=[0, 1, 0, 2], value=-1.0)
    _check([node], {"x": _x(3, 4)}, opset=10)


def test_gathers_expand_tile_and_generators() -> None:
    nodes = [
        _node("Gather", ["x", "idx"], ["g"], axis=1),
        _node("GatherElements", ["x", "eidx"], ["ge"], axis=2),
        _node("Expand", ["b", "shape"], ["ex"]),
        _node("Tile", ["b", "reps"], ["ti"]),
        _node(
            "ConstantOfShape", ["shape"], ["zeros"], value=helper.make_tensor("v", F32, [1], [2])
        ),
        _node("Range", ["start", "limit", "delta"], ["r"]),
        _node("Transpose", ["x"], ["t"], perm=[2, 0, 1]),
    ]
    consts = {
        "idx": _ints(0, -1, 2, 1).reshape(2, 2),
        "eidx": RNG.integers(-3, 3, (2, 4, 2)).astype(np.int64),
        "b": _x(3, 1),
        "shape": _ints(2, 3, 4),
        "reps": _ints(2, 3),
        "start": np.array(1, np.int64),
        "limit": np.array(9, np.int64),
        "delta": np.array(3, np.int64),
    }
    outputs = {n: F32 for n in ("g", "ge", "ex", "ti", "zeros", "t")} | {"r": I64}
    _check(nodes, {"x": _x(2, 4, 3)}, consts, outputs)


@pytest.mark.parametrize("mode", ["DCR", "CRD"])
def test_depth_to_space_and_back(mode) -> None:
    nodes = [
        _node("DepthToSpace", ["x"], ["d"], blocksize=2, mode=mode),
        _node("SpaceToDepth", ["d"], ["y"], blocksize=2),
    ]
    _check(nodes, {"x": _x(2, 8, 3, 4)}, outputs={"d": F32, "y": F32})


# --- reductions ---------------------------------------------------------------------------------
@pytest.mark.parametrize("opset", [13, 18])
@pytest.mark.parametrize(
    "op", ["ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL2",
           "ReduceLogSumExp", "ReduceSumSquare"],
)  # fmt: skip
def test_reductions_across_opsets(op, opset) -> None:
    axes_as_input = opset >= 18 or op == "ReduceSum"
    if axes_as_input:
        node = _node(op, ["x", "axes"], keepdims=0)
        consts = {"axes": _ints(0, -1)}
    else:
        node = _node(op, ["x"], axes=[0, -1], keepdims=0)
        consts = {}
    outputs = {"y": F32, "all": F32}
    _check([node, _node(op, ["x"], ["all"])], {"x": _x(2, 3, 4)}, consts, outputs, opset)


def test_arg_extremes_top_k_and_cumsum() -> None:
    x = np.array([[1, 3, 3, 0], [2, 2, 1, 5]], np.float32)
    nodes = [
        _node("ArgMax", ["x"], ["am"], axis=1, select_last_index=1),
        _node("ArgMin", ["x"], ["an"], axis=0, keepdims=0),
        _node("TopK", ["x", "k"], ["tv", "ti"], axis=1),
        _node("CumSum", ["x", "axis"], ["cs"], exclusive=1, reverse=1),
    ]
    consts = {"k": _ints(2), "axis": np.array(1, np.int64)}
    outputs = {"am": I64, "an": I64, "tv": F32, "ti": I64, "cs": F32}
    _check(nodes, {"x": x}, consts, outputs)


@pytest.mark.parametrize("zero_type", [np.uint8, np.int8])
def test_quantize_dequantize_per_tensor_and_per_axis(zero_type) -> None:
    nodes = [
        _node("QuantizeLinear", ["x", "s", "z"], ["q"]),
        _node("DequantizeLinear", ["q", "s", "z"], ["a"]),
        _node("DequantizeLinear", ["w", "ws", "wz"], ["b"], axis=1),
        _node("MatMul", ["a", "b"], ["y"]),
    ]
    consts = {
        "s": np.array(0.02, np.float32),
        "z": np.array(3, zero_type),
        "w": RNG.integers(-127, 127, (4, 5)).astype(np.int8),
        "ws": _floats(0.01, 0.02, 0.03, 0.04, 0.05),
        "wz": np.zeros(5, np.int8),
    }
    _check(nodes, {"x": _x(3, 4) * 3}, consts, {"y": F32}, opset=13, fused=False)
