"""The GNU OpenMP runtime that oneDNN and MKL's threaded GEMM run their thread teams on.

Both load the same `libgomp.so.1`, so their teams never fight each other; what matters is how
long a team's idle threads spin before they sleep. GNU OpenMP's default, 300,000 rounds (about
a millisecond here), left teams spinning into the NumPy and BLAS work that follows them in
training and fighting it for the cores; sleeping at once (`OMP_WAIT_POLICY=PASSIVE`) slows
single-sample predictor runs, a team per convolution, on a quiet machine; 20,000 rounds avoids
both (the measurements: `benchmarks/README.md`, "Recorded: CPU runtime thresholds"). On a busy
machine a serving predictor does better sleeping at once: a CPU predictor with a team calls
`wait_passively` before it loads the runtime (the rule: `routing.wait_policy`). The runtime
reads its wait policy once, when it loads, so whoever loads it does so inside `spin_limit`.

GNU OpenMP cannot run a team in a child forked after the parent ran one (the child waits for
threads it does not have). Whoever starts a team says so (`team_started`); in such a child
`teams_usable()` is False, and oneDNN and MKL's threads keep out of it.
"""

from __future__ import annotations

import ctypes
import os
import threading

from framework.backends.cpu.tuning import TUNING

_lock = threading.Lock()
_team_started = False  # a team may have run in this process
_forked_after_team = False  # this process is a child forked after its parent ran a team
_passive = False  # `wait_passively` was asked before the runtime loaded
_USER_SETTINGS = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")


class spin_limit:  # noqa: N801 - used as a context manager, like `no_grad`
    """Context: a GNU OpenMP runtime loaded inside it spins `TUNING.openmp_spin_rounds` rounds
    (`GOMP_SPINCOUNT`), or sleeps at once (`OMP_WAIT_POLICY=PASSIVE`) after `wait_passively`,
    unless the user chose a wait policy (`OMP_WAIT_POLICY` or `GOMP_SPINCOUNT`)."""

    def __enter__(self) -> None:
        _lock.acquire()
        self.set = None
        if not set(_USER_SETTINGS) & set(os.environ):
            if _passive:
                self.set, value = "OMP_WAIT_POLICY", "PASSIVE"
            else:
                self.set, value = "GOMP_SPINCOUNT", str(TUNING.openmp_spin_rounds)
            os.environ[self.set] = value

    def __exit__(self, *exc: object) -> None:
        if self.set is not None:
            del os.environ[self.set]
        _lock.release()


def loaded() -> bool:
    """Whether GNU OpenMP is loaded in this process (by the framework or any other library)."""
    try:
        ctypes.CDLL("libgomp.so.1", mode=os.RTLD_NOLOAD)
    except OSError:
        return False
    return True


def wait_passively() -> bool:
    """Ask that GNU OpenMP's idle threads sleep at once once it loads (`routing.wait_policy`
    says who asks). True where that will hold; False where the runtime is loaded already (its
    policy is fixed: a process that trained first keeps spinning) or the user set a policy."""
    global _passive
    with _lock:
        if set(_USER_SETTINGS) & set(os.environ) or loaded():
            return False
        _passive = True
        return True


def runtime():
    """The GNU OpenMP runtime (loaded inside `spin_limit` if this loads it), or None."""
    with spin_limit():
        try:
            return ctypes.CDLL("libgomp.so.1")
        except OSError:
            return None


def team_started() -> None:
    """Note that this process may have run (or is about to run) an OpenMP team."""
    global _team_started
    _team_started = True


def teams_usable() -> bool:
    """Whether OpenMP teams may run in this process (not a child forked after a team ran)."""
    return not _forked_after_team


def _after_fork_in_child() -> None:
    global _forked_after_team
    _forked_after_team = _forked_after_team or _team_started


os.register_at_fork(after_in_child=_after_fork_in_child)
