"""Loaded models for serving: each export is loaded once per process and shared by every
request and thread (a `PackagedModel` lends each running request its own predictor clone).

Switching a deployment to another export has no downtime. The first request that sees the new
export loads it; meanwhile the other requests keep being answered by the export this process
served before, and once the new one is loaded it takes over with a single dictionary
assignment (atomic under the GIL). Requests already running finish on the model they hold.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.files.storage import default_storage

from core.errors import without_paths
from deploy.conf import knob
from deploy.exporting import messages as said
from deploy.models import Deployment, ModelExport
from framework.inference.package import PackageError, read_meta, unpack_package
from framework.inference.packaged_model import PackagedModel

logger = logging.getLogger(__name__)
MAX_LOADED = 8  # exports kept loaded per process (least recently used ones are dropped)


class ModelUnavailable(Exception):
    """The export cannot be served (not a finished package, or its files are gone)."""


@dataclass(frozen=True)
class Served:
    model: PackagedModel
    info: dict[str, Any]  # the export's id, version, name, format and precision, for answers


_loaded: OrderedDict[int, Served] = OrderedDict()  # export id -> model
_serving: dict[int, int] = {}  # deployment id -> the export id this process last served
_locks: dict[int, threading.Lock] = {}
_guard = threading.Lock()


def model_info(export: ModelExport) -> dict[str, Any]:
    return {
        "export": export.pk,
        "version": export.version,
        "name": export.name,
        "format": export.format,
        "precision": "int8" if export.is_int8 else "float32",
    }


def package_folder(export: ModelExport) -> Path:
    """The unpacked package of a servable export (unpacked from its zip if missing)."""
    folder = Path(default_storage.path(f"{export.folder}/package"))
    if not (folder / "meta.json").is_file():
        if not export.file or not default_storage.exists(export.file.name):
            raise ModelUnavailable(said.FILES_MISSING(export=export.pk))
        unpack_package(default_storage.path(export.file.name), folder)
    return folder


def _load(export: ModelExport) -> Served:
    if not export.is_servable:
        raise ModelUnavailable(said.NOT_A_PACKAGE(export=export.pk))
    folder = package_folder(export)
    try:
        model = PackagedModel.open(
            folder, read_meta(folder), threads=knob("DEPLOY_PREDICTOR_THREADS")
        )
    except (PackageError, OSError, ValueError) as error:
        reason = without_paths(str(error))
        raise ModelUnavailable(said.CANNOT_LOAD(export=export.pk, reason=reason)) from error
    logger.info("Loaded export %s for serving", export.pk)
    return Served(model, model_info(export))


def _lock_for(export_id: int) -> threading.Lock:
    with _guard:
        return _locks.setdefault(export_id, threading.Lock())


def _remember(export_id: int, served: Served) -> None:
    with _guard:
        _loaded[export_id] = served
        _loaded.move_to_end(export_id)
        while len(_loaded) > MAX_LOADED:
            _loaded.popitem(last=False)


def load_export(export: ModelExport) -> Served:
    """The loaded export (loading it now if needed; one loader per export at a time)."""
    served = _loaded.get(export.pk)
    if served is not None:
        return served
    with _lock_for(export.pk):
        served = _loaded.get(export.pk)
        if served is None:
            served = _load(export)
            _remember(export.pk, served)
    return served


def serve(deployment: Deployment) -> Served:
    """The model that answers this request for `deployment` (its export loaded)."""
    wanted = deployment.export_id
    served = _loaded.get(wanted)
    if served is None:
        previous = _loaded.get(_serving.get(deployment.pk, -1))
        if previous is not None and _lock_for(wanted).locked():
            return previous  # another request is loading the new export: no one waits for it
        served = load_export(deployment.export)
    _serving[deployment.pk] = wanted
    return served


def clear_cache() -> None:
    """Forget every loaded model (tests; a process that must reload from storage)."""
    with _guard:
        _loaded.clear()
        _serving.clear()
        _locks.clear()
