"""The module paths Paddle code imports from exist, and hold the framework's own objects:
`paddle.tensor.*`, `paddle.nn.layer.*`, `paddle.framework`, `paddle.base` and the static-mode
switches. Paddle's documented examples that use these paths run unchanged."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import framework
import framework as paddle

ROOT = Path(__file__).resolve().parents[3]

TENSOR_SUBMODULES = (
    "array",
    "attribute",
    "creation",
    "einsum",
    "linalg",
    "logic",
    "manipulation",
    "math",
    "ops",
    "random",
    "search",
    "stat",
)


# paddle.tensor names whose object the framework has under another name or module.
_ELSEWHERE = {
    "div_": framework.divide_,
    "mul_": framework.multiply_,
    "sub_": framework.subtract_,
    "inverse": framework.linalg.inv,
    "sigmoid": framework.nn.functional.sigmoid,
    # Tensor arrays are lists in dynamic mode; their functions live only under paddle.tensor.
    "create_array": framework.tensor.array.create_array,
    "array_write": framework.tensor.array.array_write,
    "array_read": framework.tensor.array.array_read,
    "array_length": framework.tensor.array.array_length,
    # Legacy and sampling functions Paddle keeps only under paddle.tensor.
    "create_tensor": importlib.import_module("framework.ops.creation.create_tensor").create_tensor,
    "set_": importlib.import_module("framework.ops.manipulation.set_storage").set_,
    "top_p_sampling": importlib.import_module("framework.ops.search.top_p_sampling").top_p_sampling,
    "stft": framework.signal.stft,
    "istft": framework.signal.istft,
    "tensor_method_func": framework.tensor.method_lists.tensor_method_func,
    "magic_method_func": framework.tensor.method_lists.magic_method_func,
}


def _origin(name: str):
    if name in _ELSEWHERE:
        return _ELSEWHERE[name]
    if hasattr(framework, name):
        return getattr(framework, name)
    if hasattr(framework.linalg, name):
        return getattr(framework.linalg, name)
    return inspect.getattr_static(framework.Tensor, name)  # an in-place op bound as a method


# --- paddle.tensor ---------------------------------------------------------------------------


@pytest.mark.parametrize("sub", TENSOR_SUBMODULES)
def test_tensor_submodules_reexport_the_framework_objects(sub):
    module = importlib.import_module(f"framework.tensor.{sub}")
    assert module.__doc__ and f"paddle.tensor.{sub}" in module.__doc__
    assert module.__all__
    for name in module.__all__:
        assert getattr(module, name) is _origin(name), f"framework.tensor.{sub}.{name}"


def test_tensor_top_level_is_every_submodule_name():
    names = set(framework.tensor.__all__)
    for sub in TENSOR_SUBMODULES:
        assert set(importlib.import_module(f"framework.tensor.{sub}").__all__) <= names
    for name in names:
        assert getattr(framework.tensor, name) is _origin(name)


def test_tensor_paths_as_paddle_code_uses_them():
    from framework.tensor.creation import to_tensor
    from framework.tensor.linalg import cholesky, matmul
    from framework.tensor.manipulation import reshape
    from framework.tensor.math import add

    x = to_tensor([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(paddle.tensor.math.add(x, x).numpy(), 2 * x.numpy())
    assert add is paddle.add and reshape is paddle.reshape and matmul is paddle.matmul
    assert cholesky is paddle.linalg.cholesky
    assert paddle.tensor.manipulation.reshape(x, [4]).shape == [4]
    assert paddle.tensor.stat.mean is paddle.mean
    assert paddle.tensor.search.argmax is paddle.argmax
    assert paddle.tensor.logic.equal is paddle.equal
    assert paddle.tensor.random.randn is paddle.randn
    assert paddle.tensor.attribute.shape is paddle.shape
    y = paddle.to_tensor([4.0, 9.0])
    paddle.tensor.ops.sqrt_(y)  # the in-place ops Paddle binds onto Tensor, as functions
    np.testing.assert_allclose(y.numpy(), [2.0, 3.0])
    np.testing.assert_allclose(paddle.tensor.math.inverse(x).numpy(), np.linalg.inv(x.numpy()))


def test_tensor_einsum_names_the_function_and_its_module_still_imports():
    einsum_module = importlib.import_module("framework.tensor.einsum")  # as in Paddle, the
    # attribute `framework.tensor.einsum` is the function, so `import ... as` would get that

    assert einsum_module is not paddle.tensor.einsum
    assert paddle.tensor.einsum is paddle.einsum
    assert einsum_module.einsum is paddle.einsum
    x = paddle.ones([2, 3])
    assert paddle.tensor.einsum("ij->j", x).shape == [3]


def test_tensor_coverage_against_paddle():
    pt = pytest.importorskip("paddle.tensor")
    import types

    public = [
        n
        for n in dir(pt)
        if not n.startswith("_") and not isinstance(getattr(pt, n), types.ModuleType)
    ]
    ours = [n for n in public if hasattr(framework, n) or hasattr(framework.linalg, n)]
    assert [n for n in ours if not hasattr(framework.tensor, n)] == []


# --- paddle.nn.layer -------------------------------------------------------------------------

LAYER_PATHS = {
    "loss": [
        "BCELoss",
        "BCEWithLogitsLoss",
        "CTCLoss",
        "CosineEmbeddingLoss",
        "CrossEntropyLoss",
        "GaussianNLLLoss",
        "HingeEmbeddingLoss",
        "KLDivLoss",
        "L1Loss",
        "MSELoss",
        "MarginRankingLoss",
        "MultiLabelSoftMarginLoss",
        "NLLLoss",
        "PoissonNLLLoss",
        "SmoothL1Loss",
        "SoftMarginLoss",
        "TripletMarginLoss",
    ],
    "transformer": [
        "MultiHeadAttention",
        "Transformer",
        "TransformerDecoder",
        "TransformerDecoderLayer",
        "TransformerEncoder",
        "TransformerEncoderLayer",
    ],
    "conv": ["Conv1D", "Conv1DTranspose", "Conv2D", "Conv2DTranspose", "Conv3D", "Conv3DTranspose"],
    "norm": [
        "BatchNorm",
        "BatchNorm1D",
        "BatchNorm2D",
        "BatchNorm3D",
        "GroupNorm",
        "InstanceNorm1D",
        "InstanceNorm2D",
        "InstanceNorm3D",
        "LayerNorm",
    ],
    "activation": ["GELU", "ReLU", "Sigmoid", "Softmax", "Tanh", "LeakyReLU"],
    "common": [
        "AlphaDropout",
        "CosineSimilarity",
        "Dropout",
        "Dropout2D",
        "Dropout3D",
        "Embedding",
        "Flatten",
        "Identity",
        "Linear",
        "Pad1D",
        "Pad2D",
        "Pad3D",
        "Upsample",
        "ZeroPad2D",
        "ZeroPad3D",
    ],
    "pooling": [
        "AdaptiveAvgPool1D",
        "AdaptiveAvgPool2D",
        "AdaptiveAvgPool3D",
        "AdaptiveMaxPool3D",
        "AvgPool2D",
        "AvgPool3D",
        "MaxPool2D",
        "MaxPool3D",
    ],
    "rnn": ["GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "BiRNN", "SimpleRNN", "SimpleRNNCell"],
    "container": ["LayerDict", "LayerList", "ParameterList", "Sequential"],
    "layers": ["Layer"],
    "distance": ["PairwiseDistance"],
    "vision": ["ChannelShuffle", "PixelShuffle", "PixelUnshuffle"],
}


@pytest.mark.parametrize("sub", sorted(LAYER_PATHS))
def test_nn_layer_modules_hold_the_nn_layers(sub):
    module = importlib.import_module(f"framework.nn.layer.{sub}")
    for name in LAYER_PATHS[sub]:
        assert getattr(module, name) is getattr(framework.nn, name), f"nn.layer.{sub}.{name}"


def test_nn_layer_matches_paddle_layout():
    """Every layer Paddle defines in paddle.nn.layer.<sub> that framework.nn has is importable
    from framework.nn.layer.<sub>."""
    pytest.importorskip("paddle")
    for sub in sorted(LAYER_PATHS):
        theirs = importlib.import_module(f"paddle.nn.layer.{sub}")
        ours = importlib.import_module(f"framework.nn.layer.{sub}")
        names = [
            n
            for n, v in vars(theirs).items()
            if isinstance(v, type) and v.__module__ == theirs.__name__ and hasattr(framework.nn, n)
        ]
        assert [n for n in names if getattr(ours, n, None) is not getattr(framework.nn, n)] == []


def test_each_layer_module_imports_first_in_a_fresh_process():
    """The sibling re-exports at the end of conv/norm/common/pooling/loss/transformer must not
    make any import order fail."""
    modules = [f"framework.nn.layer.{s}" for s in LAYER_PATHS] + [
        f"framework.nn.layer.{s}"
        for s in (
            "conv3d",
            "norm3d",
            "padding3d",
            "padding_modes",
            "lp_pool",
            "max_unpool",
            "fractional_pool",
            "sync_batch_norm",
            "adaptive_log_softmax",
            "hsigmoid_loss",
            "rnnt_loss",
            "bilinear",
            "spectral_norm",
            "pooling3d",
            "transformer_decoder",
            "dropout",
            "margin_loss",
            "ctc_loss",
        )
    ]
    code = "; ".join(f"import {m}" for m in reversed(modules))
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


# --- paddle.framework, static-mode switches, paddle.base -----------------------------------------


def test_framework_module():
    from framework.framework import ParamAttr, get_default_dtype, seed, set_default_dtype

    assert ParamAttr is paddle.ParamAttr and seed is paddle.seed
    assert get_default_dtype is paddle.get_default_dtype
    assert set_default_dtype is paddle.set_default_dtype
    assert paddle.framework.in_dynamic_mode() is True
    assert paddle.framework.Parameter is paddle.Parameter
    assert paddle.framework.no_grad is paddle.no_grad


def test_static_mode_switches():
    assert paddle.in_dynamic_mode() is True
    assert paddle.disable_static() is None
    paddle.disable_static(paddle.CPUPlace())
    assert paddle.get_device() == "cpu"
    with pytest.raises(NotImplementedError, match="jit.to_static"):
        paddle.enable_static()
    assert paddle.in_dynamic_mode() is True


def test_base_module():
    import framework.base as base
    from framework.base.param_attr import ParamAttr

    assert ParamAttr is paddle.ParamAttr and base.ParamAttr is paddle.ParamAttr
    assert base.framework.Parameter is paddle.Parameter
    assert base.framework.in_dygraph_mode() and base.in_dygraph_mode()
    assert base.dygraph.enabled()
    assert base.initializer.set_global_initializer is paddle.nn.initializer.set_global_initializer
    assert base.dygraph.no_grad is paddle.no_grad
    assert base.dygraph.base.guard is base.dygraph.guard
    base.enable_dygraph()
    with pytest.raises(NotImplementedError):
        base.disable_dygraph()


def test_base_unique_name_like_paddle():
    from framework.base import unique_name

    real = pytest.importorskip("paddle.base.unique_name")
    for m in (unique_name, real):
        with m.guard():
            assert [m.generate("fc"), m.generate("fc"), m.generate("conv")] == [
                "fc_0",
                "fc_1",
                "conv_0",
            ]
            with m.guard("model_"):
                assert m.generate("fc") == "model_fc_0"
            assert m.generate("fc") == "fc_2"
    with unique_name.guard():
        layer = paddle.nn.Linear(2, 2)
        assert layer.weight.name == "linear_0.w_0"
    for m, make in (
        (unique_name, paddle.nn.Linear),
        (real, pytest.importorskip("paddle").nn.Linear),
    ):
        with m.guard("net_"):
            layer = make(2, 2)
            # the prefix lands twice on parameters, in Paddle as here: names build on the layer's
            assert (layer._full_name, layer.weight.name) == ("net_linear_0", "net_net_linear_0.w_0")


def test_base_data_feeder_matches_paddle_in_dynamic_mode():
    from framework.base.data_feeder import (
        check_dtype,
        check_shape,
        check_type,
        check_variable_and_dtype,
        convert_dtype,
    )

    real = pytest.importorskip("paddle.base.data_feeder")
    for dtype in ["float32", np.float16, np.dtype("int64"), "bool", np.int8]:
        assert convert_dtype(dtype) == real.convert_dtype(dtype)
    assert convert_dtype(paddle.float32) == "float32"
    x = paddle.ones([2])
    # no-ops in dynamic-graph mode, as Paddle's
    assert check_type(x, "x", (paddle.Tensor,), "op") is None
    assert check_dtype(x.dtype, "x", ["int8"], "op") is None
    assert check_variable_and_dtype(x, "x", ["int8"], "op") is None
    assert check_shape([2, 3], "op") is None


@pytest.mark.parametrize(
    "make",
    [
        lambda b: b.Program(),
        lambda b: b.Executor(),
        lambda b: b.default_main_program(),
        lambda b: b.default_startup_program(),
        lambda b: b.program_guard(None),
    ],
)
def test_base_static_graph_names_raise_and_point_at_to_static(make):
    with pytest.raises(NotImplementedError, match="jit.to_static"):
        make(paddle.base)


def test_dygraph_guard_restores_the_device():
    before = paddle.get_device()
    with paddle.base.dygraph.guard(paddle.CPUPlace()):
        assert paddle.get_device() == "cpu"
    assert paddle.get_device() == before


# --- Paddle's own documented examples, unchanged but for `import framework as paddle` ----------

PADDLE_EXAMPLES = {
    # paddle.base.dygraph.guard; Paddle 3.3's example calls base.dygraph.base.to_variable, which
    # Paddle 3.3 itself no longer has, so it uses paddle.to_tensor here
    "dygraph_guard": """
        import numpy as np
        import paddle.base as base

        with base.dygraph.guard():
            inp = np.ones([3, 1024], dtype='float32')
            t = paddle.to_tensor(inp)
            linear1 = paddle.nn.Linear(1024, 4, bias_attr=False)
            linear2 = paddle.nn.Linear(4, 4)
            ret = linear1(t)
            dy_ret = linear2(ret)
        result = dy_ret.shape
    """,
    # paddle.nn.TransformerEncoderLayer, imported from its module path
    "transformer_encoder_layer": """
        from paddle.nn.layer.transformer import TransformerEncoderLayer

        enc_input = paddle.rand((2, 4, 128))
        attn_mask = paddle.rand((2, 2, 4, 4))
        encoder_layer = TransformerEncoderLayer(128, 2, 512)
        enc_output = encoder_layer(enc_input, attn_mask)
        result = list(enc_output.shape)
    """,
    # paddle.nn.MarginRankingLoss, imported from paddle.nn.layer.loss
    "margin_ranking_loss": """
        from paddle.nn.layer.loss import MarginRankingLoss

        input = paddle.to_tensor([[1, 2], [3, 4]], dtype="float32")
        other = paddle.to_tensor([[2, 1], [2, 4]], dtype="float32")
        label = paddle.to_tensor([[1, -1], [-1, -1]], dtype="float32")
        margin_rank_loss = MarginRankingLoss()
        loss = margin_rank_loss(input, other, label)
        result = float(loss)
    """,
    "tensor_math_add": """
        x = paddle.to_tensor([2, 3, 4], 'float64')
        y = paddle.to_tensor([1, 5, 2], 'float64')
        z = paddle.tensor.math.add(x, y)
        result = z.numpy().tolist()
    """,
}


def _run_example(source: str, module) -> object:
    source = textwrap.dedent(source)
    if module is framework:
        source = source.replace("import paddle.", "import framework.").replace(
            "from paddle.", "from framework."
        )
    scope = {"paddle": module}
    exec(compile(source, "<paddle example>", "exec"), scope)  # noqa: S102 - Paddle's doc examples
    return scope["result"]


@pytest.mark.parametrize("name", sorted(PADDLE_EXAMPLES))
def test_paddle_documented_examples_run_unchanged(name):
    ours = _run_example(PADDLE_EXAMPLES[name], framework)
    real = pytest.importorskip("paddle")
    real.seed(0)
    theirs = _run_example(PADDLE_EXAMPLES[name], real)
    if name != "transformer_encoder_layer":
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)
    else:
        assert ours == list(theirs) == [2, 4, 128]
