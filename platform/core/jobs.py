"""The claimable job: a row that is the job's state, and the verbs a worker changes it with.

A worker changes a job only through these verbs. `claim` wins for exactly one worker and counts
the attempt; every later write names that attempt, so a worker that lost its job (it stalled,
and another took over) can no longer change it. A job whose worker died `MAX_ATTEMPTS` times
fails with a plain reason instead of being tried again: an import that kills its worker for
memory would otherwise come back forever. `core.stalled` re-sends the lost ones.

Every background job builds on it: dataset imports and label exports (datastore), weights
imports (modelzoo), model exports (deploy), training jobs and test-split evaluations
(training). Each kind adds its own fields, says what it does (`activity`) for that reason, may
name fields a new attempt starts afresh (`claim_resets`) and fields its give-up sets
(`exhausted_fields`), and may read its limits from settings (`stale_after`, `max_attempts`).
`workers.runtime.reconciler` holds the table of kinds.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from core.errors import without_paths
from core.stored_messages import Message, Said, said_json, translated

GAVE_UP = Message(
    gettext_noop(
        "The worker stopped %(attempts)s times while %(activity)s, so Sampan stopped trying. "
        "The data may be too large for the worker's memory."
    )
)
STARTING = Message(gettext_noop("Starting"))
DONE = Message(gettext_noop("Done"))
CANCELLED = Message(gettext_noop("Cancelled"))
GAVE_UP_FIX = Message(
    gettext_noop(
        "Check the worker's log and memory. Split the data into smaller uploads, or give the "
        "worker more memory, then try again."
    )
)


def failure_fields(reason: str, fix: str) -> dict[str, Any]:
    """The `error`, `error_fix` and `said` a failed job stores: server paths cut to their names,
    and the messages' keys kept so pages show them in the reader's language."""
    said = {}
    if isinstance(reason, Said):
        reason = reason.cleaned(without_paths)
        said["error"] = said_json(reason)
    if isinstance(fix, Said):
        fix = fix.cleaned(without_paths)
        said["error_fix"] = said_json(fix)
    return {"error": without_paths(reason), "error_fix": without_paths(fix), "said": said}


class ClaimableJob(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        SUCCEEDED = "succeeded", _("Succeeded")
        FAILED = "failed", _("Failed")
        CANCELLED = "cancelled", _("Cancelled")

    FINISHED = (Status.SUCCEEDED, Status.FAILED, Status.CANCELLED)
    # A running job whose heartbeat is older than this was on a worker that died.
    STALE_AFTER = timedelta(minutes=5)
    MAX_ATTEMPTS = 3
    # What the worker was doing, for the reason given when it stopped too often (each kind's
    # is a message of its own: see __init_subclass__).
    activity = gettext_noop("running this job")
    # Fields each claim sets back, so a new attempt does not show the last one's progress.
    claim_resets: ClassVar[dict[str, Any]] = {}
    # Fields set when the job is given up after MAX_ATTEMPTS (a kind's failure category).
    exhausted_fields: ClassVar[dict[str, Any]] = {}

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    stage = models.CharField(max_length=100, blank=True)
    attempt = models.PositiveIntegerField(default=0)  # claims so far; fences stale workers
    error = models.TextField(blank=True)
    error_fix = models.TextField(blank=True)
    # The msgids and parameters of the texts stored as messages (core.stored_messages): `error`,
    # `error_fix`, `stage` and a kind's own (an import's `format_note`), by field name.
    said = models.JSONField(default=dict, blank=True)
    worker = models.CharField(max_length=200, blank=True)  # the claiming worker's hostname
    device = models.CharField(max_length=20, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["-id"]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        Message(cls.activity)  # each kind's activity is translated in GAVE_UP

    @property
    def shown_error(self) -> str:
        """The failure reason in the active language (the stored English for old rows)."""
        return translated(self.error, (self.said or {}).get("error"))

    @property
    def shown_error_fix(self) -> str:
        return translated(self.error_fix, (self.said or {}).get("error_fix"))

    @property
    def shown_stage(self) -> str:
        return self.shown("stage")

    def shown(self, field: str) -> str:
        """A text field in the active language (the stored English for rows with no key)."""
        return translated(getattr(self, field), (self.said or {}).get(field))

    def with_keys(self, fields: dict[str, Any]) -> dict[str, Any]:
        """`fields` to write, with `said` updated for the texts among them: a message stores its
        key, a plain text drops the key its field had. An explicit `said` (failure_fields) wins."""
        said = dict(self.said or {})
        for name, value in fields.items():
            if name != "said" and isinstance(value, str):
                if isinstance(value, Said):
                    said[name] = said_json(value)
                else:
                    said.pop(name, None)
        said.update(fields.get("said") or {})
        if said == (self.said or {}) and "said" not in fields:
            return fields
        return {**fields, "said": said}

    @property
    def is_finished(self) -> bool:
        return self.status in self.FINISHED

    @classmethod
    def stale_after(cls) -> timedelta:
        return cls.STALE_AFTER

    @classmethod
    def max_attempts(cls) -> int:
        return cls.MAX_ATTEMPTS

    @classmethod
    def abandoned(cls, stale_after: timedelta | None = None) -> Q:
        """Running, but its worker stopped sending heartbeats (or never sent one)."""
        cutoff = timezone.now() - (stale_after or cls.stale_after())
        return Q(status=cls.Status.RUNNING) & (
            Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True)
        )

    def _mine(self) -> models.QuerySet[Any]:
        return type(self).objects.filter(
            pk=self.pk, status=self.Status.RUNNING, attempt=self.attempt
        )

    def claim(self, *, worker: str = "", device: str = "") -> bool:
        """True for exactly one worker: the first to take a queued (or abandoned) job. A job
        abandoned MAX_ATTEMPTS times is failed instead (see `give_up_if_exhausted`).
        `started_at` keeps the first attempt's start, so a resumed job's duration counts it."""
        if self.give_up_if_exhausted():
            return False
        now = timezone.now()
        first_start = Coalesce(F("started_at"), Value(now, output_field=models.DateTimeField()))
        claimable = Q(status=self.Status.QUEUED) | (
            self.abandoned() & Q(attempt__lt=self.max_attempts())
        )
        won = (
            type(self)
            .objects.filter(claimable, pk=self.pk)
            .update(
                status=self.Status.RUNNING,
                attempt=F("attempt") + 1,
                started_at=first_start,
                heartbeat_at=now,
                worker=worker,
                device=device,
                **self.with_keys({**self.claim_resets, "stage": STARTING()}),
            )
        )
        if won:
            self.refresh_from_db()
        return won == 1

    def give_up_if_exhausted(self) -> bool:
        """Fails the job if its worker stopped MAX_ATTEMPTS times; True when it did."""
        reason = GAVE_UP(attempts=self.max_attempts(), activity=Said(self.activity, {}))
        exhausted = type(self).objects.filter(
            self.abandoned(), pk=self.pk, attempt__gte=self.max_attempts()
        )
        now = timezone.now()
        gave_up = (
            exhausted.update(
                status=self.Status.FAILED,
                **failure_fields(reason, GAVE_UP_FIX()),
                finished_at=now,
                **self.exhausted_fields,
            )
            == 1
        )
        if gave_up:
            self.refresh_from_db()
        return gave_up

    def beat(self, **fields: Any) -> bool:
        """Records the heartbeat (and any progress fields); False when this worker no longer
        owns the job."""
        fields = self.with_keys({**fields, "heartbeat_at": timezone.now()})
        owned = self._mine().update(**fields) == 1
        for name, value in fields.items():
            setattr(self, name, value)
        return owned

    def release(self) -> bool:
        """Gives a claimed job back to the queue untouched (this worker cannot run it now)."""
        return self._mine().update(status=self.Status.QUEUED, worker="", device="") == 1

    def mark_succeeded(self, **results: Any) -> bool:
        return self._finish(self.Status.SUCCEEDED, stage=DONE(), **results)

    def mark_cancelled(self, **results: Any) -> bool:
        return self._finish(self.Status.CANCELLED, stage=CANCELLED(), **results)

    def mark_failed(self, reason: str, fix: str = "") -> bool:
        """Ends the job with a reason people read; server paths in it are cut to their names."""
        return self._finish(self.Status.FAILED, **failure_fields(reason, fix))

    def _finish(self, status: str, **fields: Any) -> bool:
        """The final write, only while this attempt still owns the job."""
        fields = self.with_keys({**fields, "status": status, "finished_at": timezone.now()})
        owned = self._mine().update(**fields) == 1
        if owned:
            for name, value in fields.items():
                setattr(self, name, value)
        return owned
