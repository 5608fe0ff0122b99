"""How much of Paddle's public API `import framework as paddle` covers: prints JSON.

For paddle, paddle.linalg, paddle.fft, paddle.signal, paddle.nn, paddle.nn.functional,
paddle.optimizer, paddle.optimizer.lr and paddle.vision.models, counts the names in Paddle's
`__all__` that the matching framework module has (importable by its dotted path, as Paddle
code imports it).
paddle.tensor has no `__all__`: its public functions are its non-module public attributes, and
its `tensor_method_func` list is what Paddle binds onto Tensor, checked against
`framework.Tensor`. "paddle.Tensor (dir)" is every public name of `dir(paddle.Tensor)`, which
adds the methods Paddle's C++ and patch modules bind (`x.float()`, `x.new_zeros`, sparse and
distributed ones). Needs paddlepaddle installed.

    .venv/bin/python scripts/paddle_api_coverage.py [--missing]
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import sys
import types

# Measure this checkout's framework, not whichever one the virtualenv's editable install names.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Paddle loads first: its own libdnnl must bind before ours (see tests/framework_tests/conftest.py).
import paddle  # noqa: F401

import framework

MODULES = (
    "paddle",
    "paddle.linalg",
    "paddle.fft",
    "paddle.signal",
    "paddle.nn",
    "paddle.nn.functional",
    "paddle.tensor",
    "paddle.optimizer",
    "paddle.optimizer.lr",
    "paddle.vision.models",
)


def _public(module: types.ModuleType) -> list[str]:
    if hasattr(module, "__all__"):
        return sorted(set(module.__all__))
    return sorted(
        n
        for n in dir(module)
        if not n.startswith("_") and not isinstance(getattr(module, n), types.ModuleType)
    )


def _entry(label: str, public: list[str], has) -> dict:
    missing = [n for n in public if not has(n)]
    return {
        "module": label,
        "public": len(public),
        "present": len(public) - len(missing),
        "missing": missing,
    }


def coverage(module_name: str) -> dict:
    theirs = importlib.import_module(module_name)
    ours = None
    with contextlib.suppress(ImportError):
        ours = importlib.import_module("framework" + module_name[len("paddle") :])
    return _entry(module_name, _public(theirs), lambda n: ours is not None and hasattr(ours, n))


def method_coverage() -> dict:
    import paddle.tensor

    public = sorted(set(paddle.tensor.tensor_method_func))
    return _entry("paddle.Tensor methods", public, lambda n: hasattr(framework.Tensor, n))


def tensor_dir_coverage() -> dict:
    public = sorted(n for n in dir(paddle.Tensor) if not n.startswith("_"))
    return _entry("paddle.Tensor (dir)", public, lambda n: hasattr(framework.Tensor, n))


def main() -> None:
    show_missing = "--missing" in sys.argv
    report = [coverage(name) for name in MODULES] + [method_coverage(), tensor_dir_coverage()]
    if not show_missing:
        for entry in report:
            entry["missing"] = len(entry["missing"])
    print(
        json.dumps(
            {"paddle": paddle.__version__, "framework": framework.__version__, "coverage": report},
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
