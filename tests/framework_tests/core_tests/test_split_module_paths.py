"""The modules split into packages (issue 22) keep every import path they had, and a pickle
written before the split, which names its classes and functions by the old module paths
(`framework.nn.layer.activation.ReLU`), still loads.

`data/saved_before_module_split.pkl` was written by the tree before the split (layers of each
split module, callbacks and functions); the table below lists the names each old module held.
"""

from __future__ import annotations

import importlib
import inspect
import pickle
import pickletools
from pathlib import Path

import numpy as np
import pytest

import framework
import framework.nn.functional as F
import framework.vision.transforms.functional as TF

_SAVED = Path(__file__).parent / "data" / "saved_before_module_split.pkl"

# The names each module held before the split (public ones defined or re-exported there).
OLD_PATHS: dict[str, tuple[str, ...]] = {
    "framework.nn.layer.activation": (
        "CELU",
        "Constant",
        "ELU",
        "GELU",
        "GLU",
        "Hardshrink",
        "Hardsigmoid",
        "Hardswish",
        "Hardtanh",
        "Layer",
        "LeakyReLU",
        "LogSigmoid",
        "LogSoftmax",
        "Maxout",
        "Mish",
        "PReLU",
        "RReLU",
        "ReLU",
        "ReLU6",
        "SELU",
        "SiLU",
        "Sigmoid",
        "Silu",
        "Softmax",
        "Softmax2D",
        "Softplus",
        "Softshrink",
        "Softsign",
        "Swish",
        "Tanh",
        "Tanhshrink",
        "Tensor",
        "ThresholdedReLU",
        "default_dtype",
        "maxout",
        "rrelu",
    ),
    "framework.nn.functional.activation": (
        "CELU",
        "ClipActivation",
        "ELU",
        "LeakyReLU",
        "PReLU",
        "ReLU",
        "Shrink",
        "Softsign",
        "TanhShrink",
        "ThresholdedReLU",
        "celu",
        "elu",
        "elu_",
        "gelu",
        "glu",
        "hardshrink",
        "hardsigmoid",
        "hardswish",
        "hardtanh",
        "hardtanh_",
        "leaky_relu",
        "leaky_relu_",
        "log_sigmoid",
        "log_softmax",
        "mish",
        "prelu",
        "relu",
        "relu6",
        "relu_",
        "selu",
        "sigmoid",
        "silu",
        "softmax",
        "softmax_",
        "softplus",
        "softshrink",
        "softsign",
        "swish",
        "tanh",
        "tanhshrink",
        "thresholded_relu",
        "thresholded_relu_",
    ),
    "framework.nn.layer.common": (
        "AlphaDropout",
        "Bilinear",
        "CircularPad1D",
        "CircularPad2D",
        "CircularPad3D",
        "ConstantPad1D",
        "ConstantPad2D",
        "ConstantPad3D",
        "CosineSimilarity",
        "Dropout",
        "Dropout2D",
        "Dropout3D",
        "Embedding",
        "FeatureAlphaDropout",
        "Flatten",
        "Fold",
        "Identity",
        "Layer",
        "Linear",
        "Pad1D",
        "Pad2D",
        "Pad3D",
        "ReflectionPad1D",
        "ReflectionPad2D",
        "ReflectionPad3D",
        "ReplicationPad1D",
        "ReplicationPad2D",
        "ReplicationPad3D",
        "Tensor",
        "Unflatten",
        "Unfold",
        "Upsample",
        "UpsamplingBilinear2D",
        "UpsamplingNearest2D",
        "ZeroPad1D",
        "ZeroPad2D",
        "ZeroPad3D",
        "array_of",
        "check_device",
        "check_dtype_and_device",
        "default_dtype",
        "flatten",
    ),
    "framework.nn.functional.common": (
        "alpha_dropout",
        "dropout",
        "dropout1d",
        "dropout2d",
        "dropout3d",
        "feature_alpha_dropout",
        "fold",
        "interpolate",
        "linear",
        "pad",
        "unfold",
        "upsample",
        "zeropad2d",
    ),
    "framework.nn.layer.rnn": (
        "BiRNN",
        "GRU",
        "GRUCell",
        "LSTM",
        "LSTMCell",
        "Layer",
        "LayerList",
        "RNN",
        "RNNBase",
        "RNNCellBase",
        "SimpleRNN",
        "SimpleRNNCell",
        "Tensor",
        "array_of",
        "batch_filled",
        "birnn",
        "concat",
        "map_structure",
        "rnn",
        "sequence_mask",
        "stack",
        "transpose",
        "unbind",
        "where",
        "zeros",
    ),
    "framework.nn.layer.norm": (
        "BatchNorm",
        "BatchNorm1D",
        "BatchNorm2D",
        "BatchNorm3D",
        "Constant",
        "GroupNorm",
        "InstanceNorm1D",
        "InstanceNorm2D",
        "InstanceNorm3D",
        "Layer",
        "LayerNorm",
        "LocalResponseNorm",
        "ParamAttr",
        "SpectralNorm",
        "SyncBatchNorm",
        "Tensor",
        "array_of",
        "check_channels",
        "check_dtype_and_device",
        "default_dtype",
    ),
    "framework.nn.layer.margin_loss": (
        "CosineEmbeddingLoss",
        "CosineSimilarity",
        "GaussianNLLLoss",
        "HingeEmbeddingLoss",
        "Layer",
        "MarginRankingLoss",
        "MultiLabelMarginLoss",
        "MultiLabelSoftMarginLoss",
        "MultiMarginLoss",
        "PairwiseDistance",
        "PoissonNLLLoss",
        "SoftMarginLoss",
        "Tensor",
        "TripletMarginLoss",
        "TripletMarginWithDistanceLoss",
        "check_reduction",
        "multi_label_margin_loss",
        "multi_margin_loss",
    ),
    "framework.vision.transforms.functional": (
        "Tensor",
        "adjust_brightness",
        "adjust_contrast",
        "adjust_hue",
        "adjust_saturation",
        "affine",
        "center_crop",
        "crop",
        "erase",
        "get_image_size",
        "hflip",
        "inverse_affine_matrix",
        "normalize",
        "pad",
        "perspective",
        "perspective_coefficients",
        "resize",
        "rotate",
        "to_grayscale",
        "to_tensor",
        "vflip",
    ),
    "framework.hapi.callbacks": (
        "Callback",
        "CallbackList",
        "EarlyStopping",
        "LRScheduler",
        "MetricsLogger",
        "ModelCheckpoint",
        "ProgBarLogger",
        "ReduceLROnPlateau",
        "config_callbacks",
    ),
}


