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

# Why the converter refused a file (modelzoo.services.conversion, in the isolated child).
UNSAFE_PICKLE = Message(
    gettext_noop(
        "Refused: the file holds Python objects other than tensors, which Sampan never loads "
        "(it could run code). Save only the state dict. Details: %(details)s"
    )
)
TOO_LARGE_TO_LOAD = Message(gettext_noop("%(details)s."))
UNREADABLE_AS = Message(gettext_noop("“%(name)s” could not be read as %(format)s: %(reason)s"))
IMPORT_UNAVAILABLE = Message(gettext_noop("Import from %(format)s is not available."))
EXTERNAL_DATA = Message(
    gettext_noop(
        "“%(name)s” keeps its tensors in separate external-data files, which cannot be "
        "uploaded. Save the model as one file (onnx.save(model, path, "
        "save_as_external_data=False)) and upload that."
    )
)
OUTPUTS_DIFFER_IN_SHAPE = Message(
    gettext_noop(
        "The weights fit %(arch)s's shapes, but its outputs are %(ours)s where the ONNX graph "
        "gives %(theirs)s: the ONNX model is not a %(arch)s."
    )
)
OUTPUTS_DIFFER = Message(
    gettext_noop(
        "The weights fit %(arch)s's shapes, but the network does not reproduce the ONNX graph's "
        "outputs (largest difference %(difference)s): the ONNX model is not a %(arch)s."
    )
)
NO_TENSORS = Message(gettext_noop("The file holds no tensors."))
NO_HEAD = Message(
    gettext_noop(
        "These weights have no classifier head for %(arch)s (looked for %(keys)s). Are they "
        "for another architecture?"
    )
)
BAD_FORWARD = Message(
    gettext_noop(
        "A test forward pass gave outputs of shape %(shape)s%(nonfinite)s; the weights are "
        "damaged or belong to another network."
    )
)
WITH_NAN = Message(gettext_noop(" with NaN or inf values"))
# A file that does not fit an architecture (conversion._misfit), part by part.
FORMAT_NAMES = {
    "safetensors": Message(gettext_noop("safetensors file")),
    "torch": Message(gettext_noop("PyTorch checkpoint")),
    "paddle": Message(gettext_noop("PaddlePaddle .pdparams file")),
    "onnx": Message(gettext_noop("ONNX model")),
}
DOES_NOT_FIT = Message(
    gettext_noop(
        "This %(format)s does not fit %(arch)s: %(fitting)s of its %(total)s tensors match."
    )
)
SHAPE_DIFFERS = Message(gettext_noop("%(name)s is %(got)s in the file, %(arch)s needs %(need)s"))
OTHER_SHAPES = Message(gettext_noop("Other shapes: %(shown)s%(more)s."))
MISSING = Message(gettext_noop("Missing: %(names)s%(more)s."))
NOT_IN_ARCH = Message(gettext_noop("Not in %(arch)s: %(names)s%(more)s."))
# Two sentences one after the other: a space in English, none in Chinese.
THEN = Message(gettext_noop("%(first)s %(then)s"))
AND_MORE = Message(gettext_noop(" and %(count)s more"))
CHOOSE_SAVED_FROM = Message(
    gettext_noop(
        "Choose the architecture the file was saved from in the import form; the zoo page lists "
        "each architecture's input size and parameters."
    )
)
CHOOSE_SAME_LAYERS = Message(
    gettext_noop(
        "Choose the architecture with the same layers (a different size or width of the same "
        "family, perhaps), or re-save the file from that network."
    )
)
