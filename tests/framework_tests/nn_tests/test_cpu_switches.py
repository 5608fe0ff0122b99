"""The CPU runtime's `SAMPAN_*` switches: the typed reader, and that off really means off."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from framework.backends.cpu import gemm, switches

_PROBE = (
    "from framework.backends.cpu import gemm; import numpy as np; "
    "a = np.ones((256, 256), np.float32); out = np.empty_like(a); "
    "print(gemm.available()); "
    "print(any('libmkl' in line for line in open('/proc/self/maps')))"
)


def _probe(mkl: str | None) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != switches.MKL}
    if mkl is not None:
        env[switches.MKL] = mkl
    result = subprocess.run(
        [sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, check=True
    )
    return result.stdout.split()


@pytest.mark.parametrize("value", ["1", "on", "ON", "true", "Yes", " on "])
def test_flag_on_spellings(monkeypatch, value):
    monkeypatch.setenv("SAMPAN_TEST_SWITCH", value)
    assert switches.flag("SAMPAN_TEST_SWITCH", default=False) is True


@pytest.mark.parametrize("value", ["0", "off", "OFF", "false", "No"])
def test_flag_off_spellings(monkeypatch, value):
    monkeypatch.setenv("SAMPAN_TEST_SWITCH", value)
    assert switches.flag("SAMPAN_TEST_SWITCH") is False


@pytest.mark.parametrize("value", [None, "", "  "])
def test_flag_unset_or_empty_is_the_default(monkeypatch, value):
    if value is None:
        monkeypatch.delenv("SAMPAN_TEST_SWITCH", raising=False)
    else:
        monkeypatch.setenv("SAMPAN_TEST_SWITCH", value)
    assert switches.flag("SAMPAN_TEST_SWITCH") is True
    assert switches.flag("SAMPAN_TEST_SWITCH", default=False) is False


@pytest.mark.parametrize("value", ["2", "disabled", "of", "-1"])
def test_flag_rejects_unknown_values_naming_the_variable_and_the_allowed_values(monkeypatch, value):
    monkeypatch.setenv("SAMPAN_TEST_SWITCH", value)
    with pytest.raises(ValueError) as caught:
        switches.flag("SAMPAN_TEST_SWITCH")
    message = str(caught.value)
    assert "SAMPAN_TEST_SWITCH" in message and repr(value) in message
    for allowed in ("1", "0", "on", "off"):
        assert allowed in message


def test_the_library_switches_go_through_the_typed_reader(monkeypatch):
    for name, read in (
        (switches.MKL, switches.mkl_enabled),
        (switches.ONEDNN, switches.onednn_enabled),
        (switches.VECTOR_BLAS, switches.vector_blas_enabled),
    ):
        monkeypatch.setenv(name, "off")
        assert read() is False
        monkeypatch.setenv(name, "bogus")
        with pytest.raises(ValueError, match=name):
            read()
        monkeypatch.delenv(name)
        assert read() is True


@pytest.mark.parametrize("value", ["off", "0", "false"])
def test_mkl_off_keeps_mkl_unloaded(value):
    """In a fresh process: with the switch off, the GEMM route is not taken and no MKL library
    is mapped (the old reader only knew "0", so "off" left MKL on)."""
    assert _probe(value) == ["False", "False"]


@pytest.mark.skipif(not gemm.available(), reason="MKL is not installed")
def test_mkl_on_by_default_when_installed():
    assert _probe(None) == ["True", "True"]
    assert _probe("on") == ["True", "True"]


def test_a_misspelt_mkl_switch_is_an_error_not_a_silent_on():
    env = dict(os.environ, **{switches.MKL: "of"})
    result = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert "SAMPAN_MKL" in result.stderr and "allowed" in result.stderr
