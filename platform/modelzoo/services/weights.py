"""Weights in the zoo: importing a file as a background job, and storing and loading weights.

An upload is checked for size (MAX_UPLOAD_BYTES) as it arrives, kept alone in its own folder,
and imported by a worker (`modelzoo.import_weights`). The worker converts it in a child process
under a memory ceiling (WEIGHTS_IMPORT_MEMORY_BYTES; workers.runtime.isolated), with the
unpicklers' allocation budget set below that ceiling, so a file built to exhaust memory costs
neither the web process nor the worker anything but a refusal with its reason. The result is
kept as safetensors with framework names.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import uuid
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from core.queueing import enqueue
from modelzoo import messages as said
from modelzoo.catalog import Architecture, UnknownArchitecture, get_architecture
from modelzoo.models import Weights, WeightsImport
from modelzoo.services.conversion import format_of

logger = logging.getLogger(__name__)
IMPORT_TASK = "modelzoo.import_weights"
CHUNK = 1024 * 1024
# A conversion holds the file's tensors about four times over at its peak (read, converted,
# loaded into the network, serialized), so the unpicklers may claim a quarter of the ceiling.
BUDGET_SHARE = 4
CONVERSION_TIMEOUT_SECONDS = 30 * 60


def start_import(
    *, workspace: Any, user: Any, architecture: str, upload: UploadedFile, name: str = ""
) -> WeightsImport:
    """Keeps the upload and queues its import; ValidationError says what is wrong with it."""
    try:
        get_architecture(architecture)
    except UnknownArchitecture:
        raise ValidationError(f"There is no architecture “{architecture}” in the zoo.") from None
    fmt = format_of(upload.name)
    if upload.size is not None and upload.size > settings.MAX_UPLOAD_BYTES:
        raise ValidationError(too_large_message(upload.name, upload.size))
    incoming = _receive(upload)
    with transaction.atomic():
        job = WeightsImport.objects.create(
            workspace=workspace,
            architecture=architecture,
            name=(name or Path(upload.name).stem)[:200],
            original_name=upload.name[:300],
            original_format=fmt,
            size_bytes=default_storage.size(incoming),
            incoming=incoming,
            created_by=user,
        )
        enqueue(IMPORT_TASK, job.pk)
    return job


def too_large_message(name: str, size: int) -> str:
    return (
        f"“{name}” is {size:,} bytes, over this server's {settings.MAX_UPLOAD_BYTES:,}-byte "
        "limit for one upload (MAX_UPLOAD_BYTES)."
    )


def _receive(upload: UploadedFile) -> str:
    """Streams the upload into a folder of its own (never read whole into memory). Alone, so
    that nothing the file names (an ONNX external-data path, say) can reach another upload."""
    folder = f"modelzoo/incoming/{uuid.uuid4().hex}"
    name = f"{folder}/upload{Path(upload.name).suffix.lower()}"
    path = Path(default_storage.path(name))
    path.parent.mkdir(parents=True, exist_ok=True)
    received = 0
    with open(path, "wb") as out:
        for chunk in upload.chunks(CHUNK):
            received += len(chunk)
            if received > settings.MAX_UPLOAD_BYTES:
                out.close()
                shutil.rmtree(path.parent, ignore_errors=True)
                raise ValidationError(too_large_message(upload.name, received))
            out.write(chunk)
    return name


def run_import(job: WeightsImport) -> None:
    """Runs a claimed import to its end: a Weights row, or a failure with its reason."""
    from workers.runtime.isolated import Abandoned, IsolatedFailure, run_isolated

    arch = get_architecture(job.architecture)
    storage_name = f"modelzoo/weights/{uuid.uuid4().hex}.safetensors"
    output = Path(default_storage.path(storage_name))
    output.parent.mkdir(parents=True, exist_ok=True)
    partial = output.with_suffix(".partial")
    memory = settings.WEIGHTS_IMPORT_MEMORY_BYTES
    try:
        job.beat(stage=said.CONVERTING())
        result = run_isolated(
            "modelzoo.services.conversion:convert_to_file",
            {
                "architecture": arch.key,
                "path": default_storage.path(job.incoming),
                "fmt": job.original_format,
                "name": job.original_name,
                "output": str(partial),
                "max_bytes": memory // BUDGET_SHARE,
            },
            memory_bytes=memory,
            timeout=CONVERSION_TIMEOUT_SECONDS,
            heartbeat=job.beat,
        )
        partial.rename(output)
        with transaction.atomic():
            weights = _record(job, arch, storage_name, result)
            if not job.mark_succeeded(weights=weights):
                transaction.set_rollback(True)  # another worker took over; its attempt decides
                output.unlink(missing_ok=True)
                return
    except Abandoned:
        logger.warning("Weights import %s was taken over by another worker", job.pk)
        return
    except IsolatedFailure as failure:
        job.mark_failed(
            said.NOT_IMPORTED(name=job.original_name, reason=failure.reason), failure.fix
        )
    finally:
        partial.unlink(missing_ok=True)
    if job.is_finished:
        _discard_incoming(job)


def _record(job: WeightsImport, arch: Architecture, storage_name: str, result: dict) -> Weights:
    path = Path(default_storage.path(storage_name))
    return Weights.objects.create(
        workspace=job.workspace,
        name=job.name,
        architecture=arch.key,
        source=Weights.Source.IMPORTED,
        original_format=job.original_format,
        original_name=job.original_name,
        file=storage_name,
        size_bytes=path.stat().st_size,
        sha256=_sha256(path),
        num_classes=int(result["num_classes"]),
        report=result["report"],
        created_by=job.created_by,
    )


def _discard_incoming(job: WeightsImport) -> None:
    if job.incoming:
        shutil.rmtree(Path(default_storage.path(job.incoming)).parent, ignore_errors=True)
        WeightsImport.objects.filter(pk=job.pk).update(incoming="")


def import_now(
    *, workspace: Any, user: Any, architecture: str, upload: UploadedFile, name: str = ""
) -> WeightsImport:
    """Starts an import and runs it here and now, as the worker would (for scripts, seeding
    and tests; people and API clients queue). Returns the finished job."""
    job = start_import(
        workspace=workspace, user=user, architecture=architecture, upload=upload, name=name
    )
    if job.claim():
        run_import(job)
    job.refresh_from_db()
    return job


def save_weights(
    *,
    workspace: Any,
    user: Any,
    arch: Architecture,
    network: Any,
    num_classes: int,
    name: str,
    source: str,
    original_format: str,
    original_name: str = "",
    report: dict[str, Any] | None = None,
    class_names: list[str] | None = None,
    input_size: int | None = None,
) -> Weights:
    """Stores a network's weights (a finished job's, say) as a new Weights row."""
    from safetensors.numpy import save_file

    storage_name = f"modelzoo/weights/{uuid.uuid4().hex}.safetensors"
    path = Path(default_storage.path(storage_name))
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {k: np.ascontiguousarray(v.numpy()) for k, v in network.state_dict().items()}
    temporary = path.with_suffix(".partial")
    save_file(arrays, str(temporary))
    shutil.move(temporary, path)
    return Weights.objects.create(
        workspace=workspace,
        name=name[:200],
        architecture=arch.key,
        source=source,
        original_format=original_format,
        original_name=original_name[:300],
        file=storage_name,
        size_bytes=path.stat().st_size,
        sha256=_sha256(path),
        num_classes=num_classes,
        class_names=class_names or [],
        input_size=input_size,
        report=report or {},
        created_by=user,
    )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while chunk := stream.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def load_network(weights: Weights) -> Any:
    """The architecture with these weights loaded (for training, export or a check)."""
    from safetensors.numpy import load_file

    network = weights.arch.build(weights.num_classes)
    network.set_state_dict(load_file(weights.local_path()))
    return network
