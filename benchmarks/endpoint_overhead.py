"""What the predict endpoint adds to the bare predictor: ResNet-18 at 224x224, batch 1.

    python benchmarks/endpoint_overhead.py [--rounds 30] [--threads 2]

Builds a ResNet-18 inference package (10 classes; the weights do not change the cost),
deploys it, and serves the platform with gunicorn (one process, one thread) on a throwaway
SQLite database. Each round then times, one after the other so they never overlap:

- the bare predictor: `predictor.run` on an already preprocessed [1, 3, 224, 224] batch, in
  this process, with the same thread count as the server's predictor;
- one HTTP request to `POST /api/deployments/<id>/predict` with a 224x224 JPEG (multipart,
  keep-alive connection, API token), as a client sees it. The response's Server-Timing header
  says how long the server's own predictor run took within that request.

The overhead is the client's time minus the predictor run inside the same request: HTTP,
Django and DRF, token and deployment lookups, JPEG decoding, preprocessing, answer shaping and
JSON. Three readings are printed: that paired difference, the difference of the medians
(endpoint minus bare predictor), and the CPU the server process spent per request beyond the
bare predictor's own CPU time (one BLAS thread on both sides by default, so CPU time is one
thread's work). On a shared machine the wall-clock readings also count waits for a free core
(an empty request's round trip is timed each round to show them); the CPU reading does not.
Target: overhead <= 10 ms.
"""

from __future__ import annotations

import argparse
import http.client
import io
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from annotation_save import start_server  # noqa: E402 (sibling scripts, not a package)
from dataset_import import REPO, django_sandbox  # noqa: E402
from predict_endpoint import process_tree_cpu_seconds  # noqa: E402

SIZE = 224


def deployed_resnet18(folder: Path) -> tuple[int, str, Path]:
    """(deployment id, API token, unpacked package folder)."""
    django_sandbox(folder)
    from django.core.files.storage import default_storage

    import framework
    from accounts.models import ApiToken, Membership, User, Workspace
    from deploy.models import Deployment, ModelExport
    from framework.inference.package import (
        PackageMeta,
        Preprocessing,
        unpack_package,
        write_package,
    )
    from framework.vision.models import resnet18

    user = User.objects.create_user("bench", password="unused-password-123")
    workspace = Workspace.objects.create(name="Bench", slug="bench")
    workspace.add_member(user, Membership.Role.OWNER)
    export = ModelExport.objects.create(
        workspace=workspace, name="ResNet-18", version=1, format="package", status="succeeded"
    )
    meta = PackageMeta(
        name="ResNet-18 v1",
        task="classification",
        class_names=[f"class {i}" for i in range(10)],
        preprocessing=Preprocessing.rgb(SIZE),
    )
    framework.seed(0)
    network = resnet18(num_classes=10)
    network.eval()
    scratch = folder / "trace"
    framework.jit.save(network, str(scratch / "model"), input_spec=[meta.input_spec()])
    stored = f"{export.folder}/resnet18-v1-package.zip"
    write_package(scratch / "model", meta, default_storage.path(stored))
    package = unpack_package(
        default_storage.path(stored), default_storage.path(f"{export.folder}/package")
    )
    export.file, export.meta = stored, meta.to_json()
    export.save()
    deployment = Deployment.objects.create(workspace=workspace, name="resnet", export=export)
    _, token = ApiToken.issue(workspace=workspace, user=user, name="bench")
    return deployment.pk, token, package


def photo_jpeg() -> bytes:
    """A real photo at 224x224 (scikit-image's astronaut when installed, else a gradient)."""
    from PIL import Image

    try:
        from skimage import data

        image = Image.fromarray(data.astronaut())
    except ImportError:
        ramp = np.linspace(0, 255, SIZE, dtype=np.uint8)
        image = Image.fromarray(np.stack([np.tile(ramp, (SIZE, 1))] * 3, axis=-1))
    buffer = io.BytesIO()
    image.resize((SIZE, SIZE)).save(buffer, format="JPEG", quality=90)
    return buffer.getvalue()


def multipart(image: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="p.jpg"\r\n'
        "Content-Type: image/jpeg\r\n\r\n"
    ).encode()
    return (
        head + image + f"\r\n--{boundary}--\r\n".encode(),
        f"multipart/form-data; boundary={boundary}",
    )


