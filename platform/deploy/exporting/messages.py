"""Why a model export failed, stored in English with its message key and shown in the reader's
language (core.stored_messages)."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext_noop

from core.stored_messages import Message, in_language

WEIGHTS_DELETED = Message(
    gettext_noop("The trained model's weights have been deleted; re-run the job.")
)
NO_CALIBRATION_IMAGES = Message(gettext_noop("INT8 calibration needs images, and none were found."))
ONNX_NOT_RUNNABLE = Message(gettext_noop("The ONNX file cannot be run here to check it: %(error)s"))
UNEXPECTED = Message(
    gettext_noop(
        "Unexpected error: %(error)s. The worker's log has the details; try again, and if it "
        "fails the same way, report it with that log."
    )
)

# A ready model (the zoo's) that cannot be exported (deploy.exporting.ready).
NO_READY_MODEL = Message(gettext_noop("This server has no ready model %(key)s."))
NO_READY_MODEL_TO_EXPORT = Message(
    gettext_noop("This server has no ready model %(key)s to export with.")
)
MANIFEST_CHANGED = Message(
    gettext_noop(
        "The manifest of %(name)s changed since this export was requested; deploy it again from "
        "the zoo."
    )
)
NO_PART_NETWORK = Message(gettext_noop("The trained weights hold no %(part)s network to export."))
PART_DOES_NOT_FIT = Message(
    gettext_noop(
        "The trained %(part)s weights do not fit %(file)s: %(missing)s missing, %(unknown)s "
        "unknown."
    )
)
DICTIONARY_MISMATCH = Message(
    gettext_noop("The recognition dictionary of %(name)s is not the one its manifest names.")
)

# What an export is doing (deploy.exporting.pipeline, ready).
LOADING_TRAINED_MODEL = Message(gettext_noop("Loading the trained model"))
TRACING = Message(gettext_noop("Tracing the network to a graph"))
WRITING = Message(gettext_noop("Writing %(format)s"))
QUANTIZING_AND_WRITING = Message(gettext_noop("Quantizing to INT8 and writing %(format)s"))
CHECKING_PARITY = Message(gettext_noop("Checking parity on %(count)s %(images)s"))
MEASURING_LATENCY = Message(gettext_noop("Measuring latency at batch 1 and 32"))
STORING = Message(gettext_noop("Storing the export"))
LOCATING_OCR_NETWORKS = Message(gettext_noop("Locating the three OCR networks"))
READING_RENDERED_PAGES = Message(
    gettext_noop("Reading rendered pages with the export and with the pipeline")
)
MEASURING_PAGE_LATENCY = Message(gettext_noop("Measuring the latency of one page"))
# The images parity is checked on (deploy.exporting.data.CheckImages.source).
CHECK_IMAGES = {
    "validation images": Message(gettext_noop("validation images")),
    "test images": Message(gettext_noop("test images")),
    "training images": Message(gettext_noop("training images")),
    "random inputs": Message(gettext_noop("random inputs")),
}


def shown_check_images(source: str) -> str:
    """A stored CheckImages.source in the active language (as stored when not one of these)."""
    message = CHECK_IMAGES.get(source)
    return in_language(message()) if message else source


# The formats that are more than a name, as ModelExport.Format names them (the same msgids,
# so one translation); the ONNX formats read the same in every language.
FORMAT_NAMES = {
    "package": Message(gettext_noop("Inference package")),
    "int8_package": Message(gettext_noop("INT8 inference package")),
}


def format_name(export: Any) -> str:
    """The export's format as a message parameter (a name in its English spelling)."""
    name = FORMAT_NAMES.get(export.format)
    if name:
        return name()
    with translation.override("en"):
        return str(export.get_format_display())


# Why a deployment cannot answer (deploy.services.serving), shown at request time.
FILES_MISSING = Message(gettext_noop("The files of export #%(export)s are missing."))
NOT_A_PACKAGE = Message(gettext_noop("Export #%(export)s is not a finished inference package."))
CANNOT_LOAD = Message(gettext_noop("Export #%(export)s cannot be loaded: %(reason)s"))
