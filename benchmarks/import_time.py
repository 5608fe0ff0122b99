"""How long `import framework` takes in a fresh process, this tree against a git revision.

    python benchmarks/import_time.py                     # against HEAD, 12 runs each
    python benchmarks/import_time.py --against main --runs 20

The revision's `framework/` is extracted with `git archive` into a temporary folder. Each run is
a new interpreter that imports `framework`, `framework.nn`, `framework.nn.functional` and
`framework.tensor` from one tree and reports the seconds that took; the two trees take turns,
so other load on the machine falls on both alike. Prints JSON: each tree's median and minimum
wall and process-CPU seconds, and the ratios of the medians (this tree over the revision); on a
loaded machine the CPU ratio is the steadier one.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_IMPORT = (
    "import sys, time; sys.path.insert(0, {root!r}); "
    "start, start_cpu = time.perf_counter(), time.process_time(); "
    "import framework, framework.nn, framework.nn.functional, framework.tensor; "
    "wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu; "
    "assert framework.__file__.startswith({root!r}), framework.__file__; print(wall, cpu)"
)


def import_seconds(root: Path) -> tuple[float, float]:
    """(wall, process CPU) seconds of the import in a new interpreter."""
    code = _IMPORT.format(root=str(root))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    wall, cpu = out.stdout.split()
    return float(wall), float(cpu)


def extract(revision: str, into: Path) -> None:
    archive = subprocess.run(
        ["git", "archive", revision, "framework"], cwd=ROOT, capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD", help="git revision to compare with")
    parser.add_argument("--runs", type=int, default=12)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        theirs = Path(folder)
        extract(args.against, theirs)
        trees = {"this tree": ROOT, args.against: theirs}
        for root in trees.values():
            import_seconds(root)  # writes the bytecode caches: every timed run reads them
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
        for run in range(args.runs):
            order = list(trees) if run % 2 else list(reversed(trees))
            for name in order:
                samples[name].append(import_seconds(trees[name]))
    report = {}
    for name, runs in samples.items():
        wall, cpu = zip(*runs, strict=True)
        report[name] = {
            "median_wall_s": round(statistics.median(wall), 3),
            "min_wall_s": round(min(wall), 3),
            "median_cpu_s": round(statistics.median(cpu), 3),
            "min_cpu_s": round(min(cpu), 3),
        }
    ratios = {
        f"{clock}_ratio": round(
            report["this tree"][f"median_{clock}_s"] / report[args.against][f"median_{clock}_s"], 3
        )
        for clock in ("wall", "cpu")
    }
    print(json.dumps({"runs": args.runs, "trees": report, **ratios}))


if __name__ == "__main__":
    main()
