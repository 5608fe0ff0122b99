"""`onednn.build`: which libdnnl the binding loaded, and the copies and builds it refuses."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from framework.backends.cpu.onednn import build, library

needs_onednn = pytest.mark.skipif(not library.available(), reason="oneDNN is not installed")

GOMP = "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0"
OURS = "/venv/lib/libdnnl.so.3"


@pytest.mark.parametrize(
    "version, runtime, openmp, refused_for",
    [
        ((3, 2, 0), build.RUNTIME_OMP, GOMP, None),
        ((3, 6, 2), build.RUNTIME_OMP, GOMP, None),  # newer 3.x: same C API and ABI
        ((3, 1, 1), build.RUNTIME_OMP, GOMP, "3.2 or newer"),
        ((2, 7, 3), build.RUNTIME_OMP, GOMP, "needs oneDNN 3.x"),
        ((4, 0, 0), build.RUNTIME_OMP, GOMP, "needs oneDNN 3.x"),
        ((3, 2, 0), 4, GOMP, "runs on TBB"),
        ((3, 2, 0), 1, None, "runs on sequential"),
        ((3, 2, 0), build.RUNTIME_OMP, "/opt/intel/lib/libiomp5.so", "not GNU OpenMP"),
        ((3, 2, 0), build.RUNTIME_OMP, None, "not GNU OpenMP"),
    ],
)
def test_incompatibility_table(version, runtime, openmp, refused_for):
    reason = build.incompatibility(build.Build(version, runtime, OURS, openmp))
    if refused_for is None:
        assert reason is None
    else:
        assert refused_for in reason and OURS in reason
        assert ".".join(map(str, version)) in reason


@needs_onednn
def test_the_loaded_library_is_the_wheels_oneDNN_3_on_gnu_openmp():  # noqa: N802
    loaded = library.loaded().build
    assert loaded.version[0] == 3 and loaded.version[:2] >= build.OLDEST
    assert loaded.cpu_runtime == build.RUNTIME_OMP
    assert os.path.basename(loaded.openmp).startswith("libgomp")
    wheel_copy = os.path.realpath(os.path.join(sys.prefix, "lib", "libdnnl.so.3"))
    assert loaded.path == wheel_copy
    assert library.refusal() is None


def _run(script: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)


@needs_onednn
def test_a_bare_name_that_resolves_to_paddles_copy_is_refused():
    """With Paddle imported first, `libdnnl.so.3` by name is Paddle's oneDNN (3.6, a newer
    version the version check alone would let through): the binding refuses it, says why,
    and keeps to the NumPy kernels; by the wheel's path it still gets its own copy."""
    pytest.importorskip("paddle")
    script = (
        "import warnings, sys, ctypes.util\n"
        "import paddle\n"
        "from framework.backends.cpu.onednn import build, library\n"
        "try:\n"
        "    library._open('libdnnl.so.3')\n"
        "    print('opened')\n"
        "except build.Refused as refused:\n"
        "    print('refused', refused)\n"
        # the wheel's copy missing, the system search answering the bare name
        "sys.prefix = '/nonexistent'\n"
        "ctypes.util.find_library = lambda name: 'libdnnl.so.3'\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    print('available', library.available())\n"
        "print('refusal', library.refusal())\n"
        "print('warned', [str(w.message) for w in caught])\n"
    )
    done = _run(script)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("refused libdnnl resolved to") and "paddle" in lines[0]
    assert lines[1] == "available False"
    assert lines[2].startswith("refusal libdnnl resolved to") and "paddle" in lines[2]
    assert "oneDNN is not used" in lines[3] and "PaddlePaddle" in lines[3]


@needs_onednn
def test_after_paddle_the_wheels_path_still_loads_our_own_copy():
    pytest.importorskip("paddle")
    script = (
        "import paddle, sys, os\n"
        "from framework.backends.cpu.onednn import library\n"
        "assert library.available(), library.refusal()\n"
        "print(library.loaded().build.path)\n"
        "print(os.path.realpath(os.path.join(sys.prefix, 'lib', 'libdnnl.so.3')))\n"
    )
    done = _run(script)
    assert done.returncode == 0, done.stderr[-2000:]
    ours, wheel = done.stdout.split()
    assert ours == wheel and "paddle" not in ours


@needs_onednn
def test_mapped_copies_lists_the_loaded_library_and_nothing_else():
    copies = build.mapped_copies()
    assert library.loaded().build.path in copies
    assert all(os.path.basename(path).startswith("libdnnl.so") for path in copies)
