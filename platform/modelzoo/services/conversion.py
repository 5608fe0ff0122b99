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

from core.errors import without_paths
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
        raise ValidationError(
            f"“{filename}” is not a weights file Sampan can read. Upload {supported_text()}."
        )
    if suffix == ".onnx" and not onnx_import_available():
        raise ValidationError(
            "ONNX import is not available yet in this version of Sampan. "
            f"Upload {supported_text()} instead."
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
        raise ValidationError(
            "Refused: the file holds Python objects other than tensors, which Sampan never "
            f"loads (it could run code). Save only the state dict. Details: {error}"
        ) from None
    except CheckpointTooLargeError as error:
        message = str(error)  # "refusing to load 'x': it asks for ... memory"
        raise ValidationError(f"{message[:1].upper()}{message[1:]}.") from None
    except (CheckpointError, SafetensorError, ValueError, OSError) as error:
        reason = without_paths(str(error))
        raise ValidationError(f"“{name}” could not be read as {fmt}: {reason}") from None
    raise ValidationError(f"Import from {fmt} is not available.")


def _read_onnx(path: Path, name: str) -> Any:
    """The parsed model. External data files are refused: an upload is one file, and a name
    it gave could otherwise point at another file on the server."""
    from framework.onnx import OnnxFormatError
    from framework.onnx.proto import parse_model

    try:
        return parse_model(path.read_bytes(), base_dir=None)
    except OnnxFormatError as error:
        if "external file" in str(error):
            raise ValidationError(
                f"“{name}” keeps its tensors in separate external-data files, which cannot be "
                "uploaded. Save the model as one file (onnx.save(model, path, "
                "save_as_external_data=False)) and upload that."
            ) from None
        reason = without_paths(str(error))
        raise ValidationError(f"“{name}” could not be read as ONNX: {reason}") from None


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
            f"The weights fit {arch.name}'s shapes, but its outputs are {list(ours.shape)} where "
            f"the ONNX graph gives {list(theirs.shape)}: the ONNX model is not a {arch.name}."
        )
    difference = float(np.abs(ours - theirs).max())
    if difference > 1e-3 * max(1.0, float(np.abs(theirs).max())):
        raise ValidationError(
            f"The weights fit {arch.name}'s shapes, but the network does not reproduce the ONNX "
            f"graph's outputs (largest difference {difference:.3g}): the ONNX model is not a "
            f"{arch.name}."
        )
    fitted.report["check"] += (
        f" It reproduces the ONNX graph's outputs on a random input (largest difference "
        f"{difference:.2g})."
    )


def _flat(arrays: dict[str, Any]) -> dict[str, np.ndarray]:
    flat = {k: np.asarray(v) for k, v in arrays.items() if hasattr(v, "shape")}
    if not flat:
        raise ValidationError("The file holds no tensors.")
    return flat


def _head_size(arch: Architecture, shapes: dict[str, tuple]) -> int:
    for key in sorted(head_keys(arch.key)):
        shape = shapes.get(key)
        if shape is not None and len(shape) == 1:
            return int(shape[0])
    raise ValidationError(
        f"These weights have no classifier head for {arch.name} (looked for "
        f"{', '.join(sorted(head_keys(arch.key)))}). Are they for another architecture?"
    )


# What the file was, in the words of the import form.
FORMAT_NAMES = {
    Weights.Format.SAFETENSORS: "safetensors file",
    Weights.Format.TORCH: "PyTorch checkpoint",
    Weights.Format.PADDLE: "PaddlePaddle .pdparams file",
    Weights.Format.ONNX: "ONNX model",
}


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
    """Why a file does not fit ``arch``, in the terms of what was uploaded, and what to do."""
    fitting = total - len(missing) - len(wrong)
    parts = [
        f"This {FORMAT_NAMES.get(fmt, fmt)} does not fit {arch.name}: "
        f"{fitting} of its {total} tensors match."
    ]
    if wrong:
        shown = "; ".join(
            f"{name} is {list(got)} in the file, {arch.name} needs {list(need)}"
            for name, got, need in wrong[:3]
        )
        parts.append(f"Other shapes: {shown}{_more(wrong)}.")
    if missing:
        parts.append(f"Missing: {', '.join(missing[:5])}{_more(missing, 5)}.")
    if unexpected:
        parts.append(f"Not in {arch.name}: {', '.join(unexpected[:5])}{_more(unexpected, 5)}.")
    parts.append(
        "Choose the architecture the file was saved from in the import form; the zoo page "
        "lists each architecture's input size and parameters."
        if fitting < total / 2
        else "Choose the architecture with the same layers (a different size or width of the "
        "same family, perhaps), or re-save the file from that network."
    )
    return " ".join(parts)


def _more(items: list[Any], shown: int = 3) -> str:
    return f" and {len(items) - shown} more" if len(items) > shown else ""


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
        raise ValidationError(
            f"A test forward pass gave outputs of shape {list(output.shape)}"
            f"{'' if np.isfinite(output).all() else ' with NaN or inf values'}; "
            "the weights are damaged or belong to another network."
        )
    report["num_classes"] = num_classes
    report["check"] = (
        f"A forward pass on a {'×'.join(map(str, shape))} input gave finite outputs for "
        f"{num_classes} classes."
    )
    return report
