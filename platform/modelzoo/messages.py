"""What the model zoo's background work stores for people: why a ready model cannot be used
(an export's or a pre-labeling's failure) and a weights import's stage, stored in English with
their keys and shown in the reader's language (core.stored_messages)."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from core.stored_messages import Message

CONVERTING = Message(gettext_noop("Converting"))

# Why a ready model's files cannot be used (modelzoo.services.ready.locate_files).
INSTALL_WITH = Message(gettext_noop("An administrator installs it with `%(command)s`."))
NOT_INSTALLED = Message(
    gettext_noop(
        "%(package)s is not installed on this server, so %(name)s cannot be used. %(install)s"
    )
)
OTHER_VERSION = Message(
    gettext_noop(
        "%(package)s %(installed)s is installed; %(name)s is described for %(version)s. %(install)s"
    )
)
FILE_MISSING = Message(gettext_noop("%(package)s %(version)s has no %(file)s. %(install)s"))
HASH_MISMATCH = Message(
    gettext_noop(
        "%(file)s has sha256 %(actual)s, not the %(expected)s its manifest names: it is not the "
        "file described. Reinstall it: `%(command)s`."
    )
)

# Why a weights import failed (modelzoo.services.weights, workers.runtime.isolated).
NOT_IMPORTED = Message(gettext_noop("“%(name)s” was not imported. %(reason)s"))
TOOK_TOO_LONG = Message(
    gettext_noop("The work took longer than %(minutes)s minutes and was stopped.")
)
TRY_SMALLER_OR_ADMIN = Message(
    gettext_noop("Try a smaller file, or ask your administrator to look at the worker.")
)
NEEDS_MORE_MEMORY = Message(
    gettext_noop(
        "It needs more than %(memory)s of memory, the most this server gives one import "
        "(WEIGHTS_IMPORT_MEMORY_BYTES)."
    )
)
USE_SMALLER_OR_RAISE = Message(gettext_noop("Use a smaller file, or raise that limit."))
FAILED_UNEXPECTEDLY = Message(gettext_noop("It failed unexpectedly (%(error)s)."))
TRY_AGAIN_OR_ADMIN = Message(
    gettext_noop("Try again; if it fails again, send this message to your administrator.")
)
STOPPED_BY_SIGNAL = Message(
    gettext_noop("The process doing the work was stopped by %(signal)s. %(memory)s")
)
EXITED_WITH_CODE = Message(gettext_noop("The process doing the work exited with code %(code)s."))
