"""In a browser: a detection deployment's try-it page draws the model's boxes on the image, and
the confidence slider and a per-class threshold decide which boxes stay.

The package is built here from a network that answers two fixed anchors for any image, as a
detector's graph does (boxes [N, A, 4] in input pixels, scores [N, C, A]): a dog at 0.9 and a
cat at 0.3. (test_deploy_trained_detector_browser.py deploys a PicoDet.)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import framework
from accounts.models import Membership, User, Workspace
from deploy.models import Deployment, ModelExport
from deploy.services import serving, traffic
from framework.inference.package import PackageMeta, Preprocessing, write_package
from tests.platform_tests.datastore_tests.seeding import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# static/js/boxes.js's palette: a box has its class's colour.
CAT, DOG = (230, 25, 75), (60, 180, 75)  # #e6194b, #3cb44b


class FixedBoxes(framework.nn.Layer):
    def __init__(self, side: int) -> None:
        super().__init__()
        boxes = np.array([[0.25, 0.25, 0.75, 0.75], [0.05, 0.05, 0.95, 0.95]], np.float32) * side
        scores = np.array([[0.0, 0.3], [0.9, 0.0]], np.float32)  # [cat, dog] x anchors
        self.register_buffer("boxes", framework.to_tensor(boxes))
        self.register_buffer("scores", framework.to_tensor(scores))

    def forward(self, image):
        zero = (image.mean(axis=[1, 2, 3]) * 0.0).reshape([-1, 1, 1])
        return zero + self.boxes, zero + self.scores


@pytest.fixture
def deployment(settings, tmp_path) -> tuple[User, Deployment]:
    settings.MEDIA_ROOT = tmp_path / "media"
    serving.clear_cache()
    traffic.recorder.reset()
    user = User.objects.create_user(username="dana", password="a long enough passphrase")
    workspace = Workspace.objects.create(name="Dana's lab", slug="danas-lab")
    workspace.add_member(user, Membership.Role.OWNER)
    meta = PackageMeta(
        name="pets v1",
        task="detection",
        class_names=["cat", "dog"],
        preprocessing=Preprocessing.rgb(32),
        thresholds={"score": None, "per_class": {}},
    )
    framework.jit.save(FixedBoxes(32), str(tmp_path / "model"), input_spec=[meta.input_spec()])
    (tmp_path / "media" / "exports").mkdir(parents=True)
    package = write_package(tmp_path / "model", meta, tmp_path / "media" / "exports" / "pets.zip")
    export = ModelExport.objects.create(
        workspace=workspace,
        name="pets",
        version=1,
        format=ModelExport.Format.PACKAGE,
        status=ModelExport.Status.SUCCEEDED,
        file="exports/pets.zip",
        size_bytes=Path(package).stat().st_size,
        meta=meta.to_json(),
    )
    served = Deployment.objects.create(workspace=workspace, name="pets", export=export)
    return user, served


def canvas_pixel(page, x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y), given as fractions of the canvas."""
    return tuple(
        page.evaluate(
            """([fx, fy]) => {
                const canvas = document.getElementById("canvas");
                const x = Math.round(fx * (canvas.width - 1));
                const y = Math.round(fy * (canvas.height - 1));
                const pixel = canvas.getContext("2d").getImageData(x, y, 1, 1).data;
                return Array.from(pixel.slice(0, 3));
            }""",
            [x, y],
        )
    )


def test_boxes_are_drawn_and_the_thresholds_pick_which_stay(
    page, live_server, screenshot, deployment, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    user, served = deployment
    photo = tmp_path / "grey.png"
    Image.new("RGB", (200, 200), (40, 40, 40)).save(photo)
    sign_in(page, user, live_server.url)
    page.goto(f"/deployments/{served.pk}/")
    page.set_input_files("#file", str(photo))
    page.wait_for_function("() => document.body.dataset.boxesDrawn === '2'")
    answer = page.locator("#answer")
    expect(answer).to_have_text("2 of 2 boxes reach their class's threshold (model v1)")
    # Both boxes are stroked: the dog's left edge at 25% and the cat's at 5% of the width.
    assert canvas_pixel(page, 0.25, 0.5) == DOG
    assert canvas_pixel(page, 0.05, 0.5) == CAT
    expect(page.locator("#detected-boxes li .class-name")).to_have_text(["dog", "cat"])
    screenshot("two-boxes")

    page.locator("#threshold").fill("0.5")
    expect(answer).to_have_text("1 of 2 boxes reach their class's threshold (model v1)")
    assert canvas_pixel(page, 0.25, 0.5) == DOG
    assert canvas_pixel(page, 0.05, 0.5) == (40, 40, 40)  # the cat's box is gone
    expect(page.locator("#detected-boxes li")).to_have_count(1)

    expect(page.locator("#class-thresholds")).to_have_attribute("open", "")  # per class
    page.locator('#class-threshold-rows input[data-class-name="dog"]').fill("0.95")
    expect(answer).to_have_text("0 of 2 boxes reach their class's threshold (model v1)")
    page.locator('#class-threshold-rows input[data-class-name="cat"]').fill("0.2")
    expect(answer).to_have_text("1 of 2 boxes reach their class's threshold (model v1)")
    assert canvas_pixel(page, 0.05, 0.5) == CAT
    assert canvas_pixel(page, 0.25, 0.5) == (40, 40, 40)
    expect(page.locator('#class-threshold-rows input[data-class-name="cat"]')).to_have_value("0.2")
    page.click("#save-class-thresholds")
    expect(page.locator("#deploy-status")).to_contain_text("2 classes have their own threshold")
    served.refresh_from_db()
    assert served.class_thresholds == {"cat": 0.2, "dog": 0.95}
    screenshot("cat-only")
