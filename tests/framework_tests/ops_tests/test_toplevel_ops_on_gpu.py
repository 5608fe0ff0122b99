"""The special functions (cupyx.scipy.special kernels), bit shifts, unique_consecutive,
as_strided, range, the in-place forms and DLPack on a GPU give what they give on the CPU.
Run by `make gpu-check`; skipped where no CUDA GPU is usable."""

from __future__ import annotations

import numpy as np
import pytest

import framework

pytestmark = pytest.mark.gpu

SPECIAL = {
    "lgamma": framework.lgamma,
    "digamma": framework.digamma,
    "polygamma2": lambda x: framework.polygamma(x, 2),
    "multigammaln": lambda x: framework.multigammaln(x + 1.0, 2),
    "erfinv": lambda x: framework.erfinv(x / 3.0),
    "gammainc": lambda x: framework.gammainc(x + 0.5, x),
    "gammaincc": lambda x: framework.gammaincc(x + 0.5, x),
    "i0": framework.i0,
    "i0e": framework.i0e,
    "i1": framework.i1,
    "i1e": framework.i1e,
}


def _value_and_grad(op, x, device):
    t = framework.to_tensor(x, place=device, stop_gradient=False)
    out = op(t)
    out.sum().backward()
    return out.numpy(), t.grad.numpy(), out.place


@pytest.mark.parametrize("name", SPECIAL)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_special_function_on_gpu_matches_cpu(name, dtype):
    x = np.random.default_rng(0).uniform(0.3, 2.5, (3, 4)).astype(dtype)
    cpu = _value_and_grad(SPECIAL[name], x, "cpu")
    gpu = _value_and_grad(SPECIAL[name], x, "gpu")
    assert gpu[2].is_gpu_place()
    rtol = 1e-5 if dtype == "float32" else 1e-10
    for got, expected in zip(gpu[:2], cpu[:2], strict=True):
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol)


def test_integer_and_index_ops_on_gpu_match_cpu():
    x = np.array([-16, 5, 127, -128], np.int64)
    s = np.array([2, 1, 70, 3], np.int64)
    for device_result, cpu_result in (
        (
            framework.bitwise_right_shift(
                framework.to_tensor(x, place="gpu"), framework.to_tensor(s, place="gpu"), False
            ),
            framework.bitwise_right_shift(framework.to_tensor(x), framework.to_tensor(s), False),
        ),
        (
            framework.unique_consecutive(framework.to_tensor([1, 1, 2, 1], place="gpu")),
            framework.unique_consecutive(framework.to_tensor([1, 1, 2, 1])),
        ),
        (
            framework.as_strided(framework.arange(12.0).cuda(), [2, 3], [1, 2], 1),
            framework.as_strided(framework.arange(12.0), [2, 3], [1, 2], 1),
        ),
        (framework.range(0, 3, device="gpu"), framework.range(0, 3)),
    ):
        assert device_result.place.is_gpu_place()
        np.testing.assert_array_equal(device_result.numpy(), cpu_result.numpy())


def test_inplace_forms_and_dlpack_on_gpu():
    x = framework.to_tensor([[1.0, 2.0], [3.0, 4.0]], place="gpu")
    framework.cumsum_(x, 1)
    framework.transpose_(x, [1, 0])
    assert x.place.is_gpu_place()
    np.testing.assert_array_equal(x.numpy(), [[1.0, 3.0], [3.0, 7.0]])
    back = framework.from_dlpack(framework.to_dlpack(x))
    assert back.place.is_gpu_place()
    np.testing.assert_array_equal(back.numpy(), x.numpy())
