"""Removes what the runtime install brings but the framework never loads: after `pip install`.

    python packaging/prune_runtime.py           # the Makefile's install targets, the Dockerfile
    python packaging/prune_runtime.py --check   # exit 1, naming each one that is installed

`mkl`'s wheel requires Intel's OpenMP runtime and oneTBB (and they theirs): about 290 MiB that
no process here maps. The framework sets MKL's threading layer itself, to GNU OpenMP, the
runtime oneDNN's library is linked against (`framework/backends/cpu/gemm.py`, `openmp.py`),
or to sequential where `libgomp.so.1` is missing; Intel's runtime and TBB are never chosen.
pip cannot install `mkl` without its requirements while `pyproject.toml` lists it (and should:
`pip install sampan` alone must work), so the install recipes prune after installing. Run it
after every `pip install` into the environment: pip puts a missing requirement back.

The oneDNN wheel ships its library three times, as files rather than links; the binding opens
`libdnnl.so.3` (`framework/backends/cpu/onednn/library.py`).

Every file kept in `<prefix>/lib` is in `KEPT_LIBRARIES`, with why: the test
(tests/packaging_tests/test_prune_runtime.py) fails on a library there that is in neither
list, and checks in `/proc/self/maps` that the framework's MKL and oneDNN work loads no
pruned file.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

# Distributions that only MKL's wheel requires, none of them loaded.
PRUNED_DISTRIBUTIONS: dict[str, str] = {
    "intel-openmp": "Intel's OpenMP runtime (libiomp5): MKL runs on GNU OpenMP here",
    "intel-cmplr-lib-ur": "intel-openmp's Unified Runtime (offload to Intel GPUs)",
    "umf": "the Unified Runtime's memory framework",
    "tbb": "oneTBB, for MKL's TBB threading layer, which is never chosen",
    "tcmlib": "oneTBB's thread composability manager",
}

_MPI = "MKL's cluster library: it needs an MPI library, and the framework calls BLAS only"
# Files of kept distributions, by distribution, that cannot or need not load.
PRUNED_FILES: dict[str, dict[str, str]] = {
    "mkl": {
        "libmkl_intel_thread.so.3": "MKL's threading layer on Intel OpenMP (pruned above)",
        "libmkl_tbb_thread.so.3": "MKL's threading layer on oneTBB (pruned above)",
        "libmkl_scalapack_lp64.so.2": _MPI,
        "libmkl_scalapack_ilp64.so.2": _MPI,
        "libmkl_blacs_intelmpi_lp64.so.2": _MPI,
        "libmkl_blacs_intelmpi_ilp64.so.2": _MPI,
        "libmkl_blacs_openmpi_lp64.so.2": _MPI,
        "libmkl_blacs_openmpi_ilp64.so.2": _MPI,
        "libmkl_cdft_core.so.2": _MPI,
    },
    "onednn-cpu-gomp": {
        "libdnnl.so": "a copy of libdnnl.so.3, the file the binding opens",
        "libdnnl.so.3.2": "a copy of libdnnl.so.3, the file the binding opens",
    },
}

_CPU = "MKL's kernels for one CPU family: it loads the one that fits the CPU it runs on"
# The shared libraries the runtime install keeps in `<prefix>/lib`, and why.
KEPT_LIBRARIES: dict[str, str] = {
    "libmkl_rt.so.3": "MKL's single dynamic library, which gemm.py opens",
    "libmkl_core.so.3": "MKL's core, loaded by libmkl_rt",
    "libmkl_gnu_thread.so.3": "MKL's threading layer on GNU OpenMP, which gemm.py sets",
    "libmkl_sequential.so.3": "MKL's threading layer where libgomp.so.1 is missing",
    "libmkl_intel_lp64.so.3": "MKL's interface for 32-bit integers, the default",
    "libmkl_gf_lp64.so.3": "MKL's interface layer chosen by MKL_INTERFACE_LAYER=GNU",
    "libmkl_intel_ilp64.so.3": "MKL's interface layer chosen by MKL_INTERFACE_LAYER=ILP64",
    "libmkl_gf_ilp64.so.3": "MKL's interface layer chosen by MKL_INTERFACE_LAYER=GNU,ILP64",
    "libmkl_def.so.3": _CPU,
    "libmkl_mc3.so.3": _CPU,
    "libmkl_avx2.so.3": _CPU,
    "libmkl_avx512.so.3": _CPU,
    "libmkl_avx10.so.3": _CPU,
    "libmkl_vml_def.so.3": _CPU,
    "libmkl_vml_mc3.so.3": _CPU,
    "libmkl_vml_avx2.so.3": _CPU,
    "libmkl_vml_avx512.so.3": _CPU,
    "libmkl_vml_avx10.so.3": _CPU,
    "libmkl_vml_cmpt.so.3": "MKL's vector math for CPUs without a kernel of their own",
    "libdnnl.so.3": "oneDNN, which onednn/library.py opens",
}


@dataclass(frozen=True)
class Installed:
    """A pruned distribution (`path` None: all its files) or file that is installed."""

    distribution: str
    path: Path | None
    size: int


def _distribution(name: str, path: list[str] | None) -> metadata.Distribution | None:
    """The distribution `name` installed on `path` (None: sys.path), the first one found."""
    found = metadata.distributions(name=name, path=sys.path if path is None else path)
    return next(iter(found), None)


def _files(distribution: metadata.Distribution) -> list[tuple[str, Path]]:
    """(file name, path) of each file in the distribution's RECORD that exists."""
    found = []
    for file in distribution.files or []:
        path = Path(distribution.locate_file(file)).resolve()
        if path.is_file():
            found.append((file.name, path))
    return found


