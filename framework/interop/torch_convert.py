"""Map a PyTorch state dict onto a framework model: names, layouts and a report.

Layouts: torch `Linear.weight` is `[out, in]`, ours `[in, out]` (transposed); BatchNorm's
`running_mean` / `running_var` are Paddle's `_mean` / `_variance`; `num_batches_tracked` has no
counterpart and is dropped; convolution, norm and embedding weights are the same.

Names: a key that exists in the model (after those renames) maps to itself. The rest map by
structure: parameters are grouped by module, and each unmatched model layer takes the first
unmatched torch module, in file order, with the same parameter names and shapes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from framework.nn import Layer

__all__ = ["ConversionError", "ConversionReport", "UnsupportedModuleError", "convert_state_dict"]

RENAMES = {"running_mean": "_mean", "running_var": "_variance"}
DROPPED = ("num_batches_tracked",)
NESTED_KEYS = ("state_dict", "model_state_dict", "model", "net", "network", "module", "weights")
WRAPPER_PREFIXES = ("module.", "_orig_mod.")


class ConversionError(ValueError):
    """Torch weights or a torch module that do not convert: keys missing, unexpected or wrongly
    shaped, or a converted layer whose outputs differ from torch's."""


class UnsupportedModuleError(ConversionError):
    """The module uses layers or functions without a framework counterpart (`.unsupported`)."""

    def __init__(self, unsupported: list[str]) -> None:
        self.unsupported = unsupported
        super().__init__(
            "cannot convert the torch module; unsupported:\n  " + "\n  ".join(unsupported)
        )


@dataclass
class ConversionReport:
    """What `convert_state_dict` did. `matched` maps model keys to torch keys."""

    matched: dict[str, str] = field(default_factory=dict)
    transposed: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    mismatched: list[tuple[str, str, tuple, tuple]] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    source_key: str | None = None

    @property
    def renamed(self) -> dict[str, str]:
        """Model keys whose torch key differs other than by a BatchNorm rename."""
        return {t: s for t, s in self.matched.items() if _renamed(s) != t}

    @property
    def ok(self) -> bool:
        return not (self.missing or self.unexpected or self.mismatched)

    def __str__(self) -> str:
        lines = [
            f"matched {len(self.matched)} tensors ({len(self.renamed)} by structure, "
            f"{len(self.transposed)} Linear weights transposed)"
        ]
        if self.source_key:
            lines.append(f"state dict taken from checkpoint[{self.source_key!r}]")
        for name, keys in (("missing", self.missing), ("unexpected", self.unexpected)):
            if keys:
                lines.append(f"{name} ({len(keys)}): " + ", ".join(keys))
        for target, source, got, expected in self.mismatched:
            lines.append(f"shape mismatch: {source!r} {list(got)} -> {target!r} {list(expected)}")
        if self.dropped:
            lines.append(f"dropped {len(self.dropped)} num_batches_tracked counters")
        if self.ignored:
            lines.append("ignored non-tensor entries: " + ", ".join(self.ignored))
        return "\n".join(lines)


def convert_state_dict(
    torch_sd: dict[str, Any], model: Layer, strict: bool = True
) -> tuple[dict[str, np.ndarray], ConversionReport]:
    """Torch weights renamed and laid out for `model`; returns `(state_dict, report)`.

        sd = framework.interop.torch.load_state_dict("resnet18.pth")
        weights, report = convert_state_dict(sd, framework.vision.models.resnet18())
        model.set_state_dict(weights)

    `torch_sd` maps names to NumPy arrays (as `load_state_dict` gives), torch tensors or
    framework Tensors; a checkpoint nesting it under 'state_dict' / 'model' / ... and
    DataParallel's 'module.' prefix are handled. Values are cast to each parameter's dtype.
    With `strict=True` (the default) missing or unexpected keys and shape mismatches raise
    ConversionError; with `strict=False` they are only reported (mismatched ones skipped).
    """
    report = ConversionReport()
    source = _source_arrays(torch_sd, report)
    targets = model.state_dict()
    owners = dict(model.named_sublayers(include_self=True))
    layouts = {key: _layout(key, owners) for key in targets}
    converted: dict[str, np.ndarray] = {}
    used: set[str] = set()

    def take(target: str, key: str) -> None:
        array = source[key].T if layouts[target] else source[key]
        converted[target] = np.asarray(array, dtype=targets[target]._data.dtype)
        report.matched[target] = key
        if layouts[target]:
            report.transposed.append(target)
        used.add(key)

    by_name = {_renamed(key): key for key in source}
    for target, tensor in targets.items():
        key = by_name.get(target)
        if key is None:
            continue
        shape = _shape_for(source[key], layouts[target])
        if shape == tuple(tensor.shape):
            take(target, key)
        else:
            report.mismatched.append((target, key, source[key].shape, tuple(tensor.shape)))
            used.add(key)
    mismatched = {entry[0] for entry in report.mismatched}
    open_targets = [k for k in targets if k not in converted and k not in mismatched]
    open_sources = [k for k in source if k not in used]
    for target_group, source_group in _match_by_structure(
        source, targets, layouts, open_targets, open_sources
    ):
        for suffix, target in target_group.items():
            take(target, source_group[suffix])
    report.missing = [k for k in targets if k not in converted and k not in mismatched]
    report.unexpected = [k for k in source if k not in used]
    if strict and not report.ok:
        raise ConversionError(
            f"the torch state dict does not fit {type(model).__name__}:\n{report}\n"
            "(pass strict=False to convert what fits)"
        )
    return converted, report


