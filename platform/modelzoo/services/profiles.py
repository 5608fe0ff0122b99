"""Measuring architectures (parameters and FLOPs) once, in the background, and caching them."""

from __future__ import annotations

import contextlib
import io
import logging

from django.db import transaction

from core.errors import describe_unexpected
from core.queueing import enqueue
from modelzoo.catalog import ARCHITECTURES, get_architecture
from modelzoo.models import ArchitectureProfile

logger = logging.getLogger(__name__)
PROFILE_TASK = "modelzoo.profile_architectures"


def profiles_by_key() -> dict[str, ArchitectureProfile]:
    """Every catalog entry's profile; entries never measured get a pending row and a task."""
    known = {p.architecture: p for p in ArchitectureProfile.objects.all()}
    missing = [a.key for a in ARCHITECTURES if a.key not in known]
    if missing:
        with transaction.atomic():
            ArchitectureProfile.objects.bulk_create(
                [ArchitectureProfile(architecture=key) for key in missing], ignore_conflicts=True
            )
            enqueue(PROFILE_TASK)
        known = {p.architecture: p for p in ArchitectureProfile.objects.all()}
    return known


def measure(key: str) -> tuple[int, int]:
    """(trainable parameters, FLOPs of one forward pass) at the entry's own input size and
    head. Trainable, as torchvision counts them: BatchNorm's running statistics are not."""
    import framework

    architecture = get_architecture(key)
    network = architecture.build(architecture.profile_classes)
    shape = (1, *architecture.input_shape())
    with contextlib.redirect_stdout(io.StringIO()):  # both print their tables
        params = framework.summary(network, shape)["trainable_params"]
        flops = framework.flops(network, list(shape))
    return int(params), int(flops)


def measure_pending() -> int:
    """Measures every pending profile; returns how many were measured. Measuring is
    deterministic, so two runs at once only repeat work, they never disagree."""
    measured = 0
    for profile in ArchitectureProfile.objects.filter(status=ArchitectureProfile.Status.PENDING):
        try:
            architecture = get_architecture(profile.architecture)
        except KeyError:
            profile.record_failure("This architecture is no longer in the catalog.")
            continue
        try:
            params, flops = measure(profile.architecture)
        except Exception as error:  # a network that cannot run is reported, not retried
            logger.exception("Could not measure %s", profile.architecture)
            profile.record_failure(describe_unexpected(error))
            continue
        profile.record(
            params=params,
            flops=flops,
            shape=list(architecture.input_shape()),
            num_classes=architecture.profile_classes,
        )
        measured += 1
    return measured
