"""Gradients through imported ONNX graphs equal central differences (float64): the
importer's compositions (PRelu, Shrink, Resize taps, Gemm scaling, negative pads, reversed
slices, per-group GroupNorm scales, pre-13 Softmax, ...) are differentiable as written, with
respect to the data and to weights fed as graph inputs."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing.gradient_check import check_backward

onnx = pytest.importorskip("onnx")
helper, numpy_helper = onnx.helper, onnx.numpy_helper
F64 = onnx.TensorProto.DOUBLE
RNG = np.random.default_rng(0)


def _layer(node, inputs: dict, consts: dict | None = None, opset: int = 17):
    graph = helper.make_graph(
        [node],
        "grad",
        [helper.make_tensor_value_info(k, F64, list(v.shape)) for k, v in inputs.items()],
        [helper.make_tensor_value_info("y", F64, None)],
        [numpy_helper.from_array(v, k) for k, v in (consts or {}).items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return framework.onnx.load(model.SerializeToString())


def _x(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape)


def _ints(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


CASES = {
    "prelu": (helper.make_node("PRelu", ["x", "s"], ["y"]), {"x": _x(2, 3, 4), "s": _x(3, 1)},
              {}, 17),
    "shrink": (helper.make_node("Shrink", ["x"], ["y"], lambd=0.3, bias=0.2), {"x": _x(3, 5)},
               {}, 17),
    "gemm": (helper.make_node("Gemm", ["a", "b", "c"], ["y"], transB=1, alpha=0.7, beta=1.5),
             {"a": _x(3, 4), "b": _x(5, 4), "c": _x(5)}, {}, 17),
    "conv_same": (helper.make_node("Conv", ["x", "w", "b"], ["y"], auto_pad="SAME_UPPER",
                                   strides=[2, 1], group=2),
                  {"x": _x(1, 4, 5, 4), "w": _x(2, 2, 3, 2), "b": _x(2)}, {}, 17),
    "conv_transpose_output_shape": (
        helper.make_node("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2], output_shape=[7, 6]),
        {"x": _x(1, 2, 3, 3), "w": _x(2, 3, 3, 2)}, {}, 17),
    "resize_linear": (helper.make_node("Resize", ["x", "", "s"], ["y"], mode="linear"),
                      {"x": _x(1, 2, 3, 4)}, {"s": np.array([1, 1, 1.7, 0.6])}, 13),
    "resize_cubic": (helper.make_node("Resize", ["x", "", "", "z"], ["y"], mode="cubic",
                                      exclude_outside=1),
                     {"x": _x(1, 1, 4, 5)}, {"z": _ints(1, 1, 6, 3)}, 13),
    "pad_negative_reflect": (helper.make_node("Pad", ["x", "p"], ["y"], mode="reflect"),
                             {"x": _x(2, 4, 5)}, {"p": _ints(0, 2, -1, 0, -1, 3)}, 17),
    "slice_reversed": (helper.make_node("Slice", ["x", "s", "e", "a", "t"], ["y"]),
                       {"x": _x(3, 5, 4)},
                       {"s": _ints(-1, 3), "e": _ints(-100, 0), "a": _ints(1, 2),
                        "t": _ints(-2, -1)}, 17),
    "group_norm_per_group_scale": (
        helper.make_node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=2),
        {"x": _x(2, 4, 3), "s": _x(2), "b": _x(2)}, {}, 18),
    "layer_norm_broadcast_scale": (
        helper.make_node("LayerNormalization", ["x", "s"], ["y"], axis=-2),
        {"x": _x(2, 3, 4), "s": _x(4)}, {}, 17),
    "softmax_opset_11": (helper.make_node("Softmax", ["x"], ["y"], axis=1), {"x": _x(2, 3, 4)},
                         {}, 11),
    "gather_negative": (helper.make_node("Gather", ["x", "i"], ["y"], axis=1),
                        {"x": _x(2, 5)}, {"i": _ints(-1, 0, -1, 2).reshape(2, 2)}, 17),
    "depth_to_space": (helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=2, mode="CRD"),
                       {"x": _x(1, 8, 2, 3)}, {}, 17),
    "cumsum_reverse_exclusive": (
        helper.make_node("CumSum", ["x", "a"], ["y"], exclusive=1, reverse=1),
        {"x": _x(3, 4)}, {"a": np.array(1, np.int64)}, 17),
    "max_pool_ceil": (helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 3],
                                       strides=[2, 2], ceil_mode=1),
                      {"x": _x(1, 2, 5, 6)}, {}, 17),
    "average_pool_exclusive_pads": (
        helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2],
                         pads=[1, 1, 1, 1]),
        {"x": _x(1, 2, 5, 5)}, {}, 17),
    "max_pool_dilated_opset_22": (
        helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], dilations=[2, 1],
                         pads=[1, 0, 0, 1]),
        {"x": _x(1, 2, 5, 4)}, {}, 22),
    "average_pool_3d_count_include_pad": (
        helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=[2, 2, 2], strides=[2, 1, 2],
                         pads=[1, 0, 1, 0, 1, 1], count_include_pad=1, ceil_mode=1),
        {"x": _x(1, 2, 3, 3, 4)}, {}, 22),
    "lp_pool": (helper.make_node("LpPool", ["x"], ["y"], kernel_shape=[2, 2], p=3),
                {"x": _x(1, 2, 3, 3)}, {}, 22),
    "rms_normalization": (helper.make_node("RMSNormalization", ["x", "s"], ["y"], axis=-2),
                          {"x": _x(2, 3, 4), "s": _x(3, 4)}, {}, 23),
    "attention_causal_gqa_with_cache": (
        helper.make_node("Attention", ["q", "k", "v", "", "pk", "pv"], ["y"], is_causal=1,
                         softcap=2.0),
        {"q": _x(1, 4, 3, 2), "k": _x(1, 2, 3, 2), "v": _x(1, 2, 3, 3), "pk": _x(1, 2, 2, 2),
         "pv": _x(1, 2, 2, 3)}, {}, 23),
    "attention_3d_float_mask": (
        helper.make_node("Attention", ["q", "k", "v", "m"], ["y"], q_num_heads=2,
                         kv_num_heads=2, scale=0.3),
        {"q": _x(2, 3, 4), "k": _x(2, 5, 4), "v": _x(2, 5, 6), "m": _x(3, 5)}, {}, 23),
    "rotary_embedding_interleaved": (
        helper.make_node("RotaryEmbedding", ["x", "c", "s"], ["y"], interleaved=1),
        {"x": _x(1, 2, 3, 4), "c": _x(1, 3, 2), "s": _x(1, 3, 2)}, {}, 23),
    "negative_log_likelihood_weighted": (
        helper.make_node("NegativeLogLikelihoodLoss", ["x", "t", "w"], ["y"], ignore_index=1),
        {"x": _x(3, 4, 2), "w": _x(4)}, {"t": _ints(0, 1, 3, 2, 1, 0).reshape(3, 2)}, 22),
    "lstm_bidirectional_peepholes": (
        helper.make_node("LSTM", ["x", "w", "r", "b", "", "", "", "p"], ["y"], hidden_size=2,
                         direction="bidirectional"),
        {"x": _x(3, 2, 3), "w": _x(2, 8, 3), "r": _x(2, 8, 2), "b": _x(2, 16), "p": _x(2, 6)},
        {}, 22),
    "gru_linear_before_reset_lengths": (
        helper.make_node("GRU", ["x", "w", "r", "b", "n"], ["y"], hidden_size=2,
                         linear_before_reset=1),
        {"x": _x(3, 2, 3), "w": _x(1, 6, 3), "r": _x(1, 6, 2), "b": _x(1, 12)},
        {"n": np.array([3, 2], np.int32)}, 22),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(CASES))
def test_gradients_through_imported_ops(case) -> None:
    node, inputs, consts, opset = CASES[case]
    layer = _layer(node, inputs, consts, opset)
    check_backward(lambda *tensors: layer(*tensors), list(inputs.values()))


def test_initializer_weights_receive_gradients() -> None:
    w = _x(3, 4)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["m"]), helper.make_node("Add", ["m", "b"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", F64, [2, 3])],
        [helper.make_tensor_value_info("y", F64, None)],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(_x(4), "b")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    layer = framework.onnx.load(model.SerializeToString())
    x = _x(2, 3)
    layer(x).sum().backward()
    np.testing.assert_allclose(layer.w.grad.numpy(), np.repeat(x.sum(0)[:, None], 4, axis=1))
    np.testing.assert_allclose(layer.b.grad.numpy(), np.full(4, 2.0))
