"""A detection model to export and serve: a PicoDet-S at 128×128 for the shapes classes, saved
as a finished detection job's weights with the provenance `workers.runtime.run` records (task,
thresholds per class, input size), and helpers to compare answers with the framework model's
own `postprocess`.

Its weights are made here rather than trained (seconds instead of minutes): batch-norm
statistics and class biases are drawn so that many anchors score over the thresholds, and
exports have plenty of boxes to get right. Not a test module.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from deploy.models import Deployment, ModelExport
from deploy.services import recent, serving, traffic
from modelzoo.catalog import get_architecture
from modelzoo.models import Weights
from modelzoo.services.weights import load_network, save_weights
from tests.platform_tests.deploy_tests.base import export_now, png_bytes
from tests.platform_tests.training_tests.base import TrainingTestCase, make_job
from tests.platform_tests.training_tests.detection_data import CLASSES, shapes_version
from training.models import TrainingJob

INPUT_SIZE = 128
DEFAULT_THRESHOLD = 0.4
CLASS_THRESHOLDS = {"circle": 0.4, "square": 0.5, "triangle": 0.35}


def planted_detector() -> Any:
    """A PicoDet-S for the three shapes classes whose scores spread over 0..1."""
    from framework.vision.models import picodet_s

    model = picodet_s(num_classes=len(CLASSES))
    rng = np.random.default_rng(7)
    for name, tensor in model.state_dict().items():
        if name.endswith("_mean"):
            tensor.set_value(rng.normal(0, 0.1, tensor.shape).astype(np.float32))
        elif name.endswith("_variance"):
            tensor.set_value(rng.uniform(0.5, 1.5, tensor.shape).astype(np.float32))
    for conv in model.head.cls_out:
        conv.bias.set_value(rng.normal(-0.5, 1.0, conv.bias.shape).astype(np.float32))
    model.eval()
    return model


def finished_detection_job(workspace: Any, user: Any, version: Any) -> TrainingJob:
    """A succeeded PicoDet-S job of `version` whose output is `planted_detector()`."""
    job, _ = make_job(
        workspace=workspace,
        user=user,
        version=version,
        architecture="picodet_s",
        overrides={"epochs": 1, "batch_size": 4, "input_size": INPUT_SIZE},
    )
    provenance = {
        "job": job.pk,
        "dataset": job.dataset_label,
        "task": "detection",
        "default_threshold": DEFAULT_THRESHOLD,
        "class_thresholds": [CLASS_THRESHOLDS[name] for name in job.class_names],
    }
    weights = save_weights(
        workspace=workspace,
        user=user,
        arch=get_architecture("picodet_s"),
        network=planted_detector(),
        num_classes=len(job.class_names),
        name=f"{job.name} (job #{job.pk})",
        source=Weights.Source.JOB,
        original_format=Weights.Format.FRAMEWORK,
        class_names=job.class_names,
        input_size=INPUT_SIZE,
        report=provenance,
    )
    TrainingJob.objects.filter(pk=job.pk).update(
        status=TrainingJob.Status.SUCCEEDED, output_weights=weights
    )
    job.refresh_from_db()
    return job


def shapes_pngs(version: Any, count: int) -> list[bytes]:
    """`count` of the version's stored images, as PNG bytes."""
    from django.core.files.storage import default_storage
    from PIL import Image

    from datastore.models import VersionItem

    items = VersionItem.objects.filter(version=version).order_by("id")[:count]
    found = []
    for item in items.select_related("sample"):
        with default_storage.open(item.sample.file.name, "rb") as stream:
            found.append(png_bytes(Image.open(stream).convert("RGB")))
    return found


def expected_boxes(job: TrainingJob, image: Any, thresholds: dict[str, float]) -> list[dict]:
    """The trained network's own answer for one PIL image: `PicoDet.postprocess` on the
    letterboxed input, each class cut at its threshold, boxes mapped back to the image."""
    import framework
    from framework.vision.transforms.detection import Letterbox, boxes_to_original, to_batch

    network = load_network(job.output_weights)
    network.eval()
    sample = {
        "image": np.asarray(image.convert("RGB")),
        "boxes": np.zeros((0, 4), np.float32),
        "labels": np.zeros(0, np.int64),
    }
    boxed = Letterbox(INPUT_SIZE)(sample)
    batch, _ = to_batch([boxed], network.mean, network.std)
    with framework.no_grad():
        (found,) = network.postprocess(network(framework.to_tensor(batch)), score_threshold=0.05)
    names = job.class_names
    corners = boxes_to_original(found["boxes"], boxed)
    answer = []
    for box, score, label in zip(corners, found["scores"], found["labels"], strict=True):
        if score >= thresholds[names[int(label)]]:
            answer.append({"box": box, "name": names[int(label)], "score": float(score)})
    return answer


def assert_same_boxes(got: list[dict], want: list[dict], box_atol: float, score_atol: float):
    """The same boxes, in the same order: class names equal, corners and scores close."""
    assert [b["name"] for b in got] == [b["name"] for b in want], (got, want)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_allclose(a["box"], b["box"], atol=box_atol)
        assert abs(a["score"] - b["score"]) <= score_atol


class DetectionDeployTestCase(TrainingTestCase):
    """`self.shapes`: a shapes version; `self.detection_job`: its finished PicoDet job;
    `self.detection_export`: its package; `self.detection_deployment`: serving it."""

    shapes: Any
    detection_job: TrainingJob
    detection_export: ModelExport
    detection_deployment: Deployment

    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.shapes = shapes_version(cls.workspace, cls.alice, images=12)
        cls.detection_job = finished_detection_job(cls.workspace, cls.alice, cls.shapes)
        cls.detection_export = export_now(cls.detection_job, "package", cls.alice)
        cls.detection_deployment = Deployment.objects.create(
            workspace=cls.workspace,
            name="shapes",
            export=cls.detection_export,
            created_by=cls.alice,
        )

    def setUp(self) -> None:
        super().setUp()
        serving.clear_cache()
        traffic.recorder.reset()
        recent.clear()
