"""Converting a weights file: read it without executing anything, fit it to a zoo architecture,
and check that the network runs. Runs in a child process under a memory ceiling (see
modelzoo.services.weights), so it touches no database rows and no storage: paths in, a
safetensors file and a JSON report out.

Formats: `.safetensors` (read directly), `.pth` / `.pt` (framework.interop.torch: a restricted
unpickler, then torch names and layouts mapped onto the architecture), `.pdparams`
(framework.interop.paddle), `.onnx` (framework.onnx: the graph's initializers, by framework
name or as a torch export; the imported network must then reproduce the graph's outputs).
Every allocation the file can steer is bounded by ``max_bytes`` (the unpicklers' budget).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from core.errors import without_paths
from core.stored_messages import Joined
from modelzoo import messages as said
from modelzoo.catalog import Architecture, get_architecture, head_keys
from modelzoo.models import Weights

EXTENSIONS = {
    ".safetensors": Weights.Format.SAFETENSORS,
    ".pth": Weights.Format.TORCH,
    ".pt": Weights.Format.TORCH,
    ".pdparams": Weights.Format.PADDLE,
    ".onnx": Weights.Format.ONNX,
}


def onnx_import_available() -> bool:
    return importlib.util.find_spec("framework.onnx") is not None


def supported_formats() -> list[str]:
    formats = [".safetensors", ".pth", ".pt", ".pdparams"]
    return formats + [".onnx"] if onnx_import_available() else formats


def supported_text() -> str:
    text = ".safetensors, .pth / .pt (PyTorch), .pdparams (PaddlePaddle)"
    return text + " or .onnx" if onnx_import_available() else text


@dataclass
class FittedWeights:
    network: Any
    num_classes: int
    report: dict[str, Any]


def format_of(filename: str) -> str:
    suffix = Path(filename).suffix.lower()
    if suffix not in EXTENSIONS:
        # Raised in the web request: the request's language is active.
        raise ValidationError(
            _("“%(name)s” is not a weights file Sampan can read. Upload %(formats)s.")
            % {"name": filename, "formats": supported_text()}
        )
    if suffix == ".onnx" and not onnx_import_available():
        raise ValidationError(
            _(
                "ONNX import is not available yet in this version of Sampan. "
                "Upload %(formats)s instead."
            )
            % {"formats": supported_text()}
        )
    return EXTENSIONS[suffix]


def convert_to_file(
    *, architecture: str, path: str, fmt: str, name: str, output: str, max_bytes: int
) -> dict[str, Any]:
    """Fits the file at ``path`` to ``architecture`` and writes the weights, with framework
    names, to the safetensors file ``output``. Returns ``{"num_classes", "report"}``."""
    from safetensors.numpy import save_file

    fitted = fit_file(
        get_architecture(architecture), Path(path), fmt, name=name, max_bytes=max_bytes
    )
    arrays = {k: np.ascontiguousarray(v.numpy()) for k, v in fitted.network.state_dict().items()}
    save_file(arrays, output)
    return {"num_classes": fitted.num_classes, "report": fitted.report}


def read_arrays(path: Path, fmt: str, *, name: str, max_bytes: int) -> dict[str, Any]:
    """The file's tensors as NumPy arrays; ValidationError for a refused or damaged file.
    ``name`` is what messages call the file (never the server's path)."""
    from safetensors import SafetensorError

    from framework.interop import CheckpointError, CheckpointTooLargeError, UnsafePickleError

    try:
        if fmt == Weights.Format.SAFETENSORS:
            from safetensors.numpy import load_file

            return dict(load_file(str(path)))
        if fmt == Weights.Format.TORCH:
            from framework.interop import torch as torch_interop

            return torch_interop.load_state_dict(path, name=name, max_bytes=max_bytes)
        if fmt == Weights.Format.PADDLE:
            from framework.interop import paddle as paddle_interop

            return paddle_interop.load_state_dict(path, name=name, max_bytes=max_bytes)
    except UnsafePickleError as error:
        raise ValidationError(said.UNSAFE_PICKLE(details=str(error))) from None
    except CheckpointTooLargeError as error:
        message = str(error)  # "refusing to load 'x': it asks for ... memory"
        raise ValidationError(
            said.TOO_LARGE_TO_LOAD(details=f"{message[:1].upper()}{message[1:]}")
        ) from None
    except (CheckpointError, SafetensorError, ValueError, OSError) as error:
        reason = without_paths(str(error))
        raise ValidationError(said.UNREADABLE_AS(name=name, format=fmt, reason=reason)) from None
    raise ValidationError(said.IMPORT_UNAVAILABLE(format=fmt))


def _read_onnx(path: Path, name: str) -> Any:
    """The parsed model. External data files are refused: an upload is one file, and a name
    it gave could otherwise point at another file on the server."""
    from framework.onnx import OnnxFormatError
    from framework.onnx.proto import parse_model

    try:
        return parse_model(path.read_bytes(), base_dir=None)
    except OnnxFormatError as error:
        if "external file" in str(error):
            raise ValidationError(said.EXTERNAL_DATA(name=name)) from None
        reason = without_paths(str(error))
        raise ValidationError(said.UNREADABLE_AS(name=name, format="ONNX", reason=reason)) from None


def fit_file(
    arch: Architecture, path: Path, fmt: str, *, name: str, max_bytes: int
) -> FittedWeights:
    """The file's weights fitted to ``arch``; ValidationError says why they do not fit."""
    if fmt == Weights.Format.ONNX:
        return _fit_onnx(arch, _read_onnx(path, name))
    arrays = read_arrays(path, fmt, name=name, max_bytes=max_bytes)
    if fmt == Weights.Format.TORCH:
        return _fit_torch(arch, arrays)
    return _fit_by_name(arch, _flat(arrays), fmt)


def _fit_onnx(arch: Architecture, model: Any) -> FittedWeights:
    """Initializers named as the framework names them (Sampan's own exports), else as a torch
    export names them; then the network must give the ONNX graph's own outputs. A graph also
    keeps constants among its initializers (a Reshape's shape, say): those are not weights."""
    arrays = _flat(dict(model.graph.initializers))
    try:
        fitted = _fit_by_name(arch, arrays, Weights.Format.ONNX, constants_allowed=True)
    except ValidationError as by_name:
        try:
            fitted = _fit_torch(arch, arrays, Weights.Format.ONNX)
        except ValidationError:
            raise by_name from None  # the framework's own names came closer: say why they failed
    _compare_with_graph(arch, fitted, model)
    return fitted


def _compare_with_graph(arch: Architecture, fitted: FittedWeights, model: Any) -> None:
    import framework

    sample = np.random.default_rng(0).standard_normal((1, *arch.input_shape()), dtype=np.float32)
    try:
        graph = framework.onnx.load(model)
        with framework.no_grad():
            theirs = np.asarray(graph(sample).numpy())
    except Exception as error:  # an op the importer lacks: the shapes still fitted
        reason = without_paths(str(error))
        fitted.report["check"] += f" The ONNX graph itself could not run here ({reason})."
        return
    fitted.network.eval()
    with framework.no_grad():
        ours = np.asarray(fitted.network(framework.to_tensor(sample)).numpy())
    if ours.shape != theirs.shape:
        raise ValidationError(
            said.OUTPUTS_DIFFER_IN_SHAPE(
                arch=arch.name, ours=str(list(ours.shape)), theirs=str(list(theirs.shape))
            )
        )
    difference = float(np.abs(ours - theirs).max())
    if difference > 1e-3 * max(1.0, float(np.abs(theirs).max())):
        raise ValidationError(said.OUTPUTS_DIFFER(arch=arch.name, difference=f"{difference:.3g}"))
    fitted.report["check"] += (
        f" It reproduces the ONNX graph's outputs on a random input (largest difference "
        f"{difference:.2g})."
    )


def _flat(arrays: dict[str, Any]) -> dict[str, np.ndarray]:
    flat = {k: np.asarray(v) for k, v in arrays.items() if hasattr(v, "shape")}
    if not flat:
        raise ValidationError(said.NO_TENSORS())
    return flat


def _head_size(arch: Architecture, shapes: dict[str, tuple]) -> int:
    for key in sorted(head_keys(arch.key)):
        shape = shapes.get(key)
        if shape is not None and len(shape) == 1:
            return int(shape[0])
    keys = ", ".join(sorted(head_keys(arch.key)))
    raise ValidationError(said.NO_HEAD(arch=arch.name, keys=keys))


def _fit_by_name(
    arch: Architecture,
    arrays: dict[str, np.ndarray],
    fmt: str,
    *,
    constants_allowed: bool = False,
) -> FittedWeights:
    """Weights named as the framework names its parameters; ``constants_allowed`` ignores
    extra arrays (an ONNX graph's constants) once every parameter is there."""
    num_classes = _head_size(arch, {k: v.shape for k, v in arrays.items()})
    network = arch.build(num_classes)
    expected = network.state_dict()
    missing = [k for k in expected if k not in arrays]
    unexpected = [] if constants_allowed else [k for k in arrays if k not in expected]
    wrong = [
        (k, tuple(arrays[k].shape), tuple(expected[k].shape))
        for k in expected
        if k in arrays and tuple(arrays[k].shape) != tuple(expected[k].shape)
    ]
    if missing or unexpected or wrong:
        raise ValidationError(_misfit(arch, fmt, len(expected), missing, unexpected, wrong))
    network.set_state_dict({k: arrays[k].astype(expected[k].numpy().dtype) for k in expected})
    report = {
        "tensors": len(expected),
        "renamed": 0,
        "transposed": 0,
        "dropped": 0,
        "layers": _layers(expected),
    }
    if constants_allowed:
        report["constants_ignored"] = len([k for k in arrays if k not in expected])
    return FittedWeights(network, num_classes, _checked(arch, network, num_classes, report))


def _fit_torch(
    arch: Architecture, state: dict[str, Any], fmt: str = Weights.Format.TORCH
) -> FittedWeights:
    """Weights named and laid out as torch names and lays out its parameters."""
    from framework.interop.torch import convert_state_dict

    probe = arch.build(arch.profile_classes)
    _, report = convert_state_dict(state, probe, strict=False)
    head = {target: got for target, _, got, _ in report.mismatched if target in head_keys(arch.key)}
    shapes = {k: tuple(v.shape) for k, v in probe.state_dict().items() if k in report.matched}
    num_classes = _head_size(arch, {**shapes, **head})
    network = arch.build(num_classes)
    converted, report = convert_state_dict(state, network, strict=False)
    if not report.ok:
        linear = _linear_weights(network)  # torch keeps these [out, in], we keep [in, out]
        wrong = [
            (source, tuple(got), tuple(want)[::-1] if target in linear else tuple(want))
            for target, source, got, want in report.mismatched
        ]
        total = len(network.state_dict())
        unexpected = [] if fmt == Weights.Format.ONNX else report.unexpected
        if report.missing or unexpected or wrong:
            raise ValidationError(_misfit(arch, fmt, total, report.missing, unexpected, wrong))
    network.set_state_dict(converted)
    summary = {
        "tensors": len(report.matched),
        "renamed": len(report.renamed),
        "transposed": len(report.transposed),
        "dropped": len(report.dropped),
        "layers": _layers(report.matched),
    }
    if report.source_key:
        summary["source_key"] = report.source_key
    return FittedWeights(network, num_classes, _checked(arch, network, num_classes, summary))


def _linear_weights(network: Any) -> set[str]:
    from framework import nn

    return {
        f"{name}.weight"
        for name, layer in network.named_sublayers()
        if isinstance(layer, nn.Linear)
    }


def _layers(parameters: Any) -> list[str]:
    """The layers the weights were fitted to: parameter names without their last part."""
    return sorted({name.rsplit(".", 1)[0] for name in parameters})


def _misfit(
    arch: Architecture,
    fmt: str,
    total: int,
    missing: list[str],
    unexpected: list[str],
    wrong: list[tuple[str, tuple, tuple]],
) -> str:
    """Why a file does not fit ``arch``, in the terms of what was uploaded, and what to do: a
    run of stored messages, so it reads in the reader's language."""
    fitting = total - len(missing) - len(wrong)
    kind = said.FORMAT_NAMES[fmt]() if fmt in said.FORMAT_NAMES else fmt
    parts: list[str] = [
        said.DOES_NOT_FIT(format=kind, arch=arch.name, fitting=fitting, total=total)
    ]
    if wrong:
        shown = Joined(
            "; ",
            [
                said.SHAPE_DIFFERS(
                    name=name, got=str(list(got)), arch=arch.name, need=str(list(need))
                )
                for name, got, need in wrong[:3]
            ],
        )
        parts.append(said.OTHER_SHAPES(shown=shown, more=_more(wrong)))
    if missing:
        parts.append(said.MISSING(names=", ".join(missing[:5]), more=_more(missing, 5)))
    if unexpected:
        names = ", ".join(unexpected[:5])
        parts.append(said.NOT_IN_ARCH(arch=arch.name, names=names, more=_more(unexpected, 5)))
    parts.append(said.CHOOSE_SAVED_FROM() if fitting < total / 2 else said.CHOOSE_SAME_LAYERS())
    sentences = parts[0]
    for part in parts[1:]:
        sentences = said.THEN(first=sentences, then=part)
    return sentences


def _more(items: list[Any], shown: int = 3) -> str:
    return said.AND_MORE(count=len(items) - shown) if len(items) > shown else ""


def _checked(
    arch: Architecture, network: Any, num_classes: int, report: dict[str, Any]
) -> dict[str, Any]:
    """Runs one forward pass: the weights must give finite outputs of the right shape."""
    import framework

    shape = (1, *arch.input_shape())
    network.eval()
    with framework.no_grad():
        output = network(framework.zeros(list(shape))).numpy()
    if output.shape != (1, num_classes) or not np.isfinite(output).all():
        nonfinite = "" if np.isfinite(output).all() else said.WITH_NAN()
        raise ValidationError(said.BAD_FORWARD(shape=str(list(output.shape)), nonfinite=nonfinite))
    report["num_classes"] = num_classes
    report["check"] = (
        f"A forward pass on a {'×'.join(map(str, shape))} input gave finite outputs for "
        f"{num_classes} classes."
    )
    return report