_CASES = [(module, name) for module, names in OLD_PATHS.items() for name in names]


@pytest.mark.parametrize(("module", "name"), _CASES)
def test_it_keeps_the_old_import_path(module: str, name: str) -> None:
    obj = getattr(importlib.import_module(module), name)
    public = F if module.startswith("framework.nn.functional.") else framework.nn
    if module.startswith("framework.nn.") and hasattr(public, name):
        assert getattr(public, name) is obj, f"{module}.{name} is not {public.__name__}.{name}"


@pytest.mark.parametrize(("module", "name"), _CASES)
def test_it_unpickles_a_reference_by_the_old_path(module: str, name: str) -> None:
    obj = getattr(importlib.import_module(module), name)
    if not (inspect.isclass(obj) or inspect.isfunction(obj)):
        pytest.skip("only classes and functions are pickled by reference")
    reference = b"c" + module.encode() + b"\n" + name.encode() + b"\n."  # protocol 0 GLOBAL
    assert pickle.loads(reference) is obj


def _named_modules(data: bytes) -> set[str]:
    return {
        arg
        for op, arg, _ in pickletools.genops(data)
        if op.name.endswith("UNICODE") and isinstance(arg, str) and arg.startswith("framework.")
    }


def test_the_saved_file_names_the_old_paths() -> None:
    named = _named_modules(_SAVED.read_bytes())
    assert set(OLD_PATHS) <= named
    assert framework.nn.ReLU.__module__ not in named  # the classes live elsewhere now


def test_it_loads_layers_saved_before_the_split() -> None:
    saved = pickle.loads(_SAVED.read_bytes())
    image, lstm = saved["image"], saved["lstm"]
    assert [type(layer) for layer in image] == [
        framework.nn.Pad2D,
        framework.nn.Upsample,
        framework.nn.BatchNorm2D,
        framework.nn.GroupNorm,
        framework.nn.Hardshrink,
        framework.nn.Flatten,
        framework.nn.Linear,
        framework.nn.LayerNorm,
        framework.nn.ReLU,
        framework.nn.Sigmoid,
        framework.nn.GLU,
        framework.nn.Softmax,
    ]
    np.testing.assert_allclose(
        image(framework.to_tensor(saved["x"])).numpy(), saved["image_out"], rtol=1e-6
    )
    assert type(lstm) is framework.nn.LSTM
    out, _ = lstm(framework.to_tensor(saved["seq"]))
    np.testing.assert_allclose(out.numpy(), saved["lstm_out"], rtol=1e-6, atol=1e-7)
    assert type(saved["similarity"]) is framework.nn.CosineSimilarity
    assert type(saved["ranking"]) is framework.nn.MarginRankingLoss
    assert type(saved["embedding"]) is framework.nn.Embedding
    assert type(saved["unfold"]) is framework.nn.Unfold


def test_it_loads_callbacks_and_functions_saved_before_the_split() -> None:
    saved = pickle.loads(_SAVED.read_bytes())
    stopping, checkpoint = saved["callbacks"]
    assert type(stopping) is framework.callbacks.EarlyStopping and stopping.patience == 3
    assert type(checkpoint) is framework.callbacks.ModelCheckpoint
    assert saved["functions"] == [
        F.relu,
        F.elu,
        F.softshrink,
        F.dropout,
        F.interpolate,
        F.unfold,
        TF.resize,
        framework.nn.layer.rnn.rnn,
    ]
