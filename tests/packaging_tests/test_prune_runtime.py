"""packaging/prune_runtime.py: the runtime install keeps only libraries the framework loads.

The install recipes (Makefile, Dockerfile) prune after every install; the libraries the runtime
distributions put in `<prefix>/lib` are each kept or pruned by name; no runtime distribution
that stays ships another OpenMP or TBB runtime; and a process that runs MKL's and oneDNN's
work maps the kept libraries and no pruned one.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
_SPEC = importlib.util.spec_from_file_location(
    "prune_runtime", REPO_ROOT / "packaging" / "prune_runtime.py"
)
prune_runtime = importlib.util.module_from_spec(_SPEC)
sys.modules["prune_runtime"] = prune_runtime  # its dataclass looks its module up there
_SPEC.loader.exec_module(prune_runtime)

# Runtimes the framework never runs on: Intel's OpenMP (and its offload runtimes), oneTBB.
FOREIGN_RUNTIME = re.compile(r"^lib(iomp5|iompstubs5|omp\.so|omptarget|tbb|tcm|umf|ur_)")


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def runtime_distributions() -> list[str]:
    """The runtime install's distributions, as constraints.txt (`make constraints`) pins them."""
    lines = (REPO_ROOT / "constraints.txt").read_text().splitlines()
    return [_normal(line.split("==")[0]) for line in lines if line and not line.startswith("#")]


def prefix_libraries(distribution: metadata.Distribution) -> set[str]:
    """Names of the shared libraries the distribution installs in `<prefix>/lib` itself."""
    folder = prune_runtime.environment_root(distribution) / "lib"
    return {
        file.name
        for file in distribution.files or []
        if ".so" in file.name and Path(distribution.locate_file(file)).resolve().parent == folder
    }


def installed(name: str) -> metadata.Distribution | None:
    try:
        return metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return None


# ---- the recipes ----------------------------------------------------------------------------


