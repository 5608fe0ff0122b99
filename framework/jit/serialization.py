"""Reading and writing a graph as `<prefix>.json` (the IR) and `<prefix>.safetensors` (arrays).

Writes are atomic (a temporary file renamed into place). Reads never execute anything from the
files: JSON is parsed, safetensors bytes are copied into arrays, and the graph is validated
before it is returned. Every failure is a `ModelFormatError` that names the file.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from typing import Any

import numpy as np

from framework.core.backend import to_numpy
from framework.core.safetensors_io import SafetensorError, load_file, save
from framework.jit.errors import ModelFormatError
from framework.jit.graph import FORMAT, FORMAT_VERSION, Graph

GRAPH_SUFFIX = ".json"
WEIGHTS_SUFFIX = ".safetensors"


def model_paths(path: str | os.PathLike) -> tuple[str, str]:
    """(graph file, weights file) for a prefix (`out/model`), either file, or a directory
    holding exactly one `*.json` graph (an unpacked inference package)."""
    path = os.fspath(path)
    if os.path.isdir(path):
        graphs = sorted(f for f in os.listdir(path) if f.endswith(GRAPH_SUFFIX))
        graphs = [f for f in graphs if f != "meta.json"]
        if len(graphs) != 1:
            raise ModelFormatError(
                f"{path!r} is a directory with {len(graphs)} graph files (*.json); pass the "
                "model's path prefix or its .json file instead"
            )
        path = os.path.join(path, graphs[0])
    for suffix in (GRAPH_SUFFIX, WEIGHTS_SUFFIX):
        if path.endswith(suffix):
            path = path[: -len(suffix)]
            break
    return path + GRAPH_SUFFIX, path + WEIGHTS_SUFFIX


def save_graph(graph: Graph, path: str | os.PathLike) -> tuple[str, str]:
    """Write `graph` to `path.json` and `path.safetensors`; returns both file names."""
    graph.validate()
    graph_file, weights_file = model_paths(path)
    folder = os.path.dirname(os.path.abspath(graph_file))
    os.makedirs(folder, exist_ok=True)
    arrays = {}
    for name in graph.initializers:
        value = np.asarray(to_numpy(graph.tensors[name]))
        # ascontiguousarray turns a 0-d array into shape [1]; keep scalars scalar.
        arrays[name] = np.ascontiguousarray(value).reshape(value.shape)
    metadata = {"format": FORMAT + ".weights", "format_version": str(FORMAT_VERSION)}
    _atomic_write(weights_file, lambda stream: stream.write(save(arrays, metadata=metadata)))
    text = pretty_json(graph.to_json()) + "\n"
    _atomic_write(graph_file, lambda stream: stream.write(text.encode("utf-8")))
    return graph_file, weights_file


def load_graph(graph_file: str, weights_file: str | None = None) -> Graph:
    """The graph stored at `graph_file` (+ `weights_file`, default: the matching name)."""
    if weights_file is None:
        weights_file = model_paths(graph_file)[1]
    for file, role in ((graph_file, "graph"), (weights_file, "weights")):
        if not os.path.isfile(file):
            raise ModelFormatError(
                f"no {role} file at {file!r}: a saved model is a pair <prefix>.json and "
                "<prefix>.safetensors, as written by framework.jit.save"
            )
    try:
        with open(graph_file, encoding="utf-8") as stream:
            doc = json.load(stream)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ModelFormatError(f"{graph_file!r} is not a readable JSON graph: {error}") from None
    try:
        tensors = load_file(weights_file)
    except (OSError, SafetensorError, ValueError) as error:
        raise ModelFormatError(
            f"{weights_file!r} is not a readable safetensors file: {error}"
        ) from None
    try:
        return Graph.from_json(doc, tensors)
    except (KeyError, TypeError, ValueError) as error:
        raise ModelFormatError(f"{graph_file!r} does not hold a valid graph: {error}") from None


def pretty_json(value: Any, indent: int = 0) -> str:
    """JSON with one key or list item per line, but short lists of numbers on one line."""
    pad, inner = "  " * indent, "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{json.dumps(k)}: {pretty_json(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list):
        if all(not isinstance(v, dict | list) for v in value) or all(
            isinstance(v, list) and all(not isinstance(x, dict | list) for x in v) for v in value
        ):
            return json.dumps(value)
        items = [f"{inner}{pretty_json(v, indent + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    return json.dumps(value)


def _atomic_write(path: str, write: Callable) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    try:
        with os.fdopen(handle, "wb") as stream:
            write(stream)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise
