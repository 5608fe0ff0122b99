"""Deploying the zoo's ready models: how long the export (with its checks) takes, and what one
page costs through a deployment's predict endpoint against the zoo's own try endpoint (the
same networks without a package) and, for PP-OCRv4, rapidocr-onnxruntime's RapidOCR.

    python benchmarks/ready_deploy.py [--models ppocr_v4 layout_cdla] [--repeats 5]

Runs on a throwaway SQLite database and media folder: a ready export through the real export
pipeline (`run_export`, as the worker runs it), its one-click deployment, then `--repeats`
predict requests through Django's test client with one rendered page each (the page the
export is checked on). Prints JSON: export seconds, the export's own latency check, and the
median (min) milliseconds per page of each path (taking turns), with `os.getloadavg()` before
and after.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dataset_import import django_sandbox  # noqa: E402 (sibling scripts, not a package)


def timed(runs: dict[str, Any], repeats: int) -> dict[str, dict[str, float]]:
    """Median (min) milliseconds of each of `runs`, taking turns (a shared machine's load
    then weighs on each alike), after one warm call each (models load once per process)."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for run in runs.values():
        run()
    for _ in range(repeats):
        for name, run in runs.items():
            started = time.perf_counter()
            run()
            times[name].append(1000.0 * (time.perf_counter() - started))
    return {
        name: {"median_ms": round(statistics.median(t), 1), "min_ms": round(min(t), 1)}
        for name, t in times.items()
    }


def bench(key: str, repeats: int) -> dict:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from rest_framework.test import APIClient

    from accounts.models import Membership, User, Workspace
    from deploy.exporting.pipeline import run_export
    from deploy.exporting.ready import rendered_pages
    from deploy.services.ready_exports import request_ready_export
    from modelzoo.services.ready import get_ready_model

    user = User.objects.create_user(username=f"bench-{key}", password="bench passphrase 1")
    workspace = Workspace.objects.create(name=f"Bench {key}", slug=f"bench-{key}".replace("_", "-"))
    workspace.add_member(user, Membership.Role.OWNER)
    ready = get_ready_model(key)
    started = time.perf_counter()
    with mock.patch("deploy.services.ready_exports.enqueue"):
        export, _ = request_ready_export(workspace, ready, "package", user, deploy_as=key)
    assert export.claim(worker="bench@localhost", device="cpu")
    run_export(export, "cpu")
    export.refresh_from_db()
    export_seconds = time.perf_counter() - started
    assert export.status == export.Status.SUCCEEDED, export.error
    deployment = export.deployments.get()

    buffer = io.BytesIO()
    rendered_pages()[0].save(buffer, "PNG")
    page = buffer.getvalue()
    client = APIClient(SERVER_NAME="localhost")  # an allowed host of the default settings
    client.force_authenticate(user)

    def post(url: str) -> None:
        upload = SimpleUploadedFile("page.png", page, content_type="image/png")
        response = client.post(url, {"image": upload}, format="multipart")
        assert response.status_code == 200, response.content[:200]

    found = {
        "model": key,
        "export_seconds": round(export_seconds, 1),
        "export_latency_batch1_ms": export.latency_batch1_ms,
        "parity_passed": export.parity_passed,
    }
    runs = {
        "deployment_predict": lambda: post(f"/api/deployments/{deployment.pk}/predict"),
        "zoo_try": lambda: post(f"/api/modelzoo/ready-models/{key}/try/"),
    }
    if ready.task == "ocr":
        try:
            import numpy as np
            from rapidocr_onnxruntime import RapidOCR
        except ImportError:
            found["rapidocr"] = None
        else:
            engine = RapidOCR()
            bgr = np.asarray(rendered_pages()[0])[:, :, ::-1].copy()
            runs["rapidocr"] = lambda: engine(bgr)
    found |= timed(runs, repeats)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=["ppocr_v4", "layout_cdla"])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="sampan-bench-ready-") as folder:
        django_sandbox(Path(folder))
        results = [bench(key, args.repeats) for key in args.models]
    print(
        json.dumps(
            {
                "benchmark": "ready_deploy",
                "repeats": args.repeats,
                "cpus": os.cpu_count(),
                "loadavg_before": [round(v, 2) for v in load_before],
                "loadavg_after": [round(v, 2) for v in os.getloadavg()],
                "results": results,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
