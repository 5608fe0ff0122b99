"""Job hyperparameters: the fields, their limits, and the one place they are validated.

`build_config` takes a preset and the fields a person changed in the advanced panel (or sent
to the API) and returns the complete config, or raises ValidationError with one clear message
per field. The page form and the API serializer both call it.

A task may add fields of its own (`TASK_FIELDS`, with their defaults in `TASK_DEFAULTS`): a
multi-label job has a decision threshold; a single-label job refuses one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from modelzoo.catalog import Architecture
from modelzoo.presets import PRESETS, dataset_limits, fine_tune_defaults, preset_config

OPTIMIZERS = {
    "sgd": "SGD",
    "momentum": _("SGD with momentum (0.9)"),
    "adam": "Adam",
    "adamw": "AdamW",
}
SCHEDULES = {
    "constant": _("Constant"),
    "step": _("Step decay (×0.1 after 1/2 and 3/4 of the epochs)"),
    "cosine": _("Cosine annealing"),
    "warmup_cosine": _("Linear warm-up for one epoch, then cosine"),
}
# What an OCR job fine-tunes, in pipeline order (the weights' key prefixes).
OCR_PARTS = {"det": _("Text detection"), "rec": _("Text recognition")}
DEVICES = {"auto": _("Automatic (a GPU when the worker has one)"), "cpu": "CPU", "gpu": "GPU"}


@dataclass(frozen=True)
class Field:
    label: str
    kind: type
    low: float | None = None
    high: float | None = None
    choices: dict[str, str] | None = None
    hint: str = ""

    def shown(self, value: Any) -> Any:
        """The value as the job page lists it, in the reader's words: a choice's label, yes or
        no (not "constant" or "False")."""
        if self.kind is bool and isinstance(value, bool):
            return gettext("Yes") if value else gettext("No")
        if self.choices is None:
            return value
        if isinstance(value, list):
            return ", ".join(str(self.choices.get(v, v)) for v in value)
        return self.choices.get(value, value) if isinstance(value, str) else value

    def clean(self, value: Any) -> Any:
        if self.kind is bool:
            return _boolean(value, self.label)
        if self.kind is list:
            return _subset(value, self.label, self.choices or {})
        if self.choices is not None:
            if value not in self.choices:
                raise ValueError(
                    gettext("%(label)s must be one of: %(choices)s.")
                    % {"label": self.label, "choices": ", ".join(self.choices)}
                )
            return value
        number = _number(value, self.kind, self.label)
        if (self.low is not None and number < self.low) or (
            self.high is not None and number > self.high
        ):
            raise ValueError(
                gettext("%(label)s must be from %(low)s to %(high)s.")
                % {"label": self.label, "low": f"{self.low:g}", "high": f"{self.high:g}"}
                + str(self.hint)
            )
        return number


FIELDS: dict[str, Field] = {
    "epochs": Field(_("Epochs"), int, 1, 1000),
    "batch_size": Field(_("Batch size"), int, 1, 4096),
    "learning_rate": Field(
        _("Learning rate"), float, 1e-7, 10.0, hint=_(" 0.001 (Adam) or 0.05 (momentum) are sound.")
    ),
    "optimizer": Field(_("Optimizer"), str, choices=OPTIMIZERS),
    "weight_decay": Field(_("Weight decay"), float, 0.0, 1.0),
    "schedule": Field(_("Schedule"), str, choices=SCHEDULES),
    "augment_flip": Field(_("Random horizontal flips"), bool),
    "augment_crop": Field(_("Random crops"), bool),
    "augment_color": Field(_("Colour jitter"), bool),
    "input_size": Field(_("Input size"), int, 8, 1024),
    "early_stopping": Field(_("Early stopping"), bool),
    "patience": Field(_("Patience"), int, 1, 100),
    "seed": Field(_("Seed"), int, 0, 2**31 - 1),
    "device": Field(_("Device"), str, choices=DEVICES),
    "freeze_epochs": Field(
        _("Frozen backbone epochs"),
        int,
        0,
        1000,
        hint=_(" For the first epochs only the new classifier head learns (0: none)."),
    ),
    "backbone_lr_scale": Field(
        _("Backbone learning rate"),
        float,
        0.0,
        1.0,
        hint=_(
            " A share of the head's learning rate: 0.1 keeps pretrained features while the "
            "head learns fast; 1 trains every layer alike."
        ),
    ),
}


# Fields only some tasks have, on top of FIELDS (keys are TrainingJob.Task values).
TASK_FIELDS: dict[str, dict[str, Field]] = {
    "classification": {
        "label_smoothing": Field(
            _("Label smoothing"),
            float,
            0.0,
            0.5,
            hint=_(
                " 0.1 is common when fine-tuning: it keeps the network from over-trusting a "
                "few labels."
            ),
        ),
    },
    "multi_label": {
        "threshold": Field(
            _("Decision threshold"),
            float,
            0.01,
            0.99,
            hint=_(" A class is predicted when its sigmoid score reaches it; 0.5 is the usual."),
        ),
    },
    "detection": {
        "augment_expand": Field(
            _("Random zoom-out"),
            bool,
            hint=_(
                " Places the image on a larger canvas now and then, so small objects are seen "
                "more often."
            ),
        ),
        "multi_scale": Field(
            _("Multi-scale training"),
            bool,
            hint=_(
                " Each batch at a random size around the input size (multiples of 32): more "
                "robust to object sizes, but it needs a few hundred images to pay off."
            ),
        ),
    },
}
TASK_FIELDS["ocr"] = {
    "parts": Field(
        _("Fine-tune"),
        list,
        choices=OCR_PARTS,
        hint=_(" Text detection (DB, on whole images), text recognition (on line crops), or both."),
    ),
    "det_input_size": Field(
        _("Detection training size"),
        int,
        64,
        1280,
        hint=_(" The side of the square crops the detector trains on, a multiple of 32."),
    ),
    "det_batch_size": Field(_("Detection batch size"), int, 1, 64),
    "det_learning_rate": Field(
        _("Detection learning rate"),
        float,
        1e-7,
        1.0,
        hint=_(" The detector's own rate; the schedule scales it as it scales the recognizer's."),
    ),
}
# The OCR settings only one part reads: the recognizer's batch and rate are the job's general
# ones. A job that does not fine-tune a part does not show that part's settings.
OCR_PART_SETTINGS = {
    "rec": ("batch_size", "learning_rate"),
    "det": ("det_input_size", "det_batch_size", "det_learning_rate"),
}


def unused_settings(task: str, config: dict[str, Any]) -> set[str]:
    """The settings in `config` that the job's training does not read (an OCR part it leaves
    as shipped); empty for every other task.

    >>> sorted(unused_settings("ocr", {"parts": ["det"]}))
    ['batch_size', 'learning_rate']
    """
    if task != "ocr":
        return set()
    parts = config.get("parts") or list(OCR_PARTS)
    skipped = [names for part, names in OCR_PART_SETTINGS.items() if part not in parts]
    return {name for names in skipped for name in names}


TASK_DEFAULTS: dict[str, dict[str, Any]] = {
    "classification": {"label_smoothing": 0.0},
    "multi_label": {"threshold": 0.5},
    "detection": {"augment_expand": False, "multi_scale": False},
    # PaddleOCR trains its detectors at 640 with 8 images a card; fine-tuning from the
    # released weights wants a rate below its 1e-3 from scratch.
    "ocr": {
        "parts": list(OCR_PARTS),
        "det_input_size": 640,
        "det_batch_size": 8,
        "det_learning_rate": 5e-4,
    },
}


def fields_for(task: str) -> dict[str, Field]:
    """Every hyperparameter a job of `task` has."""
    return {**FIELDS, **TASK_FIELDS.get(task, {})}


def _number(value: Any, kind: type, label: str) -> int | float:
    if isinstance(value, bool) or value is None or value == "":
        raise ValueError(gettext("%(label)s needs a number.") % {"label": label})
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(
            gettext("%(label)s must be a number, not “%(value)s”.")
            % {"label": label, "value": value}
        ) from None
    if number != number or number in (float("inf"), float("-inf")):
        raise ValueError(gettext("%(label)s must be a finite number.") % {"label": label})
    if kind is int:
        if number != int(number):
            raise ValueError(gettext("%(label)s must be a whole number.") % {"label": label})
        return int(number)
    return number


def _boolean(value: Any, label: str) -> bool:
    if isinstance(value, bool):
        return value
    if str(value).lower() in ("1", "true", "on", "yes"):
        return True
    if str(value).lower() in ("0", "false", "off", "no", ""):
        return False
    raise ValueError(gettext("%(label)s must be true or false.") % {"label": label})


def _subset(value: Any, label: str, choices: dict[str, str]) -> list[str]:
    """A non-empty subset of `choices`, in their order: a list, or names joined by commas."""
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ValueError(
            gettext("%(label)s must be a list of: %(choices)s.")
            % {"label": label, "choices": ", ".join(choices)}
        )
    unknown = [v for v in value if v not in choices]
    if unknown or not value:
        raise ValueError(
            gettext("%(label)s must name one or more of: %(choices)s (got %(value)s).")
            % {
                "label": label,
                "choices": ", ".join(choices),
                "value": ", ".join(unknown) or gettext("none"),
            }
        )
    return [name for name in choices if name in value]


def _unknown(name: str, known: dict[str, Field]) -> str:
    tasks = [task for task, fields in TASK_FIELDS.items() if name in fields]
    if tasks:
        names = " or ".join(task.replace("_", "-") for task in tasks)
        return gettext("“%(name)s” applies to %(tasks)s datasets only.") % {
            "name": name,
            "tasks": names,
        }
    return gettext("“%(name)s” is not a hyperparameter. Known: %(known)s.") % {
        "name": name,
        "known": ", ".join(known),
    }


def _check_freeze(config: dict[str, Any], *, asked: bool, fine_tune: bool) -> None:
    """A preset's warm-up shortens to fit a short run the person chose (one epoch, say)."""
    if fine_tune and not asked:
        config["freeze_epochs"] = min(config["freeze_epochs"], config["epochs"] - 1)


