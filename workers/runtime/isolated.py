"""Running one function in a child process under a memory ceiling.

For work whose size a user's file decides, such as converting uploaded weights: if the file
asks for more memory than the ceiling, the child fails with MemoryError (or the kernel stops
it), and the worker itself, with its other tasks, carries on and records a plain reason. The
child is a fresh interpreter (not a fork of a worker that may hold threads and connections);
it receives its arguments as JSON and sends back a JSON result, so arguments are ids and paths.

    result = run_isolated(
        "modelzoo.services.conversion:convert_to_file",
        {"architecture": "lenet", "path": "/…/incoming.pth", ...},
        memory_bytes=4 * 1024**3,
        timeout=1800,
        heartbeat=job.beat,   # called every few seconds; False stops the child
    )

The ceiling is RLIMIT_DATA: the heap and private anonymous mappings (NumPy's arrays), not the
shared libraries mapped in, so it measures what the work allocates.
"""

from __future__ import annotations

import json
import logging
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)
REPO_ROOT = Path(__file__).resolve().parents[2]
HEARTBEAT_SECONDS = 5.0


class IsolatedFailure(Exception):
    """The child did not return a result; ``reason`` says why in plain words."""

    def __init__(self, reason: str, fix: str = "") -> None:
        super().__init__(reason)
        self.reason, self.fix = reason, fix


class Refused(IsolatedFailure):
    """The function refused its input (it raised Django's ValidationError)."""


class OutOfMemory(IsolatedFailure):
    """The work needed more memory than the ceiling."""


class Abandoned(Exception):
    """The heartbeat said this worker no longer owns the job; the child was stopped."""


def human_bytes(count: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if count < 1024 or unit == "GiB":
            return f"{count:,.0f} {unit}" if unit == "bytes" else f"{count:,.1f} {unit}"
        count /= 1024
    raise AssertionError("unreachable")


def run_isolated(
    target: str,
    kwargs: dict[str, Any],
    *,
    memory_bytes: int,
    timeout: float,
    heartbeat: Callable[[], bool] | None = None,
) -> Any:
    """Calls ``module:function(**kwargs)`` in a child process and returns what it returned."""
    with tempfile.TemporaryDirectory(prefix="sampan-isolated-") as folder:
        result_path, log_path = Path(folder) / "result.json", Path(folder) / "log.txt"
        with open(log_path, "wb") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "workers.runtime.isolated", str(result_path)],
                cwd=REPO_ROOT,
                stdin=subprocess.PIPE,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            assert process.stdin is not None
            request = {"target": target, "kwargs": kwargs, "memory_bytes": memory_bytes}
            process.stdin.write(json.dumps(request).encode())
            process.stdin.close()
            _wait(process, timeout, heartbeat)
        outcome = json.loads(result_path.read_text()) if result_path.exists() else None
        if outcome is None or process.returncode != 0:
            tail = log_path.read_text(errors="replace")[-3000:]
            logger.warning("Isolated %s ended with %s:\n%s", target, process.returncode, tail)
    return _result(outcome, process.returncode, memory_bytes)


def _wait(process: subprocess.Popen[bytes], timeout: float, heartbeat: Any) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            process.wait(timeout=HEARTBEAT_SECONDS)
            return
        except subprocess.TimeoutExpired:
            pass
        if heartbeat is not None and not heartbeat():
            process.kill()
            process.wait()
            raise Abandoned()
        if time.monotonic() > deadline:
            process.kill()
            process.wait()
            from modelzoo import messages as said  # the child has no platform/ on its path yet

            raise IsolatedFailure(
                said.TOOK_TOO_LONG(minutes=f"{timeout / 60:.0f}"), said.TRY_SMALLER_OR_ADMIN()
            )


def _result(outcome: dict[str, Any] | None, returncode: int, memory_bytes: int) -> Any:
    from modelzoo import messages as said  # the child has no platform/ on its path yet

    memory = said.NEEDS_MORE_MEMORY(memory=human_bytes(memory_bytes))
    if outcome is not None and "ok" in outcome:
        return outcome["ok"]
    if outcome is not None and "refused" in outcome:
        raise Refused(_refusal(outcome))
    if outcome is not None and outcome.get("memory"):
        raise OutOfMemory(memory, said.USE_SMALLER_OR_RAISE())
    if outcome is not None and "error" in outcome:
        raise IsolatedFailure(
            said.FAILED_UNEXPECTEDLY(error=outcome["error"]), said.TRY_AGAIN_OR_ADMIN()
        )
    if returncode < 0:
        name = signal.Signals(-returncode).name
        raise OutOfMemory(said.STOPPED_BY_SIGNAL(signal=name, memory=memory))
    raise IsolatedFailure(said.EXITED_WITH_CODE(code=returncode))


def _refusal(outcome: dict[str, Any]) -> str:
    """The child's refusal, rebuilt as the stored messages it raised where it sent their keys
    (so the reason reads in the reader's language), else its English text."""
    from core.stored_messages import Joined, from_json

    texts, keyed = outcome["refused"], outcome.get("refused_said") or []
    messages = [from_json(k) if k else t for t, k in zip(texts, keyed, strict=False)]
    if len(messages) != len(texts) or [str(m) for m in messages] != texts:
        return " ".join(texts)
    return messages[0] if len(messages) == 1 else Joined(" ", messages)


# --- the child -----------------------------------------------------------------------------------
def _child(result_path: Path) -> int:
    request = json.load(sys.stdin)
    # Set here rather than in a preexec_fn, which is unsafe in a parent that runs threads.
    limit = int(request["memory_bytes"])
    resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    sys.path.insert(0, str(REPO_ROOT / "platform"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "studio.settings")
    import django
    from django.core.exceptions import ValidationError

    from core.errors import describe_unexpected

    try:
        django.setup()
        module, name = request["target"].split(":")
        outcome: dict[str, Any] = {"ok": getattr(import_module(module), name)(**request["kwargs"])}
    except ValidationError as error:
        # A Said's key does not survive JSON: send it beside the text, for the parent to rebuild.
        from core.stored_messages import Joined, Said

        keyed = [e.message if not e.params else None for e in error.error_list]
        outcome = {
            "refused": error.messages,
            "refused_said": [m.to_json() if isinstance(m, Said | Joined) else {} for m in keyed],
        }
    except MemoryError:
        outcome = {"memory": True}
    except Exception as error:
        traceback.print_exc()
        outcome = {"error": describe_unexpected(error)}
    result_path.write_text(json.dumps(outcome))
    return 0


if __name__ == "__main__":
    sys.exit(_child(Path(sys.argv[1])))
