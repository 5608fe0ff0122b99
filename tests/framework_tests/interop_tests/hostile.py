"""Small weight files that ask for far more memory than they hold, and a child process that
loads one and reports its peak memory.

Each builder writes one file to `folder` and returns its path. None of them runs code when
loaded; they only ask for memory: a plain reader would allocate gigabytes for them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
from numpy._core.multiarray import _reconstruct

from tests.framework_tests.interop_tests.malicious import Reduce, write_pdparams

GIB = 2**30
ROOT = Path(__file__).resolve().parents[3]


def bytearray_pdparams(folder: Path) -> Path:
    return write_pdparams(folder / "weights.pdparams", {"w": Reduce(bytearray, 4 * GIB)}, 2)


def bytes_pdparams(folder: Path) -> Path:
    return write_pdparams(folder / "weights.pdparams", {"w": Reduce(bytes, 4 * GIB)}, 2)


def reconstruct_pdparams(folder: Path) -> Path:
    huge = Reduce(_reconstruct, np.ndarray, (GIB,), b"f")  # 1 Gi float32 elements
    return write_pdparams(folder / "weights.pdparams", {"w": huge}, 2)


def subarray_pdparams(folder: Path) -> Path:
    element = np.dtype(("f4", (500_000_000,)))  # one element is 2 GB
    huge = Reduce(_reconstruct, np.ndarray, (4,), element)
    return write_pdparams(folder / "weights.pdparams", {"w": huge}, 2)


def memo_pdparams(folder: Path) -> Path:
    """`{}` stored at memo index 2**28: the C unpickler grows its memo to 2**29 slots."""
    path = folder / "weights.pdparams"
    path.write_bytes(b"\x80\x02}r" + (2**28).to_bytes(4, "little") + b".")
    return path


def empty_sets_pdparams(folder: Path) -> Path:
    """Two million empty sets in a list: 2 MB of opcodes, 450 MB of objects."""
    path = folder / "weights.pdparams"
    sets = b"](" + b"\x8f" * 2_000_000 + b"e"  # EMPTY_LIST, MARK, EMPTY_SET..., APPENDS
    path.write_bytes(b"\x80\x04}X\x01\x00\x00\x00w" + sets + b"s.")
    return path


def list_copies_pdparams(folder: Path, copies: int = 20_000) -> Path:
    """One list of 100,000 items, then `list(it)` called 20,000 times: 16 GB of copies."""
    global_list = b"c__builtin__\nlist\nq\x000"  # memo 0, then POP
    items = b"(" + b"N" * 100_000 + b"lq\x010"  # memo 1, then POP
    copy = b"h\x00h\x01\x85R"  # the global, the items, TUPLE1, REDUCE: list(items)
    copied = b"]q\x02(" + copy * copies + b"e"
    path = folder / "weights.pdparams"
    path.write_bytes(b"\x80\x02}q\x03X\x01\x00\x00\x00w" + global_list + items + copied + b"s.")
    return path


def deflated_zeros_pth(folder: Path, mib: int = 256) -> Path:
    """A torch.save zip whose storage record is 256 MiB of zeros, deflated to ~260 KB."""
    torch = _torch()
    path = folder / "weights.pth"
    torch.save({"w": torch.zeros(4)}, path)
    bomb = folder / "bomb.pth"
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(bomb, "w", compresslevel=9) as target:
        for info in source.infolist():
            if not info.filename.endswith("/data/0"):
                target.writestr(info.filename, source.read(info))
                continue
            member = zipfile.ZipInfo(info.filename)
            member.compress_type = zipfile.ZIP_DEFLATED
            with target.open(member, "w") as stream:
                for _ in range(mib):
                    stream.write(bytes(2**20))
    bomb.replace(path)
    return path


def stride_zero_pth(folder: Path) -> Path:
    """A one-element storage expanded (stride 0) to 2**30 elements: 4 GiB once contiguous."""
    torch = _torch()
    path = folder / "weights.pth"
    torch.save({"w": torch.zeros(1).expand(GIB)}, path)
    return path


def legacy_storage_pth(folder: Path) -> Path:
    """A legacy torch.save file whose storage claims 2**30 float32 elements."""
    torch = _torch()
    path = folder / "weights.pth"
    torch.save({"w": torch.zeros(4)}, path, _use_new_zipfile_serialization=False)
    data = path.read_bytes()
    count = data[-24:-16]  # the storage: an int64 element count, then its 16 bytes
    assert int.from_bytes(count, "little") == 4
    path.write_bytes(data[:-24] + GIB.to_bytes(8, "little") + data[-16:])
    return path


def shared_lists_pdparams(folder: Path, depth: int = 24) -> Path:
    """Lists holding the same list twice, `depth` deep: 2**depth lists if copied as a tree."""
    nested: Any = [None]
    for _ in range(depth):
        nested = [nested, nested]
    return write_pdparams(folder / "weights.pdparams", {"w": nested}, 2)


def _torch() -> Any:
    import torch

    return torch


# --- loading in a child process ----------------------------------------------------------------
# Peak RSS is read from VmHWM, the high-water mark of this process's own memory, not from
# ru_maxrss, which Linux carries over exec from the parent (a pytest that imported torch).
# Writing 5 to clear_refs resets the mark, so `baseline_kib` is the RSS after imports.
_CHILD = """
import json, resource, sys
from framework.interop import paddle, torch

def status(field):
    with open("/proc/self/status") as lines:
        return next(int(line.split()[1]) for line in lines if line.startswith(field + ":"))

loader, path = sys.argv[1:3]
load = {"torch": torch.load, "paddle": paddle.load_state_dict}[loader]
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
    load(path)
except Exception as exc:
    outcome = {"error": type(exc).__name__, "message": str(exc)}
outcome["baseline_kib"] = baseline
outcome["peak_kib"] = status("VmHWM")
print(json.dumps(outcome))
"""


def load_in_child(loader: str, path: Path, timeout: float = 300) -> dict[str, Any]:
    """Load `path` with `loader` ('torch' or 'paddle') in a fresh Python; returns the error
    class name and message (None, '' when it loaded), and the child's peak RSS after its
    imports (`baseline_kib`) and at the end (`peak_kib`)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, loader, str(path)],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=timeout,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])