def installed(path: list[str] | None = None) -> list[Installed]:
    """Every pruned distribution and pruned file present on `path` (None: sys.path)."""
    found = []
    for name in PRUNED_DISTRIBUTIONS:
        distribution = _distribution(name, path)
        if distribution is not None:
            size = sum(file.stat().st_size for _, file in _files(distribution))
            found.append(Installed(name, None, size))
    for name, pruned in PRUNED_FILES.items():
        distribution = _distribution(name, path)
        for file_name, file in _files(distribution) if distribution else []:
            if file_name in pruned:
                found.append(Installed(name, file, file.stat().st_size))
    return found


def _remove(files: list[Path], site: Path) -> None:
    """Deletes `files`, then each folder they leave empty, inside the environment of the
    `site` folder (its site-packages) and never the site folder or the folders above it."""
    root, kept = site.parents[2], {site, *site.parents}
    for file in files:
        file.unlink()
    for folder in sorted({f.parent for f in files}, key=lambda p: len(p.parts), reverse=True):
        # A folder walked up to from a deeper one may be gone already.
        while folder.is_dir() and folder not in kept and root in folder.parents:
            if any(folder.iterdir()):
                break
            folder.rmdir()
            folder = folder.parent


def _drop_from_record(distribution: metadata.Distribution, names: set[str]) -> None:
    """Removes the lines of `names` from the distribution's RECORD, so that `pip show -f`
    and a later `pip uninstall` see the files it has."""
    record = next((f for f in distribution.files or [] if f.name == "RECORD"), None)
    if record is None:
        return
    path = Path(distribution.locate_file(record))
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(line for line in lines if Path(line.split(",")[0]).name not in names))


def site_folder(distribution: metadata.Distribution) -> Path:
    """The site-packages folder a distribution is installed in."""
    return Path(distribution.locate_file("")).resolve()


def environment_root(distribution: metadata.Distribution) -> Path:
    """The environment a distribution is installed in (`<root>/lib/pythonX.Y/site-packages`)."""
    return site_folder(distribution).parents[2]


def prune(path: list[str] | None = None) -> int:
    """Uninstalls the pruned distributions and deletes the pruned files on `path` (None:
    sys.path); returns the bytes freed.

    A distribution goes as `pip uninstall` takes one that ships only data files: each file its
    RECORD lists, its metadata folder, and the folders that leaves empty. (pip itself cannot be
    pointed at another environment's folders, and these wheels hold no Python code.)
    """
    freed = 0
    for name in PRUNED_DISTRIBUTIONS:
        distribution = _distribution(name, path)
        if distribution is not None:
            files = [file for _, file in _files(distribution)]
            freed += sum(file.stat().st_size for file in files)
            _remove(files, site_folder(distribution))
    for name, pruned in PRUNED_FILES.items():
        distribution = _distribution(name, path)
        if distribution is None:
            continue
        files = [file for file_name, file in _files(distribution) if file_name in pruned]
        freed += sum(file.stat().st_size for file in files)
        _remove(files, site_folder(distribution))
        _drop_from_record(distribution, set(pruned))
    return freed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if anything pruned is here")
    args = parser.parse_args(argv)
    if args.check:
        present = installed()
        for item in present:
            what = item.path or f"the {item.distribution} distribution"
            print(f"installed, never loaded: {what}", file=sys.stderr)
        return 1 if present else 0
    freed = prune()
    print(f"prune_runtime: removed {freed / 2**20:.1f} MiB the framework never loads")
    return 0


if __name__ == "__main__":
    sys.exit(main())
