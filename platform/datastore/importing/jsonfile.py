"""Label JSON files, read the one way: size and depth checked first, and parsed once.

A JSON document takes several times its size in memory once parsed, so the size limit
(`max_label_file_bytes`) bounds what one label file costs. The depth is measured before parsing:
Python's parser recurses once per level and would fail with a RecursionError at a depth that
depends on the worker's own stack, where this limit is the same everywhere.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import numpy as np

from datastore.importing import format_messages as said
from datastore.importing.limits import MIB
from datastore.importing.problems import ImportRejected
from datastore.importing.tree import SourceTree

QUOTE, BACKSLASH = ord('"'), ord("\\")
CHUNK_BYTES = 4 * MIB  # the depth scan's temporary arrays are a few times one chunk
OPEN, CLOSE = (ord("["), ord("{")), (ord("]"), ord("}"))


class InvalidJson(ImportRejected):
    """The file does not parse as JSON: a format detector takes it as not its format."""


def _quotes_and_trailing_run(chunk: np.ndarray, carried: int) -> tuple[np.ndarray, int]:
    """Positions of the quotes that start or end strings, and the backslashes ending the chunk.

    A quote right after an odd run of backslashes is escaped (`\\"`), part of a string. A run
    may have begun in the previous chunk: `carried` backslashes ended that one.
    """
    quotes = np.flatnonzero(chunk == QUOTE)
    escaped = np.zeros(len(quotes), bool)
    if carried % 2 and len(quotes) and quotes[0] == 0:
        escaped[0] = True  # by the backslashes that ended the previous chunk
    slashes = np.flatnonzero(chunk == BACKSLASH)
    if not len(slashes):
        return quotes[~escaped], 0
    starts = np.r_[True, np.diff(slashes) != 1]  # each backslash that begins a run
    run_start = np.maximum.accumulate(np.where(starts, np.arange(len(slashes)), 0))

    def run_length(last: np.ndarray) -> np.ndarray:
        """Length of the run whose last backslash is slashes[last], counting `carried`."""
        first = run_start[last]
        return last - first + 1 + np.where(slashes[first] == 0, carried, 0)

    before = np.searchsorted(slashes, quotes) - 1  # the backslash just before each quote, if any
    adjacent = (before >= 0) & (slashes[np.maximum(before, 0)] == quotes - 1)
    escaped[adjacent] = run_length(before[adjacent]) % 2 == 1
    trailing = 0
    if slashes[-1] == len(chunk) - 1:
        trailing = int(run_length(np.array([len(slashes) - 1]))[0])
    return quotes[~escaped], trailing


def nesting_depth(data: bytes) -> int:
    """How deeply arrays and objects nest in a JSON text, brackets inside strings not counted.

    Works on the bytes, a chunk at a time: JSON's brackets, quotes and backslashes are ASCII,
    and no byte of a UTF-8 multi-byte character is ASCII.
    """
    depth = deepest = 0
    in_string = False
    carried = 0
    view = memoryview(data)
    for start in range(0, len(data), CHUNK_BYTES):
        chunk = np.frombuffer(view[start : start + CHUNK_BYTES], np.uint8)
        quotes, carried = _quotes_and_trailing_run(chunk, carried)
        opens = (chunk == OPEN[0]) | (chunk == OPEN[1])
        at = np.flatnonzero(opens | (chunk == CLOSE[0]) | (chunk == CLOSE[1]))
        at = at[(np.searchsorted(quotes, at) + in_string) % 2 == 0]  # outside strings
        levels = depth + np.cumsum(np.where(opens[at], 1, -1), dtype=np.int64)
        if len(levels):
            deepest = max(deepest, int(levels.max()))
            depth = int(levels[-1])
        in_string = bool((len(quotes) + in_string) % 2)
    return deepest


def _too_deep(path: str, limit: int) -> ImportRejected:
    return ImportRejected(said.JSON_TOO_DEEP(limit=limit), said.CHECK_LABEL_FILE_FIX(), file=path)


def parse_label_json(tree: SourceTree, path: str) -> Any:
    """The parsed document; raises ImportRejected (InvalidJson when it is not JSON at all).

    Readers call it once per file: a detector that parses a file keeps the document in
    `tree.parsed` for the reader.
    """
    data = tree.label_bytes(path)
    limit = tree.limits.max_label_json_depth
    if nesting_depth(data) > limit:
        raise _too_deep(path, limit)
    text = data.decode("utf-8-sig", errors="replace")
    del data  # the bytes and the text are not both kept while the document is built
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidJson(
            said.JSON_INVALID(error=exc.msg, line=exc.lineno, column=exc.colno),
            said.JSON_INVALID_FIX(),
            file=path,
        ) from None
    except ValueError:  # the one other ValueError: an integer too long to convert
        raise InvalidJson(
            said.JSON_HUGE_NUMBER(digits=f"{sys.get_int_max_str_digits():,}"),
            said.CHECK_LABEL_FILE_FIX(),
            file=path,
        ) from None
    except RecursionError:  # only when the depth limit is set past what the parser can follow
        raise _too_deep(path, limit) from None