def _freeze_problem(config: dict[str, Any], fine_tune: bool) -> str:
    frozen, epochs = config["freeze_epochs"], config["epochs"]
    if frozen and not fine_tune:
        return gettext(
            "Freezing the backbone keeps pretrained features while a new head learns; a job "
            "from random weights has none to keep. Start from pretrained weights, or set 0."
        )
    if frozen >= epochs:
        return gettext(
            "The backbone would stay frozen for all %(epochs)d epochs; freeze it for fewer "
            "(at most %(most)d), or set 0."
        ) % {"epochs": epochs, "most": epochs - 1}
    return ""


def _batch_problems(
    config: dict[str, Any],
    errors: dict[str, str],
    task: str,
    train_samples: int | None,
    train_pages: int | None,
) -> dict[str, str]:
    """A batch larger than what it counts in the train split. An OCR job checks only the parts
    it fine-tunes, each against its own unit: the recognizer's batch counts line crops, the
    detector's whole images."""
    if task == "ocr" and "parts" in errors:
        return {}  # the parts' own error says what to fix first
    parts = config.get("parts") or []
    problems: dict[str, str] = {}
    if "batch_size" not in errors and train_samples is not None:
        too_many = config["batch_size"] > train_samples
        if too_many and task != "ocr":
            problems["batch_size"] = gettext(
                "Batch size %(batch)d is more than the %(images)d training images in this "
                "version; use at most %(images)d."
            ) % {"batch": config["batch_size"], "images": train_samples}
        elif too_many and "rec" in parts:
            problems["batch_size"] = gettext(
                "Batch size %(batch)d is more than the %(lines)d text lines of this version's "
                "train split (the recognizer trains on line crops); use at most %(lines)d."
            ) % {"batch": config["batch_size"], "lines": train_samples}
    if "det_batch_size" not in errors and train_pages is not None and "det" in parts:
        if config["det_batch_size"] > train_pages:
            problems["det_batch_size"] = gettext(
                "Detection batch size %(batch)d is more than the %(pages)d images with labeled "
                "lines in this version's train split (the detector trains on whole images); "
                "use at most %(pages)d."
            ) % {"batch": config["det_batch_size"], "pages": train_pages}
    return problems


