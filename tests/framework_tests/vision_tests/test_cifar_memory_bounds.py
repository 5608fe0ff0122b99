"""CIFAR archives that ask for far more memory than they hold are refused before the memory is
taken: hostile batch pickles (the weight files' ones, from interop_tests/hostile.py), members
that unpack to hundreds of MiB, and headers that claim as much.

Each archive is read in a child process, whose peak RSS must stay near its RSS after imports;
a plain reader takes gigabytes, or the size of the bomb, for each.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from framework.interop.safe_unpickle import CheckpointTooLargeError, human_size
from framework.vision.datasets import Cifar10
from tests.framework_tests.interop_tests import hostile
from tests.framework_tests.vision_tests.cifar_archives import (
    MIB,
    bomb_archive,
    cifar_batch,
    pax_bomb_archive,
    write_archive,
)

ROOT = Path(__file__).resolve().parents[3]
HEADROOM_KIB = 200 * 1024  # what a refused read may take above the child's RSS after imports
BATCH = "cifar-10-batches-py/data_batch_1"
IN_ARCHIVE = f"'{BATCH}' in 'cifar-10-python.tar.gz'"

HOSTILE_PICKLES: dict[str, tuple[Callable[[Path], Path], str]] = {
    # name: (the weights file whose pickle becomes the batch, what the refusal says was asked)
    "bytearray(4 GiB)": (hostile.bytearray_pdparams, "4.0 GiB for a bytearray"),
    "bytes(4 GiB)": (hostile.bytes_pdparams, "4.0 GiB for a bytes"),
    "memo index 2**28": (hostile.memo_pdparams, "4.0 GiB for the objects its pickle builds"),
    "_reconstruct of 2**30 floats": (
        hostile.reconstruct_pdparams, "4.0 GiB for a NumPy array of shape (1073741824,)"
    ),
    "subarray dtype of 2 GB": (
        hostile.subarray_pdparams, "7.5 GiB for a NumPy array of shape (4,)"
    ),
    "list(x) 20,000 times": (hostile.list_copies_pdparams, "for a list"),
    "two million empty sets": (hostile.empty_sets_pdparams, "for the objects its pickle builds"),
}  # fmt: skip

# Peak RSS is read from VmHWM (this process's own high-water mark; ru_maxrss carries over exec
# from pytest), reset after the imports by writing 5 to clear_refs, as in hostile.load_in_child.
_CHILD = """
import json, resource, sys
from framework.vision.datasets import Cifar10

def status(field):
    with open("/proc/self/status") as lines:
        return next(int(line.split()[1]) for line in lines if line.startswith(field + ":"))

# a safety net, not the measure: a regression fails with MemoryError instead of taking the
# machine's memory
resource.setrlimit(resource.RLIMIT_AS, (status("VmSize") * 1024 + 2**31, resource.RLIM_INFINITY))
try:
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")
except OSError:
    pass
baseline = status("VmHWM")
outcome = {"error": None, "message": ""}
try:
    Cifar10(data_file=sys.argv[1], mode="train")
except Exception as exc:
    outcome = {"error": type(exc).__name__, "message": str(exc)}
outcome["baseline_kib"] = baseline
outcome["peak_kib"] = status("VmHWM")
print(json.dumps(outcome))
"""


def read_in_child(path: Path) -> dict[str, Any]:
    """`Cifar10(data_file=path)` in a fresh Python: the error class name and message (None, ''
    when it loaded), and the child's peak RSS after its imports and at the end, in KiB."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path)],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def assert_refused_cheaply(outcome: dict[str, Any], starts: str, asked: str) -> None:
    """Refused as too large, by a message that starts with `starts` and names the archive by
    its base name (`starts` says so), without the child's memory growing."""
    assert outcome["error"] == "CheckpointTooLargeError", outcome
    message = outcome["message"]
    assert message.startswith(starts), message
    assert asked in message, message
    grew = outcome["peak_kib"] - outcome["baseline_kib"]
    assert grew < HEADROOM_KIB, f"the child's peak RSS grew by {grew // 1024} MiB"


@pytest.mark.parametrize("kind", sorted(HOSTILE_PICKLES))
def test_it_refuses_a_batch_asking_for_more_than_it_holds(tmp_path: Path, kind: str):
    build, asked = HOSTILE_PICKLES[kind]
    pickled = build(tmp_path).read_bytes()
    path = write_archive(tmp_path / "cifar-10-python.tar.gz", {BATCH: pickled})
    outcome = read_in_child(path)
    assert_refused_cheaply(outcome, f"refusing to load {IN_ARCHIVE}: it asks for ", asked)
    assert f"a file of {human_size(len(pickled))} can hold at most" in outcome["message"]


def test_it_refuses_a_member_that_unpacks_past_a_batchs_size(tmp_path: Path):
    path = bomb_archive(tmp_path / "cifar-10-python.tar.gz", BATCH)
    assert path.stat().st_size < 2 * MIB
    outcome = read_in_child(path)
    assert_refused_cheaply(
        outcome,
        f"refusing to read {IN_ARCHIVE}: it holds 320.0 MiB, ",
        "more than the 256.0 MiB a CIFAR batch may hold",
    )


def test_it_refuses_a_header_claiming_hundreds_of_mib(tmp_path: Path):
    batch = pickle.dumps(cifar_batch(np.random.default_rng(0), 2, b"labels"), 2)
    path = pax_bomb_archive(tmp_path / "cifar-10-python.tar.gz", batch)
    outcome = read_in_child(path)
    assert_refused_cheaply(
        outcome,
        "refusing to read 'cifar-10-python.tar.gz': a member's headers ask for 320.0 MiB",
        "more than the 1.0 MiB headers may take",
    )


def test_it_refuses_an_archive_of_too_many_members(tmp_path: Path):
    members = {f"cifar-10-batches-py/readme{i}": b"" for i in range(1001)}
    path = write_archive(tmp_path / "cifar-10-python.tar.gz", members)
    with pytest.raises(CheckpointTooLargeError, match="holds more than 1000 members"):
        Cifar10(data_file=str(path))


def test_it_counts_the_members_it_skips_towards_the_archives_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Skipping a member unpacks it: a small archive can make that take minutes."""
    limits = dataclasses.replace(Cifar10.ARCHIVE_LIMITS, total_bytes=MIB)
    monkeypatch.setattr(Cifar10, "ARCHIVE_LIMITS", limits)
    batch = pickle.dumps(cifar_batch(np.random.default_rng(0), 2, b"labels"), 2)
    members = {"cifar-10-batches-py/readme.html": bytes(2 * MIB), BATCH: batch}
    path = write_archive(tmp_path / "cifar-10-python.tar.gz", members)
    with pytest.raises(
        CheckpointTooLargeError,
        match=r"^refusing to read 'cifar-10-python.tar.gz': it unpacks to more than 1.0 MiB",
    ):
        Cifar10(data_file=str(path))
    members.pop("cifar-10-batches-py/readme.html")
    assert len(Cifar10(data_file=str(write_archive(path, members)))) == 2
