"""Ready models: trained networks from packages on the registries, offered in the zoo to deploy
and try as they come, with a manifest each (`modelzoo/manifests/*.json`): the package, its
version, the sha256 of its file (or of each file of a pipeline, such as OCR's detection,
recognition and direction models), the license, the classes, and how images go in and answers
come out.

Like shipped weights, nothing is downloaded: a ready model whose package is not installed (or
is another version, or holds another file) is listed with the reason and the pip command, and
cannot be used. The platform runs without the package.

    ready = get_ready_model("layout_cdla")
    problem = unavailable(ready)          # None when usable
    network = load_network(ready)         # images [N, 3, H, W] -> (boxes, scores)
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from core.stored_messages import in_language, said_of
from modelzoo import messages as said

MANIFESTS = Path(__file__).resolve().parent.parent / "manifests"


class ReadyModelUnavailable(Exception):
    """The ready model cannot be used on this server; the message says why and what to do."""


@dataclass(frozen=True)
class ReadyModel:
    key: str
    name: str
    task: str
    title: str
    description: str
    source: dict[str, Any]
    published: dict[str, Any]
    class_names: tuple[str, ...]
    preprocessing: dict[str, Any]
    postprocessing: dict[str, Any]
    dictionary: dict[str, Any] | None = None  # a recognizer's characters: count, sha256
    manifest_sha256: str = ""  # of its manifest file: an export records which one it followed

    @classmethod
    def from_json(cls, doc: dict[str, Any], manifest_sha256: str = "") -> ReadyModel:
        return cls(
            key=doc["key"],
            name=doc["name"],
            task=doc["task"],
            title=doc["title"],
            description=doc["description"],
            source=dict(doc["source"]),
            published=dict(doc.get("published") or {}),
            class_names=tuple(doc["class_names"]),
            preprocessing=dict(doc["preprocessing"]),
            postprocessing=dict(doc["postprocessing"]),
            dictionary=doc.get("dictionary"),
            manifest_sha256=manifest_sha256,
        )

    @property
    def input_size(self) -> tuple[int, int] | None:
        """(height, width) the network takes; None for a pipeline that takes any size."""
        if "size" not in self.preprocessing:
            return None
        height, width = self.preprocessing["size"]
        return int(height), int(width)

    @property
    def files(self) -> dict[str, dict[str, str]]:
        """Role -> {"file", "sha256"}: one "model", or each model of a pipeline."""
        if "files" in self.source:
            return {role: dict(entry) for role, entry in self.source["files"].items()}
        return {"model": {"file": self.source["file"], "sha256": self.source["sha256"]}}

    def manifest(self) -> dict[str, Any]:
        """What the zoo and the API show: package, version, sha256, license, classes."""
        return {
            "package": self.source["package"],
            "version": self.source["version"],
            "file": self.source.get("file"),
            "sha256": self.source.get("sha256"),
            "files": self.files,
            "license": self.source["license"],
            "upstream": self.source["upstream"],
            "pip_install": self.source["pip_install"],
            "published": self.published,
            "class_names": list(self.class_names),
            "preprocessing": self.preprocessing,
            "postprocessing": self.postprocessing,
            "dictionary": self.dictionary,
        }


class UnknownReadyModel(KeyError):
    pass


@cache
def ready_models() -> dict[str, ReadyModel]:
    found = {}
    for path in sorted(MANIFESTS.glob("*.json")):
        data = path.read_bytes()
        ready = ReadyModel.from_json(json.loads(data), hashlib.sha256(data).hexdigest())
        found[ready.key] = ready
    return found


def get_ready_model(key: str) -> ReadyModel:
    try:
        return ready_models()[key]
    except KeyError:
        raise UnknownReadyModel(key) from None


_hashes: dict[tuple[str, int, int], str] = {}


def _sha256(path: Path) -> str:
    """The file's sha256, computed once per file state (path, size, modification time)."""
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key not in _hashes:
        digest = hashlib.sha256()
        with open(path, "rb") as stream:
            for chunk in iter(lambda: stream.read(1 << 20), b""):
                digest.update(chunk)
        _hashes[key] = digest.hexdigest()
    return _hashes[key]


def locate(ready: ReadyModel) -> Path:
    """The single-file model's file (see `locate_files`)."""
    return locate_files(ready)["model"]


def locate_files(ready: ReadyModel) -> dict[str, Path]:
    """Each of the model's files in its installed package, checked against the manifest;
    raises ReadyModelUnavailable saying what to install otherwise. The package is never
    imported."""
    source = ready.source
    install = said.INSTALL_WITH(command=source["pip_install"])
    package, version = source["package"], source["version"]
    try:
        distribution = metadata.distribution(package)
    except metadata.PackageNotFoundError:
        raise ReadyModelUnavailable(
            said.NOT_INSTALLED(package=package, name=ready.name, install=install)
        ) from None
    if distribution.version != version:
        raise ReadyModelUnavailable(
            said.OTHER_VERSION(
                package=package,
                installed=distribution.version,
                name=ready.name,
                version=version,
                install=install,
            )
        )
    found = {}
    for role, entry in ready.files.items():
        path = Path(str(distribution.locate_file(entry["file"])))
        if not path.is_file():
            raise ReadyModelUnavailable(
                said.FILE_MISSING(
                    package=package, version=version, file=entry["file"], install=install
                )
            )
        actual = _sha256(path)
        if actual != entry["sha256"]:
            raise ReadyModelUnavailable(
                said.HASH_MISMATCH(
                    file=entry["file"],
                    actual=actual,
                    expected=entry["sha256"],
                    command=source["pip_install"],
                )
            )
        found[role] = path
    return found


def unavailable(ready: ReadyModel) -> str | None:
    """Why the ready model cannot be used here (None: it can)."""
    try:
        locate_files(ready)
    except ReadyModelUnavailable as reason:
        return in_language(said_of(reason))
    return None


_networks: dict[str, tuple[tuple, Any]] = {}
_networks_lock = threading.Lock()


def load_network(ready: ReadyModel) -> Any:
    """The model as a framework network in eval mode, images [N, 3, H, W] normalised as its
    preprocessing says -> (boxes [N, A, 4] in input pixels, scores [N, C, A]). Built once per
    process and file; callers that run it from several threads take turns (`network_lock`)."""
    path = locate(ready)
    stat = path.stat()
    identity = (str(path), stat.st_size, stat.st_mtime_ns)
    with _networks_lock:
        cached = _networks.get(ready.key)
        if cached is not None and cached[0] == identity:
            return cached[1]
        network = _build(ready, path)
        _networks[ready.key] = (identity, network)
        return network


network_lock = threading.Lock()


def _build(ready: ReadyModel, path: Path) -> Any:
    import framework
    from modelzoo.services.picodet_onnx import PicoDetDecoder, batch_dynamic

    graph = batch_dynamic(framework.onnx.read_model(str(path)))
    post = ready.postprocessing
    network = PicoDetDecoder(
        framework.onnx.load(graph), ready.input_size, post["strides"], int(post["reg_max"])
    )
    network.eval()
    return network