def _source_arrays(torch_sd: dict[str, Any], report: ConversionReport) -> dict[str, np.ndarray]:
    if not isinstance(torch_sd, dict):
        raise TypeError(f"expected a state dict, got {type(torch_sd).__name__}")
    if not any(_is_array(v) for v in torch_sd.values()):
        for key in NESTED_KEYS:
            if isinstance(torch_sd.get(key), dict):
                report.source_key = key
                torch_sd = torch_sd[key]
                break
    arrays: dict[str, np.ndarray] = {}
    for key, value in torch_sd.items():
        if not _is_array(value):
            report.ignored.append(str(key))
        elif str(key).rsplit(".", 1)[-1] in DROPPED:
            report.dropped.append(key)
        else:
            arrays[key] = _to_numpy(value)
    for prefix in WRAPPER_PREFIXES:
        if arrays and all(key.startswith(prefix) for key in arrays):
            arrays = {key[len(prefix) :]: value for key, value in arrays.items()}
    return arrays


def _is_array(value: object) -> bool:
    return hasattr(value, "shape") and hasattr(value, "dtype")


def _to_numpy(value: Any) -> np.ndarray:
    if isinstance(value, np.ndarray):
        return value
    if type(value).__module__.startswith("torch"):  # a torch.Tensor, without importing torch
        value = value.detach().cpu()
        if str(value.dtype) == "torch.bfloat16":
            value = value.float()
        return value.numpy()
    if hasattr(value, "numpy"):  # a framework Tensor
        return np.asarray(value.numpy())
    return np.asarray(value)


def _renamed(key: str) -> str:
    prefix, _, suffix = key.rpartition(".")
    suffix = RENAMES.get(suffix, suffix)
    return f"{prefix}.{suffix}" if prefix else suffix


def _layout(key: str, owners: dict[str, Layer]) -> bool:
    """Whether the torch value must be transposed for this model key (a Linear weight)."""
    from framework.nn import Linear

    prefix, _, suffix = key.rpartition(".")
    return suffix == "weight" and isinstance(owners.get(prefix), Linear)


def _shape_for(array: np.ndarray, transpose: bool) -> tuple:
    return tuple(array.shape[::-1]) if transpose and array.ndim == 2 else tuple(array.shape)


def _groups(keys: list[str]) -> list[dict[str, str]]:
    """Keys grouped by module prefix, in first-seen order: [{suffix: key}, ...]."""
    groups: dict[str, dict[str, str]] = {}
    for key in keys:
        prefix, _, suffix = _renamed(key).rpartition(".")
        groups.setdefault(prefix, {})[suffix] = key
    return list(groups.values())


def _match_by_structure(
    source: dict[str, np.ndarray],
    targets: dict[str, Any],
    layouts: dict[str, bool],
    open_targets: list[str],
    open_sources: list[str],
) -> list[tuple[dict[str, str], dict[str, str]]]:
    """Pair each unmatched model layer with the first unmatched torch module whose parameter
    names and (laid-out) shapes are the same; then, for layers still open, the first torch
    module holding a part of them (a checkpoint missing a bias, say)."""
    free = _groups(open_sources)
    open_groups = _groups(open_targets)
    pairs = []
    for partial in (False, True):
        for target_group in list(open_groups):
            for index, source_group in enumerate(free):
                if _fits(source_group, target_group, source, targets, layouts, partial):
                    pairs.append(({s: target_group[s] for s in source_group}, source_group))
                    open_groups.remove(target_group)
                    del free[index]
                    break
    return pairs


def _fits(
    source_group: dict[str, str],
    target_group: dict[str, str],
    source: dict[str, np.ndarray],
    targets: dict[str, Any],
    layouts: dict[str, bool],
    partial: bool,
) -> bool:
    if not (
        source_group.keys() <= target_group.keys()
        if partial
        else source_group.keys() == target_group.keys()
    ):
        return False
    return all(
        _shape_for(source[key], layouts[target_group[s]]) == tuple(targets[target_group[s]].shape)
        for s, key in source_group.items()
    )
