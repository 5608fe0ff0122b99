"""Reading a job's scalar series, incrementally and downsampled on the server.

Series are stored in chunks (`ScalarChunk`), so reading 100,000 points means unpacking a few
hundred arrays, not building 100,000 rows. A series longer than `max_points` is cut into
buckets and each bucket keeps its lowest and highest point (and the series keeps its first
and last), so spikes and dips survive any zoom level while the browser draws a few thousand
points at most. `?after=` takes the last chunk id a client has seen.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from django.db import connection

from training.models import ScalarChunk
from training.models.metrics import unpack

MAX_POINTS = 2000
_TABLE = ScalarChunk._meta.db_table


def tags_of(job_id: int) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT DISTINCT tag FROM {_TABLE} WHERE job_id = %s", [job_id])
        return sorted(row[0] for row in cursor.fetchall())


def series_arrays(
    job_id: int, tag: str, after: int = 0, upto: int | None = None
) -> tuple[np.ndarray, ...]:
    """(steps, wall times, values, last chunk id) of the series' points in the chunks after
    `after` (and up to `upto`, when given)."""
    bound, values = ("AND id <= %s ", [upto]) if upto is not None else ("", [])
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, step_data, wall_data, value_data FROM {_TABLE} "
            f"WHERE job_id = %s AND tag = %s AND id > %s {bound}ORDER BY id",
            [job_id, tag, after, *values],
        )
        rows = cursor.fetchall()
    if not rows:
        empty = np.zeros(0)
        return empty.astype(np.int64), empty, empty, np.int64(after)
    parts = [unpack(bytes(s), bytes(w), bytes(v)) for _, s, w, v in rows]
    steps, walls, values = (np.concatenate(column) for column in zip(*parts, strict=True))
    return steps, walls, values, np.int64(rows[-1][0])


def keep_extremes(values: np.ndarray, max_points: int) -> np.ndarray:
    """Indices to keep: per bucket its minimum and maximum, plus both ends, in order."""
    n = values.size
    if n <= max_points:
        return np.arange(n)
    buckets = max(1, (max_points - 2) // 2)
    size = -(-n // buckets)
    padded = np.full(buckets * size, np.nan)
    padded[:n] = values
    grid = padded.reshape(buckets, size)
    offsets = np.arange(buckets) * size
    lows = np.argmin(np.where(np.isnan(grid), np.inf, grid), axis=1) + offsets
    highs = np.argmax(np.where(np.isnan(grid), -np.inf, grid), axis=1) + offsets
    keep = np.concatenate(([0, n - 1], lows, highs))
    return np.unique(keep[keep < n])


def read_series(
    job_id: int, tag: str, after: int = 0, max_points: int = MAX_POINTS, upto: int | None = None
) -> dict[str, Any]:
    steps, walls, values, last = series_arrays(job_id, tag, after, upto)
    keep = keep_extremes(values, max_points)
    return {
        "step": steps[keep].tolist(),
        "wall": np.round(walls[keep], 3).tolist(),
        "value": values[keep].tolist(),
        "total": int(values.size),
        "last_id": int(last),
    }


def read_scalars(
    job_id: int, tags: list[str] | None = None, after: int = 0, max_points: int = MAX_POINTS
) -> dict[str, Any]:
    """{"series": {tag: {...}}, "last_id": n}: the points after chunk `after`, per tag.

    The tags are read one query each while the worker keeps writing, so every read stops at
    the newest chunk id seen first: a chunk of an already-read tag committed meanwhile would
    otherwise fall below the returned `last_id` and never be sent.
    """
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT MAX(id) FROM {_TABLE} WHERE job_id = %s", [job_id])
        ceiling = max(cursor.fetchone()[0] or 0, after)
    wanted = tags or tags_of(job_id)
    series = {tag: read_series(job_id, tag, after, max_points, ceiling) for tag in wanted}
    return {"series": series, "last_id": int(ceiling)}


def csv_rows(job_id: int) -> Iterator[str]:
    """Every point of every series, for the CSV download (never downsampled)."""
    yield "tag,step,wall_time,value\n"
    chunks = ScalarChunk.objects.filter(job_id=job_id).order_by("tag", "id")
    for chunk in chunks.iterator(chunk_size=200):
        steps, walls, values = chunk.arrays()
        tag = chunk.tag
        yield "".join(
            f"{tag},{s},{w:.3f},{v!r}\n"
            for s, w, v in zip(steps.tolist(), walls.tolist(), values.tolist(), strict=True)
        )


def trim_after(job_id: int, step: int) -> None:
    """Forgets every point after `step` (a resumed job redoes those steps)."""
    ScalarChunk.objects.filter(job_id=job_id, first_step__gt=step).delete()
    for chunk in ScalarChunk.objects.filter(job_id=job_id, last_step__gt=step):
        steps, walls, values = chunk.arrays()
        keep = steps <= step
        if not keep.any():
            chunk.delete()
            continue
        points = list(
            zip(steps[keep].tolist(), walls[keep].tolist(), values[keep].tolist(), strict=True)
        )
        trimmed = ScalarChunk.pack(job_id, chunk.tag, points)
        trimmed.pk = chunk.pk
        trimmed.save()
