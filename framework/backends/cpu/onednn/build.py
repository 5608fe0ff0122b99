"""Which oneDNN build a `libdnnl.so.3` is, and whether the binding (`library`) may use it.

The binding's C signatures and constants are oneDNN 3's (`dnnl_types.h`, v3), written and tested
against 3.2, the `onednn-cpu-gomp` wheel that pyproject pins; oneDNN keeps its C API and ABI
within a major version. It sizes oneDNN's OpenMP teams through GNU OpenMP's
`omp_set_num_threads` (`openmp`), so the build must run on OpenMP, and the `omp_*` functions the
library itself calls must be GNU OpenMP's (a build on Intel's `libiomp5` would ignore our team
sizes and spin beside our GNU OpenMP threads).

PaddlePaddle ships its own, newer `libdnnl.so.3` (on Intel OpenMP's ABI). Opened by that bare
name in a process that imported Paddle first, the dynamic loader hands back Paddle's copy:
`check` refuses a library that was already mapped into the process before we opened it.

    >>> incompatibility(Build((3, 2, 0), RUNTIME_OMP, "/venv/lib/libdnnl.so.3", "libgomp.so.1"))
    >>> incompatibility(Build((2, 7, 3), RUNTIME_OMP, "/usr/lib/libdnnl.so.2", "libgomp.so.1"))
    'oneDNN 2.7.3 (/usr/lib/libdnnl.so.2) is not supported: the binding needs oneDNN 3.x, 3.2 or newer'
"""  # noqa: E501

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass

MAJOR = 3  # the C API the binding is written against
OLDEST = (3, 2)  # the oldest release of it the binding was tested with
RUNTIME_OMP = 2  # dnnl_runtime_omp, the `cpu_runtime` of `dnnl_version_t`
_RUNTIMES = {1: "sequential", 2: "OpenMP", 4: "TBB", 8: "threadpool", 1024: "SYCL"}


class Refused(OSError):
    """A loaded `libdnnl` the binding must not use (another package's copy, or a build or
    version it is not written for). An OSError, like a library that does not load at all."""


class _Version(ctypes.Structure):  # dnnl_version_t
    _fields_ = [
        ("major", ctypes.c_int),
        ("minor", ctypes.c_int),
        ("patch", ctypes.c_int),
        ("hash", ctypes.c_char_p),
        ("cpu_runtime", ctypes.c_uint),
        ("gpu_runtime", ctypes.c_uint),
    ]


class _DlInfo(ctypes.Structure):  # glibc's Dl_info
    _fields_ = [
        ("dli_fname", ctypes.c_char_p),
        ("dli_fbase", ctypes.c_void_p),
        ("dli_sname", ctypes.c_char_p),
        ("dli_saddr", ctypes.c_void_p),
    ]


@dataclass(frozen=True)
class Build:
    """A loaded oneDNN: `version` (major, minor, patch) and `cpu_runtime` from `dnnl_version()`,
    `path` the file it was loaded from, `openmp` the file of the `omp_*` functions it calls
    (None: it calls none)."""

    version: tuple[int, int, int]
    cpu_runtime: int
    path: str
    openmp: str | None


def incompatibility(build: Build) -> str | None:
    """Why the binding cannot use `build`, in a sentence for the operator; None where it can."""
    version = ".".join(map(str, build.version))
    if build.version[0] != MAJOR or build.version[:2] < OLDEST:
        oldest = ".".join(map(str, OLDEST))
        return (
            f"oneDNN {version} ({build.path}) is not supported: the binding needs oneDNN "
            f"{MAJOR}.x, {oldest} or newer"
        )
    if build.cpu_runtime != RUNTIME_OMP:
        runtime = _RUNTIMES.get(build.cpu_runtime, hex(build.cpu_runtime))
        return (
            f"oneDNN {version} ({build.path}) runs on {runtime}; the binding needs an OpenMP "
            "build (pip install onednn-cpu-gomp)"
        )
    if build.openmp is None or not os.path.basename(build.openmp).startswith("libgomp"):
        return (
            f"oneDNN {version} ({build.path}) runs on {build.openmp or 'no OpenMP runtime'}, "
            "not GNU OpenMP (libgomp.so.1), whose team sizes the binding sets"
        )
    return None


def mapped_copies() -> set[str]:
    """The `libdnnl` files mapped into this process now (empty where /proc is not there)."""
    try:
        with open("/proc/self/maps") as maps:
            lines = maps.read().splitlines()
    except OSError:
        return set()
    paths = {line.split(maxsplit=5)[-1] for line in lines if line.count(" ") >= 5}
    return {os.path.realpath(p) for p in paths if os.path.basename(p).startswith("libdnnl.so")}


def origin(lib, symbol: str) -> str | None:
    """The real path of the file that `symbol`, as `lib` resolves it, lives in (glibc's
    `dladdr`); None where it cannot be told."""
    try:
        address = ctypes.cast(getattr(lib, symbol), ctypes.c_void_p).value
        dladdr = ctypes.CDLL(None).dladdr
    except (AttributeError, OSError):
        return None
    dladdr.argtypes, dladdr.restype = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)], ctypes.c_int
    info = _DlInfo()
    if not dladdr(address, ctypes.byref(info)) or not info.dli_fname:
        return None
    return os.path.realpath(info.dli_fname.decode())


def check(lib, mapped_before: set[str]) -> Build:
    """The build `lib` (just opened) is; Refused where the binding must not use it:
    it is a copy that was mapped before we opened it (`mapped_before`, from `mapped_copies`:
    another package's, such as PaddlePaddle's), or `incompatibility` names a reason."""
    path = origin(lib, "dnnl_version") or "an unknown file"
    if path in mapped_before:
        raise Refused(
            f"libdnnl resolved to {path}, a copy another package loaded first (PaddlePaddle "
            "ships one); the binding uses only the copy of the onednn-cpu-gomp wheel"
        )
    lib.dnnl_version.restype = ctypes.POINTER(_Version)
    found = lib.dnnl_version().contents
    build = Build(
        (found.major, found.minor, found.patch),
        found.cpu_runtime,
        path,
        origin(lib, "omp_get_max_threads"),
    )
    problem = incompatibility(build)
    if problem is not None:
        raise Refused(problem)
    return build