def build_config(
    arch: Architecture,
    preset: str,
    overrides: dict[str, Any] | None = None,
    *,
    train_samples: int | None = None,
    train_pages: int | None = None,
    gpu_available: bool = True,
    task: str = "classification",
    fine_tune: bool = False,
) -> dict[str, Any]:
    """The complete, checked config: the preset's values (and the task's defaults) with
    `overrides` on top. `fine_tune` for a job that starts from pretrained weights: the preset's
    fine-tuning recipe (modelzoo.presets). `train_samples` is what `batch_size` counts (images,
    or an OCR recognizer's line crops); `train_pages` what an OCR detector's batch counts (the
    train split's images with lines)."""
    if preset not in PRESETS:
        raise ValidationError(
            {"preset": gettext("Choose one of: %(presets)s.") % {"presets": ", ".join(PRESETS)}}
        )
    config = TASK_DEFAULTS.get(task, {}) | preset_config(arch, preset, fine_tune=fine_tune)
    if fine_tune:
        config |= fine_tune_defaults(preset, task)
    config |= dataset_limits(task, train_samples)
    if train_samples:  # a preset fits itself to a small dataset; an explicit batch is checked
        config["batch_size"] = min(config["batch_size"], train_samples)
    if task == "ocr" and train_pages:
        config["det_batch_size"] = min(config["det_batch_size"], train_pages)
    known = fields_for(task)
    errors: dict[str, str] = {}
    for name, value in (overrides or {}).items():
        field = known.get(name)
        if field is None:
            errors[name] = _unknown(name, known)
            continue
        try:
            config[name] = field.clean(value)
        except ValueError as error:
            errors[name] = str(error)
    if "input_size" not in errors:
        problem = arch.check_input_size(config["input_size"])
        if problem:
            errors["input_size"] = problem
    errors |= _batch_problems(config, errors, task, train_samples, train_pages)
    if "freeze_epochs" not in errors and "epochs" not in errors:
        _check_freeze(config, asked="freeze_epochs" in (overrides or {}), fine_tune=fine_tune)
        problem = _freeze_problem(config, fine_tune)
        if problem:
            errors["freeze_epochs"] = problem
    if task == "ocr" and "det_input_size" not in errors and config["det_input_size"] % 32:
        errors["det_input_size"] = gettext(
            "The detection training size must be a multiple of 32 (the DB network halves it "
            "five times): %(below)d or %(above)d, say."
        ) % {
            "below": max(64, config["det_input_size"] // 32 * 32),
            "above": config["det_input_size"] // 32 * 32 + 32,
        }
    if task == "ocr" and config["augment_flip"] and "augment_flip" not in errors:
        errors["augment_flip"] = gettext(
            "Text lines are never flipped: a mirrored line is not text. Turn random flips off."
        )
    if "device" not in errors and config["device"] == "gpu" and not gpu_available:
        errors["device"] = gettext(
            "No worker with a GPU is online. Choose “auto” or “cpu”, or start a GPU worker."
        )
    if errors:
        raise ValidationError(errors)
    return config
