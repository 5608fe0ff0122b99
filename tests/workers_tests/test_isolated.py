"""workers.runtime.isolated: a function runs in a child process under a memory ceiling; what it
returns, refuses or runs out of comes back as a result or a plain reason, and the parent's own
memory never grows with the child's work."""

from __future__ import annotations

import resource

import pytest

from workers.runtime import isolated
from workers.runtime.isolated import Abandoned, IsolatedFailure, OutOfMemory, Refused, run_isolated

TARGETS = "tests.workers_tests.isolated_targets"
GIB = 1024**3


def run(name: str, memory_bytes: int = GIB, timeout: float = 60, **kwargs: object) -> object:
    return run_isolated(f"{TARGETS}:{name}", kwargs, memory_bytes=memory_bytes, timeout=timeout)


def test_it_returns_what_the_function_returned() -> None:
    assert run("double", value=21) == 42


def test_work_over_the_ceiling_fails_with_a_reason_and_the_parent_stays_small() -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(OutOfMemory, match="needs more than 512.0 MiB of memory"):
        run("allocate", memory_bytes=512 * 1024**2, nbytes=2 * GIB)
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kib < 50 * 1024  # the 2 GiB were asked for in the child, never here


def test_work_under_the_ceiling_runs() -> None:
    assert run("allocate", memory_bytes=GIB, nbytes=100 * 1024**2) == 100 * 1024**2


def test_a_refusal_keeps_its_message() -> None:
    with pytest.raises(Refused, match="these weights are for a cat detector"):
        run("refuse", reason="these weights are for a cat detector")


def test_an_unexpected_error_carries_no_server_path() -> None:
    with pytest.raises(IsolatedFailure) as failure:
        run("fail")
    assert "KeyError" in failure.value.reason
    assert "/srv/sampan" not in failure.value.reason


def test_a_lost_job_stops_the_child(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(isolated, "HEARTBEAT_SECONDS", 0.2)
    beats: list[int] = []

    def heartbeat() -> bool:
        beats.append(1)
        return len(beats) < 3

    with pytest.raises(Abandoned):
        run_isolated(
            f"{TARGETS}:sleep", {"seconds": 60}, memory_bytes=GIB, timeout=120, heartbeat=heartbeat
        )
    assert len(beats) == 3


def test_work_past_its_time_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(isolated, "HEARTBEAT_SECONDS", 0.2)
    with pytest.raises(IsolatedFailure, match="took longer than"):
        run("sleep", timeout=1, seconds=60)
