"""Devices and slots: one job per GPU, and one CPU job per host when there is no GPU.

A worker sees the GPUs that CUDA_VISIBLE_DEVICES leaves it (the i-th visible one is `gpu:i`).
Each running job holds a slot: an exclusive lock on a file named after the host and device,
taken without blocking. The operating system drops the lock when the process dies, even by
SIGKILL, so a dead worker never keeps a device busy.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

from workers.runtime.failures import DeviceUnavailable


@dataclass(frozen=True)
class Device:
    id: str  # "cpu" or "gpu:N"
    kind: str  # "cpu" or "gpu"
    name: str
    memory_bytes: int

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def detect_devices() -> list[Device]:
    from framework.core import backend

    gpus = []
    for index in range(backend.device_count()):
        properties = backend.cupy.cuda.runtime.getDeviceProperties(index)
        name = properties["name"]
        gpus.append(
            Device(
                f"gpu:{index}",
                "gpu",
                name.decode() if isinstance(name, bytes) else str(name),
                int(properties.get("totalGlobalMem", 0)),
            )
        )
    if gpus:
        return gpus
    return [Device("cpu", "cpu", f"CPU ({os.cpu_count()} cores)", _total_memory())]


def _total_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 0


def memory_in_use(device: str) -> int:
    """Bytes the job holds: CuPy's pool on a GPU, the process's resident set on the CPU."""
    if device.startswith("gpu"):
        from framework.core import backend

        return int(backend.cupy.get_default_memory_pool().used_bytes())
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


@dataclass
class Slot:
    device: Device
    handle: IO[str]

    def release(self) -> None:
        fcntl.flock(self.handle, fcntl.LOCK_UN)
        self.handle.close()


def _slot_folder(hostname: str) -> Path:
    digest = hashlib.sha1(hostname.encode()).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / "sampan-slots" / digest
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def acquire_slot(hostname: str, devices: list[Device] | None = None) -> Slot | None:
    """A free device of this host, locked for this process; None when all are busy."""
    folder = _slot_folder(hostname)
    for device in devices or detect_devices():
        handle = open(folder / f"{device.id.replace(':', '-')}.lock", "w")  # noqa: SIM115
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            continue
        return Slot(device, handle)
    return None


def device_for(requested: str, slot: Slot) -> str:
    """The framework device string a job runs on, given what it asked for and its slot."""
    if requested == "cpu":
        return "cpu"
    if slot.device.kind == "gpu":
        return slot.device.id
    if requested == "gpu":
        raise DeviceUnavailable("This job asks for a GPU, but the worker that took it has none.")
    return "cpu"
