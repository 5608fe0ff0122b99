"""MNIST's IDX reader refuses a gzip file that unpacks past its ceiling, as it unpacks, instead
of decompressing it whole (a 600 KB gzip of zeros took all of its 600 MiB before)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from framework.vision.datasets.mnist import read_idx

ROOT = Path(__file__).resolve().parents[3]
IMAGES_MAGIC = 2051
CHILD = """
import json, sys
def peak():
    with open("/proc/self/status") as lines:
        return next(int(l.split()[1]) for l in lines if l.startswith("VmHWM:"))
from framework.vision.datasets.mnist import read_idx
with open("/proc/self/clear_refs", "w") as refs:
    refs.write("5")  # reset the high-water mark: measure the read alone
base = peak()
try:
    read_idx(sys.argv[1], 2051)
    error = ""
except ValueError as exc:
    error = str(exc)
print(json.dumps({"error": error, "grown_mib": (peak() - base) / 1024}))
"""


def gzip_bomb(path: Path, mib: int) -> Path:
    header = IMAGES_MAGIC.to_bytes(4, "big") + b"".join(n.to_bytes(4, "big") for n in (10, 28, 28))
    with gzip.open(path, "wb", compresslevel=9) as out:
        out.write(header)
        for _ in range(mib):
            out.write(bytes(2**20))
    return path


def test_a_gzip_bomb_is_refused_as_it_unpacks(tmp_path: Path) -> None:
    path = gzip_bomb(tmp_path / "train-images-idx3-ubyte.gz", mib=600)
    assert path.stat().st_size < 2**20
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout.strip().splitlines()[-1])
    assert "unpacks to more than" in outcome["error"]
    assert "train-images-idx3-ubyte.gz" in outcome["error"]
    assert str(tmp_path) not in outcome["error"]
    # The 256 MiB ceiling, the growing buffer's slack and one chunk; never the 600 MiB.
    assert outcome["grown_mib"] < 400


def test_a_real_gzipped_idx_file_still_reads(tmp_path: Path) -> None:
    images = np.arange(2 * 28 * 28, dtype=np.uint8).reshape(2, 28, 28)
    header = IMAGES_MAGIC.to_bytes(4, "big") + b"".join(n.to_bytes(4, "big") for n in (2, 28, 28))
    path = tmp_path / "images.gz"
    path.write_bytes(gzip.compress(header + images.tobytes()))
    np.testing.assert_array_equal(read_idx(str(path), IMAGES_MAGIC), images)


def test_a_ceiling_smaller_than_the_file_refuses_it(tmp_path: Path) -> None:
    path = gzip_bomb(tmp_path / "images.gz", mib=2)
    with pytest.raises(ValueError, match="unpacks to more than 1,048,576 bytes"):
        read_idx(str(path), IMAGES_MAGIC, max_bytes=2**20)
