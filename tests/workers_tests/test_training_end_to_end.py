"""End to end against a real redis-server and a real Celery worker process: a labeled digits
version trains through the API to at least 95% validation accuracy, and the report's
confusion matrix matches what the saved model predicts."""

from __future__ import annotations

import numpy as np
import pytest
from rest_framework.test import APIClient
from safetensors.numpy import load

import framework
from accounts.models import Membership, User, Workspace
from modelzoo.catalog import get_architecture
from tests.platform_tests.training_tests.stack import finished, wait_until
from training.demo.digits import digits_version
from training.services.version_data import examples
from workers.runtime.data import ImageDataset, load_split

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_digits_train_to_95_percent_through_the_api(celery_worker, tmp_path, settings) -> None:
    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"  # the worker's storage
    user = User.objects.create_user(username="ada", password="a long enough passphrase")
    workspace = Workspace.objects.create(name="Ada's lab", slug="adas-lab")
    workspace.add_member(user, Membership.Role.OWNER)
    version = digits_version(workspace, user, per_class=120, val=0.25)
    client = APIClient()
    client.force_login(user)

    created = client.post(
        f"/api/workspaces/{workspace.slug}/jobs/",
        {
            "dataset_version": version.pk,
            "architecture": "mlp",
            "preset": "balanced",
            "hyperparameters": {"epochs": 12, "batch_size": 32, "augment_crop": False},
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    job_id = created.json()["id"]
    job = wait_until(lambda: finished(job_id), 300, "the job to finish", every=0.5)
    assert job.status == "succeeded", f"{job.error}\n{celery_worker.log()[-3000:]}"
    detail = client.get(f"/api/jobs/{job_id}/").json()
    assert detail["val_accuracy"] >= 0.95, detail
    assert detail["worker"] == celery_worker.hostname
    cluster = client.get("/api/cluster/").json()
    registered = {w["hostname"]: w for w in cluster["workers"]}[celery_worker.hostname]
    assert registered["online"] and registered["devices"][0]["kind"] in ("cpu", "gpu")

    report = client.get(f"/api/jobs/{job_id}/report/").json()
    weights = client.get(f"/api/weights/{detail['output_weights']}/download/")
    state = load(b"".join(weights.streaming_content))
    network = get_architecture("mlp").build(10)
    network.set_state_dict(state)
    network.eval()
    items = examples(version, "val")
    data = ImageDataset(items, load_split(version.pk, "val", items, 1, 28), 1, 28)
    with framework.no_grad():
        predicted = network(framework.to_tensor(data.batch(range(len(items))))).numpy().argmax(1)
    labels = np.array([item.label for item in items])
    assert [p["pred"] for p in report["predictions"]] == predicted.tolist()
    assert [p["sample"] for p in report["predictions"]] == [item.sample_id for item in items]
    confusion = np.bincount(labels * 10 + predicted, minlength=100).reshape(10, 10)
    assert report["confusion"] == confusion.tolist()
    assert report["accuracy"] == pytest.approx(detail["val_accuracy"])
    assert report["accuracy"] == pytest.approx((predicted == labels).mean())
