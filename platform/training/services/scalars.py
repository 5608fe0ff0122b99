"""Reading a job's scalar series, incrementally and downsampled on the server.

A series longer than `max_points` is cut into buckets and each bucket keeps its lowest and its
highest point (and the series keeps its first and last), so spikes and dips survive any
zoom level while the browser draws a few thousand points at most.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from django.db import connection

from training.models import ScalarPoint

MAX_POINTS = 2000
_TABLE = ScalarPoint._meta.db_table


def tags_of(job_id: int) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT DISTINCT tag FROM {_TABLE} WHERE job_id = %s", [job_id])
        return sorted(row[0] for row in cursor.fetchall())


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
    lows = np.nanargmin(np.where(np.isnan(grid), np.inf, grid), axis=1) + offsets
    highs = np.nanargmax(np.where(np.isnan(grid), -np.inf, grid), axis=1) + offsets
    keep = np.concatenate(([0, n - 1], lows, highs))
    return np.unique(keep[keep < n])


def read_series(
    job_id: int, tag: str, after: int = 0, max_points: int = MAX_POINTS
) -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, step, wall_time, value FROM {_TABLE} "
            "WHERE job_id = %s AND tag = %s AND id > %s ORDER BY id",
            [job_id, tag, after],
        )
        rows = cursor.fetchall()
    if not rows:
        return {"step": [], "wall": [], "value": [], "total": 0, "last_id": after}
    table = np.array(rows, dtype=np.float64)
    keep = keep_extremes(table[:, 3], max_points)
    kept = table[keep]
    return {
        "step": kept[:, 1].astype(np.int64).tolist(),
        "wall": np.round(kept[:, 2], 3).tolist(),
        "value": kept[:, 3].tolist(),
        "total": len(rows),
        "last_id": int(table[-1, 0]),
    }


def read_scalars(
    job_id: int, tags: list[str] | None = None, after: int = 0, max_points: int = MAX_POINTS
) -> dict[str, Any]:
    """{"series": {tag: {...}}, "last_id": n}: the points after `after`, per tag."""
    wanted = tags or tags_of(job_id)
    series = {tag: read_series(job_id, tag, after, max_points) for tag in wanted}
    last = max([after, *(s["last_id"] for s in series.values())])
    return {"series": series, "last_id": last}


def csv_rows(job_id: int) -> Any:
    """Every point of every series, for the CSV download (never downsampled)."""
    yield "tag,step,wall_time,value\n"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT tag, step, wall_time, value FROM {_TABLE} WHERE job_id = %s ORDER BY tag, id",
            [job_id],
        )
        while batch := cursor.fetchmany(5000):
            yield "".join(f"{t},{s},{w:.3f},{v!r}\n" for t, s, w, v in batch)