def dockerfile_runs() -> list[str]:
    text = (REPO_ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return [line[4:] for line in text.splitlines() if line.startswith("RUN ")]


def makefile_recipes() -> dict[str, list[str]]:
    """{target: its recipe lines}, from the Makefile."""
    recipes: dict[str, list[str]] = {}
    target = None
    for line in (REPO_ROOT / "Makefile").read_text().splitlines():
        if line.startswith("\t"):
            if target is not None:
                recipes[target].append(line.strip())
        elif re.match(r"^[^\s#=]+:(?!=)", line):
            target = line.split(":")[0]
            recipes[target] = []
        else:
            target = None
    return recipes


def installs_dependencies(command: str) -> bool:
    """Whether a shell command pip-installs packages with their requirements (not pip itself,
    not `--no-deps`)."""
    return (
        re.search(r"\bpip install\b", command) is not None
        and "--no-deps" not in command
        and re.search(r"pip install (--quiet )?--upgrade pip\s*$", command) is None
    )


def test_the_dockerfile_prunes_in_the_layer_that_installs() -> None:
    runs = [run for run in dockerfile_runs() if installs_dependencies(run)]
    assert runs, "the Dockerfile installs the runtime somewhere"
    for run in runs:
        last_install = run.rindex("pip install")
        assert "python packaging/prune_runtime.py" in run[last_install:], run
    text = (REPO_ROOT / "Dockerfile").read_text()
    assert text.index("COPY packaging/prune_runtime.py") < text.index("prune_runtime.py \\")


def test_every_makefile_install_is_followed_by_the_prune() -> None:
    assert "PRUNE := $(PY) packaging/prune_runtime.py" in (REPO_ROOT / "Makefile").read_text()
    pruned_targets = 0
    for target, lines in makefile_recipes().items():
        installs = [i for i, line in enumerate(lines) if installs_dependencies(line)]
        if not installs:
            continue
        assert "$(PRUNE)" in lines[installs[-1] + 1 :], f"{target} installs without pruning"
        pruned_targets += 1
    assert pruned_targets >= 2  # the runtime and the dev install


# ---- the lists ------------------------------------------------------------------------------


def test_each_pruned_distribution_is_one_the_runtime_install_brings() -> None:
    runtime = set(runtime_distributions())
    for name in (*prune_runtime.PRUNED_DISTRIBUTIONS, *prune_runtime.PRUNED_FILES):
        assert name in runtime, f"{name} is not in constraints.txt: drop it from the lists"


def test_every_library_the_runtime_puts_in_the_prefix_is_kept_or_pruned() -> None:
    shipped: set[str] = set()
    checked = 0
    for name in runtime_distributions():
        distribution = installed(name)
        if distribution is None or name in prune_runtime.PRUNED_DISTRIBUTIONS:
            continue
        libraries = prefix_libraries(distribution)
        shipped |= libraries
        checked += bool(libraries)
        unlisted = libraries - set(prune_runtime.PRUNED_FILES.get(name, {}))
        unlisted -= set(prune_runtime.KEPT_LIBRARIES)
        assert not unlisted, f"{name} installs {sorted(unlisted)}: keep (with why) or prune them"
    if not checked:
        pytest.skip("neither mkl nor onednn-cpu-gomp is installed here")
    assert set(prune_runtime.KEPT_LIBRARIES) <= shipped, "a kept library no wheel ships"


def test_no_distribution_that_stays_ships_another_openmp_or_tbb() -> None:
    for name in runtime_distributions():
        distribution = installed(name)
        if distribution is None or name in prune_runtime.PRUNED_DISTRIBUTIONS:
            continue
        foreign = [f.name for f in distribution.files or [] if FOREIGN_RUNTIME.match(f.name)]
        assert not foreign, f"{name} ships {foreign}: prune it, or say why it loads"


# ---- what a process loads -------------------------------------------------------------------

# A training step whose convolution and batch norm run on oneDNN, whose Linear runs on MKL's
# team (above `small_gemm_macs`) and whose Momentum update runs MKL's axpy (above
# `vector_blas_min_size`); then the files mapped from `<prefix>/lib`.
WORKLOAD = """
import json, os, sys
import numpy as np
import framework as paddle
from framework.backends.cpu import gemm, vector_blas
from framework.backends.cpu.onednn import library as onednn

net = paddle.nn.Sequential(
    paddle.nn.Conv2D(3, 16, 3, padding=1), paddle.nn.BatchNorm2D(16), paddle.nn.ReLU(),
    paddle.nn.Flatten(), paddle.nn.Linear(16 * 16 * 16, 1024), paddle.nn.ReLU(),
    paddle.nn.Linear(1024, 10),
)
opt = paddle.optimizer.Momentum(learning_rate=0.01, parameters=net.parameters())
x = paddle.to_tensor(np.random.rand(32, 3, 16, 16).astype("float32"))
y = paddle.to_tensor(np.random.randint(0, 10, (32, 1)).astype("int64"))
loss = paddle.nn.functional.cross_entropy(net(x), y)
loss.backward()
opt.step()
folder = os.path.join(os.path.realpath(sys.prefix), "lib")
mapped = {line.split()[-1] for line in open("/proc/self/maps") if line.rstrip().endswith(".so")
          or ".so." in line}
print(json.dumps({
    "mkl": gemm.available(), "mkl_threaded": gemm.threaded(), "onednn": onednn.available(),
    "vector_blas": vector_blas.available(),
    "lib": sorted(os.path.basename(p) for p in mapped if os.path.dirname(p) == folder),
}))
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="needs Linux's /proc")
def test_the_framework_loads_mkl_and_onednn_and_no_pruned_file() -> None:
    if installed("mkl") is None or installed("onednn-cpu-gomp") is None:
        pytest.skip("mkl and onednn-cpu-gomp are not installed here")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SAMPAN_")}
    result = subprocess.run(
        [sys.executable, "-c", WORKLOAD], cwd=REPO_ROOT, env=env, capture_output=True,
        text=True, timeout=300, check=True,
    )  # fmt: skip
    seen = json.loads(result.stdout.splitlines()[-1])
    assert seen["mkl"] and seen["mkl_threaded"] and seen["onednn"] and seen["vector_blas"], seen
    mapped = set(seen["lib"])
    loaded = {"libmkl_rt.so.3", "libmkl_core.so.3", "libmkl_gnu_thread.so.3", "libdnnl.so.3"}
    assert loaded <= mapped, mapped
    pruned = {n for files in prune_runtime.PRUNED_FILES.values() for n in files}
    assert not mapped & pruned, mapped & pruned
    assert mapped <= set(prune_runtime.KEPT_LIBRARIES), mapped - set(prune_runtime.KEPT_LIBRARIES)


# ---- the prune itself -----------------------------------------------------------------------


def fake_distribution(site: Path, name: str, files: dict[str, int]) -> None:
    """A data-only distribution in `site`: its files (paths relative to `site`, of the given
    sizes) and a RECORD listing them."""
    info = site / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    for relative, size in files.items():
        path = (site / relative).resolve()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"\0" * size)
    record = [*files, f"{info.name}/METADATA", f"{info.name}/RECORD"]
    (info / "RECORD").write_text("".join(f"{entry},,\n" for entry in record))


def test_it_removes_the_pruned_distributions_and_files_and_keeps_the_rest(tmp_path) -> None:
    site = tmp_path / "lib" / "python3.11" / "site-packages"
    doc = "../../../share/doc/tbb"
    tbb = {"../../libtbb.so.12": 300, f"{doc}/licensing/a": 5, f"{doc}/b": 5}
    fake_distribution(site, "tbb", tbb)
    dnnl = {"../../libdnnl.so": 700, "../../libdnnl.so.3": 700, "../../libdnnl.so.3.2": 700}
    fake_distribution(site, "onednn-cpu-gomp", dnnl)
    (tmp_path / "share" / "doc" / "other").mkdir(parents=True)
    path = [str(site)]
    assert {(i.distribution, i.path and i.path.name) for i in prune_runtime.installed(path)} == {
        ("tbb", None), ("onednn-cpu-gomp", "libdnnl.so"), ("onednn-cpu-gomp", "libdnnl.so.3.2"),
    }  # fmt: skip

    freed = prune_runtime.prune(path)

    metadata_bytes = len("Metadata-Version: 2.1\nName: tbb\nVersion: 1.0\n")
    assert freed >= 300 + 10 + 1400 + metadata_bytes
    assert prune_runtime.installed(path) == []
    assert sorted(p.name for p in (tmp_path / "lib").glob("lib*")) == ["libdnnl.so.3"]
    assert not (site / "tbb-1.0.dist-info").exists()
    assert not (tmp_path / "share" / "doc" / "tbb").exists()
    assert (tmp_path / "share" / "doc" / "other").is_dir()  # folders not left empty stay
    kept = next(iter(metadata.distributions(name="onednn-cpu-gomp", path=path)))
    assert sorted(f.name for f in kept.files) == ["METADATA", "RECORD", "libdnnl.so.3"]
    assert prune_runtime.prune(path) == 0  # a second run finds nothing


def test_check_exits_1_naming_what_is_installed(capsys, monkeypatch, tmp_path) -> None:
    site = tmp_path / "lib" / "python3.11" / "site-packages"
    fake_distribution(site, "umf", {"../../libumf.so.1": 10})
    monkeypatch.setattr(sys, "path", [str(site)])
    assert prune_runtime.main(["--check"]) == 1
    assert "the umf distribution" in capsys.readouterr().err
    prune_runtime.prune([str(site)])
    assert prune_runtime.main(["--check"]) == 0