def server_timing(header: str) -> dict[str, float]:
    parts = (item.strip().split(";dur=") for item in header.split(","))
    return {name: float(ms) for name, ms in parts}


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median": round(statistics.median(ordered), 2),
        "p10": round(ordered[len(ordered) // 10], 2),
        "p90": round(ordered[(9 * len(ordered)) // 10], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1, help="predictor threads, both sides")
    parser.add_argument("--port", type=int, default=8792)
    args = parser.parse_args()
    threads = str(args.threads)
    os.environ.update(
        OMP_NUM_THREADS=threads,
        OPENBLAS_NUM_THREADS=threads,
        MKL_NUM_THREADS=threads,
        DEPLOY_PREDICTOR_THREADS=threads,  # the server's predictor (settings read it)
    )
    from threadpoolctl import threadpool_limits

    threadpool_limits(args.threads)  # this process imported NumPy before the variables were set

    folder = Path(tempfile.mkdtemp(prefix="sampan-overhead-bench-"))
    try:
        deployment, token, package = deployed_resnet18(folder)
        server = start_server(folder, args.port, 1, 1)
        try:
            rounds = measure(args, deployment, token, package, server.pid)
        finally:
            server.terminate()
            server.wait(timeout=30)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(report(args, rounds), indent=2))


def measure(args: argparse.Namespace, deployment: int, token: str, package: Path, pid: int) -> dict:
    from framework.inference.packaged_model import PackagedModel

    model = PackagedModel.load(package, threads=args.threads)
    image = photo_jpeg()
    batch = model.batch(model.open_images([image]))
    body, content_type = multipart(image)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": content_type}
    path = f"/api/deployments/{deployment}/predict"
    connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=120)
    rounds: dict[str, list[float]] = {}
    server_cpu = bare_cpu = 0.0
    for round_ in range(args.warmup + args.rounds):
        measured = round_ >= args.warmup
        began, began_cpu = time.perf_counter(), time.process_time()
        model.run(batch)
        bare_ms = 1000 * (time.perf_counter() - began)
        bare_cpu += (time.process_time() - began_cpu) * measured
        cpu_before = process_tree_cpu_seconds(pid)
        began = time.perf_counter()
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        answer = response.read()
        client_ms = 1000 * (time.perf_counter() - began)
        server_cpu += (process_tree_cpu_seconds(pid) - cpu_before) * measured
        if response.status != 200:
            raise RuntimeError(f"{response.status}: {answer[:300]!r}")
        timing = server_timing(response.getheader("Server-Timing"))
        began = time.perf_counter()
        connection.request("GET", "/healthz/live")
        connection.getresponse().read()
        empty_ms = 1000 * (time.perf_counter() - began)
        if measured:
            each = {
                "bare_predictor": bare_ms,
                "endpoint_client": client_ms,
                "overhead": client_ms - timing["run"],
                "empty_request": empty_ms,
                **{f"server_{name}": ms for name, ms in timing.items()},
            }
            for name, ms in each.items():
                rounds.setdefault(name, []).append(ms)
    connection.close()
    rounds["cpu"] = [1000 * server_cpu / args.rounds, 1000 * bare_cpu / args.rounds]
    return rounds


def report(args: argparse.Namespace, rounds: dict[str, list[float]]) -> dict:
    server_cpu_ms, bare_cpu_ms = rounds.pop("cpu")
    medians = {name: round(statistics.median(v), 2) for name, v in rounds.items()}
    cpu_overhead = round(server_cpu_ms - bare_cpu_ms, 2)
    return {
        "benchmark": "endpoint_overhead",
        "model": "ResNet-18, 3x224x224, batch 1, inference package",
        "request": "multipart 224x224 JPEG, keep-alive, API token",
        "server": "gunicorn gthread, 1 worker x 1 thread",
        "blas_threads": args.threads,
        "rounds": args.rounds,
        "median_ms": medians,
        "overhead_ms": summary(rounds["overhead"]),
        "overhead_by_medians_ms": round(medians["endpoint_client"] - medians["bare_predictor"], 2),
        # Wall time on a shared machine includes waits for a core (see empty_request); the
        # CPU the server spent per request beyond the predictor's own is the work it adds.
        "server_cpu_ms_per_request": round(server_cpu_ms, 2),
        "bare_predictor_cpu_ms": round(bare_cpu_ms, 2),
        "overhead_cpu_ms": cpu_overhead,
        "load_average_1m": round(os.getloadavg()[0], 2),
        "target_overhead_ms_at_most": 10,
        "meets_target_wall": medians["overhead"] <= 10,
        "meets_target_cpu": cpu_overhead <= 10,
    }


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    main()
