"""Training callbacks for `framework.Model`, as in `paddle.callbacks`.

Every hook receives `logs`, a dict with 'loss' (a list, one value per loss), each metric's name,
'step', 'batch_size' and, at epoch/eval ends, the aggregated values.

This package re-exports them from its modules: `base` (Callback, CallbackList), `progress`,
`training_control` (checkpoints, LR steps, early stopping), `metrics_logger` and `defaults`
(`config_callbacks`).
"""

from __future__ import annotations

# The names the module held before it became a package stay reachable by their old paths.
import json
import numbers
import os
import time
import warnings
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from framework.hapi.callbacks.base import MODES, Callback, CallbackList
from framework.hapi.callbacks.defaults import config_callbacks
from framework.hapi.callbacks.metrics_logger import MetricsLogger
from framework.hapi.callbacks.progress import ProgBarLogger
from framework.hapi.callbacks.training_control import (
    EarlyStopping,
    LRScheduler,
    ModelCheckpoint,
    ReduceLROnPlateau,
)
