"""Run Paddle's own documented examples under real Paddle and under `import framework as paddle`.

For every public name in the `__all__` of the modules below, the `>>>` examples of its Paddle
docstring are run twice in this process: once with Paddle, once with the framework standing in
for it (`paddle` bound to `framework`). An example "matches" when it runs on both and prints the
same text; examples that draw random numbers run on both but cannot match, since the two
generators differ. Prints JSON: per module, names with examples, examples Paddle runs here,
those the framework also runs, those that print the same, the framework's failures (the first
error line, or "prints differently") and the names the framework lacks.

    python scripts/paddle_doc_examples.py [--modules paddle.nn,paddle.linalg] [--timeout 10]

Each module runs in its own process; within one, each code block gets a fresh namespace and
the global switches an example may flip (static mode, default dtype, seed) are reset first.

A test oracle: Paddle is needed here and never at run time.
"""

from __future__ import annotations

import argparse
import contextlib
import doctest
import importlib
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import warnings

MODULES = (
    "paddle",
    "paddle.linalg",
    "paddle.fft",
    "paddle.nn",
    "paddle.nn.functional",
    "paddle.optimizer",
    "paddle.optimizer.lr",
    "paddle.io",
    "paddle.vision.models",
    "paddle.vision.transforms",
    "paddle.vision.ops",
    "paddle.metric",
    "paddle.amp",
    "paddle.jit",
    "paddle.nn.initializer",
)


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout


def _run(source: str, module, seconds: int) -> tuple[bool, str]:
    """(ran, printed text or the error) of one example with `paddle` bound to `module`."""
    namespace = {"__name__": "__example__"}
    out = io.StringIO()
    real_import = __builtins__.__import__ if hasattr(__builtins__, "__import__") else __import__

    def importer(name, globals=None, locals=None, fromlist=(), level=0):
        if name == "paddle" or name.startswith("paddle."):
            mapped = module.__name__ + name[len("paddle") :]
            target = real_import(mapped, globals, locals, fromlist, level)
            return module if not fromlist and name == "paddle" else target
        return real_import(name, globals, locals, fromlist, level)

    builtins = dict(__builtins__ if isinstance(__builtins__, dict) else vars(__builtins__))
    builtins["__import__"] = importer
    namespace["__builtins__"] = builtins
    _reset(module)
    signal.alarm(seconds)
    try:
        with contextlib.redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(source, "<example>", "exec"), namespace)
        return True, out.getvalue()
    except _Timeout:
        return False, "timeout"
    except BaseException as error:  # an example may raise anything, SystemExit included
        return False, f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
    finally:
        signal.alarm(0)


def _reset(module) -> None:
    """Undo what an earlier example may have switched globally (static mode, default dtype,
    print options: `set_printoptions`' own example sets a precision of 4 for all that follow)."""
    with contextlib.suppress(Exception):
        module.disable_static()
    with contextlib.suppress(Exception):
        module.set_default_dtype("float32")
    with contextlib.suppress(Exception):
        module.jit.enable_to_static(True)
    with contextlib.suppress(Exception):
        module.seed(2023)
    with contextlib.suppress(Exception):
        module.set_printoptions(
            precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80
        )


def _examples(obj) -> list[str]:
    """One program per `.. code-block::` of the docstring (a block's lines share a namespace;
    Paddle often gives a dynamic-graph block and a separate static-graph one)."""
    doc = getattr(obj, "__doc__", None) or ""
    parser = doctest.DocTestParser()
    programs = []
    for block in doc.split(".. code-block::"):
        try:
            parts = parser.get_examples(block)
        except ValueError:
            continue
        if parts:
            programs.append("".join(p.source for p in parts))
    return programs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", default=",".join(MODULES))
    parser.add_argument("--timeout", type=int, default=10)
    parser.add_argument("--in-process", action="store_true", help="no subprocess per module")
    args = parser.parse_args()
    names = args.modules.split(",")
    if not args.in_process and len(names) > 1:
        # One process per module, so that global state an example leaves cannot leak on.
        report = []
        for name in names:
            command = [sys.executable, "-W", "ignore", os.path.abspath(__file__), "--modules", name]
            command += ["--timeout", str(args.timeout), "--in-process"]
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            sys.stderr.write("".join(line for line in done.stderr.splitlines(True)
                                     if line.startswith("paddle")))  # fmt: skip
            report += (
                json.loads(done.stdout)
                if done.stdout.strip()
                else [{"module": name, "error": done.stderr.strip().splitlines()[-1:]}]
            )
        print(json.dumps(report, indent=1, ensure_ascii=False))
        return
    signal.signal(signal.SIGALRM, _alarm)
    # Examples save models and images into the working directory: give them a scratch one.
    scratch = tempfile.TemporaryDirectory(prefix="paddle-doc-examples-")
    os.chdir(scratch.name)
    import paddle

    import framework

    report = []
    for name in names:
        theirs = importlib.import_module(name)
        ours_name = "framework" + name[len("paddle") :]
        try:
            ours = importlib.import_module(ours_name)
        except ImportError:
            ours = None
        row = {
            "module": name,
            "with_examples": 0,
            "run": 0,
            "run_on_framework": 0,
            "matched": 0,
            "missing": [],
        }
        failures = {}
        for public in getattr(theirs, "__all__", []):
            obj = getattr(theirs, public, None)
            if ours is None or not hasattr(ours, public):
                row["missing"].append(public)
                continue
            for source in _examples(obj):
                row["with_examples"] += 1
                ran, want = _run(source, paddle, args.timeout)
                if not ran:
                    continue  # Paddle's own example does not run here (GPU, network, ...)
                row["run"] += 1
                ran, got = _run(source, framework, args.timeout)
                row["run_on_framework"] += ran
                if ran and got == want:
                    row["matched"] += 1
                elif not ran:
                    failures[public] = got[:160]
                else:
                    failures[public] = "prints differently"
        row["failed_on_framework"] = failures
        report.append(row)
        summary = f"{row['run_on_framework']} run, {row['matched']} match, of {row['run']}"
        print(name, summary, file=sys.stderr, flush=True)
    print(json.dumps(report, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
