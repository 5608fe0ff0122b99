"""The docstring examples of the public `nn`, `vision` and `io` APIs run and print what they say.

Each public name's own `>>>` examples (a constant's: those in the string after its assignment)
run under doctest (ELLIPSIS, NORMALIZE_WHITESPACE) in a fresh copy of its defining module's
globals, after `framework.seed(0)`. A floor per module on the counts of
`scripts/docstring_coverage.py` keeps a new public name from arriving without a docstring: raise
a floor when you document more, never lower it.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import framework

_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "docstring_coverage.py"
_spec = importlib.util.spec_from_file_location("docstring_coverage", _SCRIPT)
coverage = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("docstring_coverage", coverage)
_spec.loader.exec_module(coverage)

# (description, shapes, example) reached per module; see the module docstring.
FLOORS = {
    "framework.nn": (193, 177, 193),
    "framework.nn.functional": (127, 126, 126),
    "framework.io": (20, 0, 20),
    "framework.vision.transforms": (39, 0, 39),
    "framework.vision.models": (65, 0, 65),
    "framework.vision.ops": (28, 27, 28),
    "framework.vision.datasets": (11, 0, 11),
}

# Examples not yet runnable (names left undefined, `.shape` printed as a bare list): each is
# expected to fail, strictly, so making one runnable means taking it off this list. Empty now.
SKETCHES: set[str] = set()

_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

_FLOAT = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


class FloatTolerantChecker(doctest.OutputChecker):
    """Doctest's checker, then the same text with its numbers compared to float32 precision.

    The last printed digit of a float32 result depends on the CPU's kernels (the vector width
    MKL and oneDNN pick), so `1.31326163` and `1.31326175` are the same answer. Paddle's own
    example checker compares floats with a tolerance for the same reason. Everything that is
    not a number must still match exactly.
    """

    RTOL, ATOL = 1e-6, 1e-7

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        if super().check_output(want, got, optionflags):
            return True
        want_numbers, got_numbers = _FLOAT.findall(want), _FLOAT.findall(got)
        if len(want_numbers) != len(got_numbers) or not want_numbers:
            return False
        if not super().check_output(_FLOAT.sub("0", want), _FLOAT.sub("0", got), optionflags):
            return False
        return bool(
            np.allclose(
                np.array(got_numbers, dtype=float),
                np.array(want_numbers, dtype=float),
                rtol=self.RTOL,
                atol=self.ATOL,
            )
        )


def _examples() -> list[tuple[str, object]]:
    """(id, object) for each distinct public object whose own docstring has `>>>` lines."""
    seen: set[int] = set()
    found = []
    for module_name in coverage.MODULES:
        module = importlib.import_module(module_name)
        for name in coverage.public_names(module):
            obj = getattr(module, name)
            if id(obj) in seen or ">>>" not in coverage.public_doc(module, name):
                continue
            seen.add(id(obj))
            found.append((f"{module_name}.{name}", obj))
    return found


def _example_id(value: object) -> str | None:
    if isinstance(value, str):
        return value
    return getattr(value, "__name__", "constant")  # a tuple's id would be its index


@pytest.mark.parametrize(("name", "obj"), _examples(), ids=_example_id)
def test_it_runs_the_example(name: str, obj: object, request: pytest.FixtureRequest) -> None:
    if name in SKETCHES:
        request.applymarker(pytest.mark.xfail(reason="a sketch, not yet runnable", strict=True))
    defining = sys.modules.get(getattr(obj, "__module__", ""), None)
    globs = dict(vars(defining)) if defining is not None else {}
    module_name, _, public_name = name.rpartition(".")
    doc = coverage.public_doc(importlib.import_module(module_name), public_name)
    test = doctest.DocTestParser().get_doctest(doc, globs, name, None, 0)
    framework.seed(0)
    np.random.seed(0)
    runner = doctest.DocTestRunner(checker=FloatTolerantChecker(), optionflags=_FLAGS)
    lines: list[str] = []
    runner.run(test, out=lines.append)
    assert runner.failures == 0, "".join(lines)


@pytest.mark.parametrize("module_name", sorted(FLOORS))
def test_it_keeps_the_docstring_floor(module_name: str) -> None:
    counts = coverage.coverage(module_name)
    reached = (counts["description"], counts["shapes"], counts["example"])
    assert all(got >= floor for got, floor in zip(reached, FLOORS[module_name], strict=True)), (
        f"{module_name}: (description, shapes, example) {reached} fell below "
        f"{FLOORS[module_name]}; missing: {counts['missing']}"
    )


@pytest.mark.parametrize(
    ("want", "got", "same"),
    [
        ("Tensor([1.31326175, -0.31326169])", "Tensor([1.31326163, -0.31326163])", True),
        ("Tensor([1.31326175])", "Tensor([1.31336175])", False),  # off in the 4th digit
        ("Tensor(shape=[2], [1.0])", "Tensor(shape=[3], [1.0])", False),  # shapes are exact
        ("[1.0, 2.0]", "[1.0, 2.0, 3.0]", False),
        ("dtype=float32", "dtype=float64", False),
    ],
)
def test_the_checker_forgives_only_float32_rounding(want: str, got: str, same: bool) -> None:
    checker = FloatTolerantChecker()
    assert checker.check_output(want + "\n", got + "\n", _FLAGS) is same


def test_it_covers_every_module_the_script_counts() -> None:
    assert set(FLOORS) == set(coverage.MODULES)
    assert SKETCHES <= {name for name, _ in _examples()}


def test_it_reads_a_constants_docstring_from_the_string_after_its_assignment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "constants_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from constants_pkg.values import DOCUMENTED, PLAIN\n")
    (package / "values.py").write_text(
        'DOCUMENTED = (1, 2)\n"""Two numbers."""\n\nPLAIN = (3, 4)\nOTHER = "not its doc"\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("constants_pkg")
    try:
        assert coverage.public_doc(module, "DOCUMENTED") == "Two numbers."
        assert coverage.public_doc(module, "PLAIN") == ""
    finally:
        for name in ("constants_pkg", "constants_pkg.values"):
            sys.modules.pop(name, None)
