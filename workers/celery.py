"""The Celery app, configured from Django settings (``CELERY_*``).

Start a worker from the repository root::

    celery -A workers.celery worker -Q gpu,default

Queues: ``gpu`` for training and model export (one job per device), ``default`` for dataset
imports and housekeeping. Platform code never calls tasks directly: it calls
``core.queueing.enqueue`` with the task's name, and the routes below pick the queue, so
senders need not import tasks.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from celery import Celery, signals
from kombu import Exchange, Queue

# platform/ is a source root (see manage.py); the worker imports apps by their own names.
_PLATFORM_DIR = str(Path(__file__).resolve().parents[1] / "platform")
if _PLATFORM_DIR not in sys.path:
    sys.path.insert(0, _PLATFORM_DIR)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "studio.settings")

GPU_QUEUE = "gpu"
DEFAULT_QUEUE = "default"

# Task names are stable and dotted by family ("training.run_job"); the family picks the queue.
# This table is where each task's queue is declared: Celery 5.7 deprecates the task-level
# `queue=` attribute (ignored from 6.0), and a sender using enqueue() by name never imports
# the task anyway. A new family adds its line; tests refuse a task without one.
TASK_ROUTES = {
    "training.*": {"queue": GPU_QUEUE},
    "deploy.*": {"queue": GPU_QUEUE},
    "datastore.*": {"queue": DEFAULT_QUEUE},
    "housekeeping.*": {"queue": DEFAULT_QUEUE},
    "modelzoo.*": {"queue": DEFAULT_QUEUE},
    "labeling.*": {"queue": DEFAULT_QUEUE},
}

# One module per family of tasks; a new family adds its module here.
TASK_MODULES = [
    "workers.tasks.housekeeping",
    "workers.tasks.datastore",
    "workers.tasks.training",
    "workers.tasks.deploy",
    "workers.tasks.modelzoo",
    "workers.tasks.labeling",
]

app = Celery("sampan", include=TASK_MODULES)
app.config_from_object("django.conf:settings", namespace="CELERY")
# Each queue gets its own exchange and routing key. Left unset, Celery binds every queue to
# the default exchange and key, and a message for `gpu` would also land on `default`.
app.conf.task_queues = [
    Queue(name, Exchange(name, type="direct"), routing_key=name)
    for name in (GPU_QUEUE, DEFAULT_QUEUE)
]
app.conf.task_default_queue = DEFAULT_QUEUE
app.conf.task_routes = TASK_ROUTES


# LOG_FORMAT=json: Celery gives its task logger and its multiprocessing logger handlers of its
# own, with its own text formats; they get Sampan's JSON formatter, as the root logger (set up
# from settings.LOGGING) already has. Text keeps Celery's formats, with their task names.
@signals.after_setup_logger.connect
@signals.after_setup_task_logger.connect
def _log_as_settings_say(logger: logging.Logger, **kwargs: object) -> None:
    from django.conf import settings

    if settings.LOG_FORMAT != "json":
        return
    from celery.utils.log import get_multiprocessing_logger

    from core.log_format import JsonFormatter

    for each in (logger, get_multiprocessing_logger()):
        for handler in each.handlers:
            handler.setFormatter(JsonFormatter())
