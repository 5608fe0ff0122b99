"""How a process's OpenMP threads wait: the rule (`routing.wait_policy`) as a table, and what
GNU OpenMP reports it loaded with, in fresh processes that serve, train, or both.

A process can set its wait policy only before the runtime loads, so each case runs in a child
of its own; the runtime reports its settings with `omp_display_env`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import framework
from framework.backends.cpu import openmp, routing
from framework.backends.cpu.onednn import library as onednn
from framework.backends.cpu.routing import WaitPolicy
from framework.backends.cpu.tuning import TUNING
from framework.jit import InputSpec

ROOT = Path(__file__).resolve().parents[3]

# (cores of a single-sample predictor run, 0: training or anything else first) -> policy
WAIT_TABLE = [
    (0, WaitPolicy.SPIN),  # training loads the runtime
    (1, WaitPolicy.SPIN),  # a one-core predictor runs no team
    (2, WaitPolicy.PASSIVE),
    (8, WaitPolicy.PASSIVE),
]


@pytest.mark.parametrize("predictor_team, policy", WAIT_TABLE)
def test_a_process_waits_by_what_loads_openmp_first(predictor_team, policy):
    assert routing.wait_policy(predictor_team) is policy


def test_the_smallest_passive_team_is_the_tuning_tables(monkeypatch):
    monkeypatch.setattr(TUNING, "passive_wait_min_team", 4)
    assert routing.wait_policy(2) is WaitPolicy.SPIN
    assert routing.wait_policy(4) is WaitPolicy.PASSIVE


# The child: optionally a training step first (its convolution loads OpenMP through oneDNN, or
# its product through MKL), then a CPU predictor of `threads` cores and one single-sample run;
# then the runtime's own report of its wait settings.
CHILD = """
import ctypes, sys
import numpy as np
import framework
from framework.backends.cpu import openmp
from framework.inference import Config, create_predictor

path, threads, train_first = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
if train_first:
    conv = framework.nn.Conv2D(3, 8, 3)
    x = framework.to_tensor(np.ones((2, 3, 8, 8), "float32"))
    (conv(x).sum() + framework.matmul(x.reshape([6, 64]), x.reshape([64, 6])).sum()).backward()
config = Config(path)
config.set_cpu_math_library_num_threads(threads)
predictor = create_predictor(config)
predictor.run([np.ones((1, 3, 8, 8), "float32")])
print("loaded", openmp.loaded(), flush=True)
ctypes.CDLL("libgomp.so.1").omp_display_env(1)
"""


@pytest.fixture(scope="module")
def model_path(tmp_path_factory) -> str:
    model = framework.nn.Sequential(framework.nn.Conv2D(3, 8, 3), framework.nn.ReLU())
    model.eval()
    path = str(tmp_path_factory.mktemp("wait") / "conv")
    framework.jit.save(model, path, input_spec=[InputSpec([None, 3, 8, 8], "float32", "x")])
    return path


def runtime_settings(path: str, threads: int, train_first: bool, **env: str) -> dict[str, str]:
    """{setting: value} that GNU OpenMP reports in a child that ran the CHILD script."""
    clean = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    result = subprocess.run(
        [sys.executable, "-c", CHILD, path, str(threads), "1" if train_first else "0"],
        cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    assert "loaded True" in result.stdout, result.stdout + result.stderr
    settings = {}
    for line in result.stderr.splitlines():
        name, equals, value = line.strip().partition(" = ")
        if equals:
            settings[name] = value.strip("'")
    return settings


needs_openmp = pytest.mark.skipif(
    not (openmp.runtime() and onednn.available()),
    reason="needs GNU OpenMP and oneDNN (the onednn-cpu-gomp wheel)",
)


@needs_openmp
def test_a_serving_predictor_with_a_team_sleeps_at_once(model_path):
    settings = runtime_settings(model_path, threads=2, train_first=False)
    assert settings["OMP_WAIT_POLICY"] == "PASSIVE"
    assert settings["GOMP_SPINCOUNT"] == "0"


@needs_openmp
def test_a_one_core_predictor_keeps_the_spin_limit(model_path):
    settings = runtime_settings(model_path, threads=1, train_first=False)
    assert settings["GOMP_SPINCOUNT"] == str(TUNING.openmp_spin_rounds)


@needs_openmp
def test_a_process_that_trained_first_keeps_spinning_when_it_serves(model_path):
    settings = runtime_settings(model_path, threads=2, train_first=True)
    assert settings["GOMP_SPINCOUNT"] == str(TUNING.openmp_spin_rounds)


@needs_openmp
def test_the_users_wait_policy_wins(model_path):
    settings = runtime_settings(model_path, threads=2, train_first=False, OMP_WAIT_POLICY="ACTIVE")
    assert settings["OMP_WAIT_POLICY"] == "ACTIVE"


def test_passive_waiting_cannot_be_asked_once_the_runtime_is_loaded():
    if not openmp.runtime():  # loads it here, as any earlier test may have
        pytest.skip("needs GNU OpenMP (libgomp1)")
    assert openmp.loaded()
    assert openmp.wait_passively() is False
