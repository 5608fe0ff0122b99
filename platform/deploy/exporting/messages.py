"""Why a model export failed, stored in English with its message key and shown in the reader's
language (core.stored_messages)."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from core.stored_messages import Message

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
