"""Transcribed control flow in deployment: the inference predictor runs cond/while_loop nodes,
and the ONNX export (If / Loop with sub-graphs) gives the eager outputs in onnxruntime."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.inference import Config, create_predictor
from tests.framework_tests.jit_tests import test_control_flow_ops as ops_cases
from tests.framework_tests.jit_tests.test_dy2static import CASES, COUNT, ROWS, _n, _x

DEPLOY_CASES = [
    *[(function, specs, inputs) for function, specs, inputs, _ in CASES],
    (ops_cases.power_loop, [ROWS, COUNT], [(0.5, 0), (0.5, 3)]),
    (ops_cases.nested, [ROWS], [(3.0,), (-7.0,)]),
]


def _cases_for_each_input():
    for function, specs, inputs in DEPLOY_CASES:
        yield pytest.param(function, specs, inputs, id=function.__name__)


@pytest.mark.parametrize(("function", "specs", "inputs"), _cases_for_each_input())
def test_the_predictor_and_onnxruntime_give_the_eager_outputs(function, specs, inputs, tmp_path):
    ort = pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    path = str(tmp_path / "m")
    framework.jit.save(function, path, input_spec=specs)
    framework.onnx.export(function, path, input_spec=specs, enable_onnx_checker=True)
    predictor = create_predictor(Config(path))
    session = ort.InferenceSession(path + ".onnx")
    for value, *counts in inputs:
        args = [_x(value, rows=4), *[_n(c) for c in counts]]
        want = function(*args).numpy()
        for name, arg in zip(predictor.get_input_names(), args, strict=True):
            predictor.get_input_handle(name).copy_from_cpu(arg.numpy())
        assert predictor.run() is True
        output = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
        np.testing.assert_allclose(output, want, rtol=1e-5, atol=1e-6)
        feeds = {i.name: a.numpy() for i, a in zip(session.get_inputs(), args, strict=True)}
        np.testing.assert_allclose(session.run(None, feeds)[0], want, rtol=1e-5, atol=1e-6)


def test_the_onnx_model_keeps_if_and_loop(tmp_path):
    onnx = pytest.importorskip("onnx")
    path = framework.onnx.export(ops_cases.nested, tmp_path / "m", input_spec=[ROWS])
    graph = onnx.load(path).graph
    loop = next(n for n in graph.node if n.op_type == "Loop")
    body = onnx.helper.get_attribute_value(loop.attribute[0])
    assert [n.op_type for n in body.node].count("If") == 1
