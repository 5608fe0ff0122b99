"""Count which public `nn`, `vision` and `io` names carry a docstring as Paddle writes them.

For every public name of the modules below (those in the module's `__all__`, else its public
attributes that are not modules) it checks the name's own docstring (for a constant, the string
right after its assignment, as Sphinx reads it) for three things:

- a description: a non-empty first line;
- shapes and dtypes: the text names a shape (``shape`` or a bracketed ``[N, ...]``) and a dtype
  (``dtype``, ``float32``, ``int64`` ...); asked only of layers and of functions that take
  tensors (the `nn`, `nn.functional` and `vision.ops` callables, not the containers, transforms,
  datasets and model builders);
- an example: an ``Examples:`` (or ``Example:``) section holding ``>>>`` lines.

Prints JSON: per module, the number of names, those with a description, those asked for shapes
and those that state them, those with an example, and the names missing any of it.

    python scripts/docstring_coverage.py [--missing]

`tests/framework_tests/test_docstring_examples.py` holds a floor for each count.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import json
import re
import sys
import types
from pathlib import Path

# Run as a script, `scripts/` leads sys.path and the editable install would import another
# checkout's framework; count this tree's.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

MODULES = (
    "framework.nn",
    "framework.nn.functional",
    "framework.io",
    "framework.vision.transforms",
    "framework.vision.models",
    "framework.vision.ops",
    "framework.vision.datasets",
)

# Modules whose layers and functions take tensors and so should state shapes and dtypes.
_TENSOR_MODULES = ("framework.nn", "framework.nn.functional", "framework.vision.ops")

_SHAPE = re.compile(r"shape|\[\s*[A-Za-z0-9_]+\s*,|\[\s*\*|\(\s*[A-Z]\s*,", re.IGNORECASE)
_DTYPE = re.compile(r"dtype|float16|float32|float64|bfloat16|int32|int64|bool|uint8")
_EXAMPLE = re.compile(r"^\s*Examples?:\s*$(?:.|\n)*?^\s*>>> ", re.MULTILINE)


def public_names(module: types.ModuleType) -> list[str]:
    """The module's `__all__`, else its public attributes that are not modules, sorted."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [
            name
            for name in dir(module)
            if not name.startswith("_") and not isinstance(getattr(module, name), types.ModuleType)
        ]
    return sorted(names)


def own_doc(obj: object) -> str:
    """The docstring written on `obj` itself: a class does not inherit its base's text here."""
    if inspect.isclass(obj):
        doc = vars(obj).get("__doc__")
    else:
        doc = getattr(obj, "__doc__", None)
        if doc == getattr(type(obj), "__doc__", None):
            doc = None  # a constant (a tuple, a dict) shows its type's text, not its own
    return inspect.cleandoc(doc) if isinstance(doc, str) else ""


def attribute_doc(module: types.ModuleType, name: str) -> str:
    """The string literal right after `name = ...` in the module, or a submodule, that assigns it.

    A constant (a tuple, a dict) cannot carry a `__doc__` of its own; Sphinx documents it by
    this string instead.
    """
    obj = getattr(module, name)
    prefix = module.__name__ + "."
    candidates = [module] + [
        loaded
        for loaded_name, loaded in list(sys.modules.items())
        if loaded_name.startswith(prefix) and vars(loaded).get(name) is obj
    ]
    for candidate in candidates:
        try:
            tree = ast.parse(inspect.getsource(candidate))
        except (OSError, TypeError):
            continue
        for statement, following in zip(tree.body, tree.body[1:], strict=False):
            targets = statement.targets if isinstance(statement, ast.Assign) else []
            if isinstance(statement, ast.AnnAssign):
                targets = [statement.target]
            named = any(isinstance(t, ast.Name) and t.id == name for t in targets)
            if (
                named
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            ):
                return inspect.cleandoc(following.value.value)
    return ""


def public_doc(module: types.ModuleType, name: str) -> str:
    """The docstring counted for `module.name`: its own, else its attribute docstring."""
    obj = getattr(module, name)
    doc = own_doc(obj)
    if doc or inspect.isclass(obj) or callable(obj) or isinstance(obj, types.ModuleType):
        return doc
    return attribute_doc(module, name)


def _takes_tensors(module_name: str, obj: object) -> bool:
    if module_name not in _TENSOR_MODULES:
        return False
    from framework.nn import Layer

    if inspect.isclass(obj):
        return issubclass(obj, Layer) and not obj.__name__.startswith(
            ("Layer", "Sequential", "Parameter", "Module")
        )
    return inspect.isfunction(obj) or inspect.isbuiltin(obj)


def check(module_name: str, name: str, obj: object) -> dict[str, bool | None]:
    """Which parts `obj`'s docstring has; `shapes` is None where none are asked for."""
    doc = public_doc(importlib.import_module(module_name), name)
    first = doc.splitlines()[0].strip() if doc else ""
    needs_shapes = _takes_tensors(module_name, obj)
    return {
        "description": bool(first),
        "shapes": bool(_SHAPE.search(doc) and _DTYPE.search(doc)) if needs_shapes else None,
        "example": bool(_EXAMPLE.search(doc)),
    }


def coverage(module_name: str) -> dict[str, object]:
    """The counts for one module, and under "missing" the names that lack each part."""
    module = importlib.import_module(module_name)
    counts = {"names": 0, "description": 0, "needs_shapes": 0, "shapes": 0, "example": 0}
    missing: dict[str, list[str]] = {"description": [], "shapes": [], "example": []}
    for name in public_names(module):
        result = check(module_name, name, getattr(module, name))
        counts["names"] += 1
        counts["needs_shapes"] += result["shapes"] is not None
        for key, ok in result.items():
            if ok:
                counts[key] += 1
            elif ok is False:
                missing[key].append(name)
    return {**counts, "missing": missing}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missing", action="store_true", help="list the names missing each part")
    parser.add_argument("--modules", default=",".join(MODULES))
    args = parser.parse_args()
    report = {}
    for module_name in args.modules.split(","):
        entry = coverage(module_name)
        if not args.missing:
            entry.pop("missing")
        report[module_name] = entry
    totals = {
        key: sum(entry[key] for entry in report.values())
        for key in ("names", "description", "needs_shapes", "shapes", "example")
    }
    report["total"] = totals
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
