"""Devices, the GPU error when none is usable, and seeded determinism."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.core import backend, random


def test_cpu_is_the_default_device():
    assert framework.get_device() == "cpu"
    assert framework.set_device("cpu") == framework.CPUPlace()


@pytest.mark.skipif(framework.is_compiled_with_cuda(), reason="a GPU is present")
def test_asking_for_a_gpu_without_one_is_a_clear_error():
    with pytest.raises(RuntimeError, match="set_device\\('cpu'\\)"):
        framework.set_device("gpu")
    assert framework.get_device() == "cpu"


def test_it_rejects_malformed_device_names():
    with pytest.raises(ValueError, match="expected 'cpu', 'gpu' or 'gpu:N'"):
        framework.set_device("tpu")
    with pytest.raises(ValueError, match="expected"):
        framework.set_device("gpu:x")


def test_seed_makes_draws_repeatable_and_different_seeds_differ():
    random.seed(7)
    a = random.get_rng().standard_normal(5)
    random.seed(7)
    b = random.get_rng().standard_normal(5)
    random.seed(8)
    c = random.get_rng().standard_normal(5)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_rng_state_round_trips():
    random.seed(3)
    state = framework.get_rng_state()
    first = random.get_rng().random(3)
    framework.set_rng_state(state)
    np.testing.assert_array_equal(first, random.get_rng().random(3))


def test_array_module_is_numpy_for_cpu_arrays():
    assert backend.get_array_module(np.zeros(1)) is np
    assert backend.get_array_module(1.0) is np


@pytest.mark.gpu
def test_tensors_move_to_the_gpu_and_back():
    framework.set_device("gpu")
    try:
        t = framework.to_tensor([1.0, 2.0])
        assert t.place.is_gpu_place()
        np.testing.assert_allclose((t * 2.0).cpu().numpy(), [2.0, 4.0])
    finally:
        framework.set_device("cpu")
