"""A benchmark worker's stdout read line by line with a time limit.

The benchmarks that run each framework in its own process (train_step.py, predictor.py) wait
for one reply line per request. A worker that stops answering without exiting would hold the
whole run forever (seen once: every process idle in a pipe read); with this reader the wait
ends after `timeout` seconds and the caller records an error for that worker instead.
"""

from __future__ import annotations

import queue
import threading
from typing import IO


class WorkerLines:
    """Lines of a worker's stdout, read by a daemon thread so that waiting can time out."""

    def __init__(self, stream: IO[str]) -> None:
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream: IO[str]) -> None:
        for line in stream:
            self._lines.put(line)
        self._lines.put("")  # end of output: the worker exited

    def readline(self, timeout: float) -> str:
        """The next line ('' once the worker has exited); TimeoutError after `timeout` s."""
        try:
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no reply from the worker in {timeout:g} s") from None
