"""ONNX's own node test cases at opsets 22 and 23 (`onnx.backend.test.case.node`), imported.

Every case whose ops the importer runs must give ONNX's expected outputs (values, shapes and
dtypes); every case with an op it does not run must be refused with a message naming that op.
bfloat16 travels as float32 holding bfloat16 values, so bfloat16 data is compared as such.
"""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest

import framework
from framework.onnx import UnsupportedOnnxOpError, load, supported_ops

onnx = pytest.importorskip("onnx")

OPSETS = (22, 23)

# Ops of these opsets the importer does not run yet, and why.
NOT_SUPPORTED = {
    "Bernoulli": "random sampling; ONNX's expected values come from NumPy's generator",
    "RandomUniformLike": "random sampling; ONNX's expected values come from NumPy's generator",
}
# Settings of supported ops that are refused (with a message naming them), and why.
REFUSED_SETTINGS = {
    "GridSample(mode=cubic)": "bicubic sampling: Paddle's grid_sample has no bicubic mode either",
    "RoiAlign(mode=max)": "max pooling of bilinear samples: vision.ops.roi_align averages only",
}
# Cases that import but cannot match ONNX's expected outputs, and why.
KNOWN_DIFFERENT = {
    "test_training_dropout": "training-mode dropout is random",
    "test_training_dropout_default": "training-mode dropout is random",
    "test_training_dropout_default_mask": "training-mode dropout is random",
    "test_training_dropout_mask": "training-mode dropout is random",
}


@functools.cache
def _cases() -> list:
    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = collect_testcases(None)
    chosen = []
    for case in cases:
        versions = [o.version for o in case.model.opset_import if o.domain in ("", "ai.onnx")]
        if versions and max(versions) in OPSETS:
            chosen.append(case)
    return chosen


def _op_types(case) -> set[str]:
    return {node.op_type for node in case.model.graph.node}


def _ops_of_these_opsets() -> list[str]:
    names = set()
    for schema in onnx.defs.get_all_schemas_with_history():
        if schema.domain in ("", "ai.onnx") and schema.since_version in OPSETS:
            names.add(schema.name)
    return sorted(names)


def _widened(array: np.ndarray) -> np.ndarray:
    return array.astype(np.float32) if array.dtype.name == "bfloat16" else array


def _run_case(case) -> None:
    layer = load(case.model.SerializeToString())
    for inputs, expected in case.data_sets:
        inputs = [_widened(np.asarray(a)) for a in inputs]
        low_precision = any(
            np.asarray(a).dtype.name in ("bfloat16", "float16") for a in expected
        ) or any(a.dtype == np.float16 for a in inputs)
        tolerance = 1e-2 if low_precision else 1e-4
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            got = layer(*[framework.to_tensor(a) for a in inputs])
        got = list(got) if isinstance(got, (list, tuple)) else [got]
        assert len(got) >= len(expected), case.name
        for tensor, want in zip(got, expected, strict=False):
            want = np.asarray(want)
            value = tensor.numpy()
            assert value.shape == want.shape, (case.name, value.shape, want.shape)
            if want.dtype.name == "bfloat16":
                assert value.dtype == np.float32, case.name
                want = want.astype(np.float32)
            else:
                assert value.dtype == want.dtype, (case.name, value.dtype, want.dtype)
            if want.dtype.kind in "fc":
                np.testing.assert_allclose(
                    value, want, rtol=tolerance, atol=tolerance, equal_nan=True, err_msg=case.name
                )
            else:
                np.testing.assert_array_equal(value, want, err_msg=case.name)


@pytest.mark.parametrize("op_type", _ops_of_these_opsets())
def test_it_runs_the_opset_22_and_23_cases_of(op_type):
    cases = [case for case in _cases() if op_type in _op_types(case)]
    if not cases:
        pytest.skip(f"ONNX has no opset 22/23 node case that uses {op_type}")
    if op_type in NOT_SUPPORTED:
        assert op_type not in supported_ops(), f"{op_type} is supported now: drop it from the list"
        for case in cases:
            with pytest.raises(Exception, match=op_type):
                load(case.model.SerializeToString())
        return
    assert op_type in supported_ops()
    failures = []
    for case in cases:
        if case.name in KNOWN_DIFFERENT:
            continue
        unknown = sorted(_op_types(case) - set(supported_ops()))
        if unknown:
            continue  # the case belongs to the op that is not supported, tested there
        try:
            _run_case(case)
        except UnsupportedOnnxOpError as error:
            if not any(setting in str(error) for setting in REFUSED_SETTINGS):
                failures.append(f"{case.name}: refused: {str(error)[:300]}")
        except Exception as error:  # collect them all, so one run shows every miss
            failures.append(f"{case.name}: {type(error).__name__}: {str(error)[:300]}")
    assert not failures, "\n".join(failures)


def test_the_cases_cover_most_of_both_opsets():
    """A floor, so that a change which stops a whole family of cases from importing fails."""
    cases = _cases()
    runnable = [c for c in cases if _op_types(c) <= set(supported_ops())]
    assert len(cases) > 300
    assert len(runnable) / len(cases) > 0.85, (len(runnable), len(cases))
