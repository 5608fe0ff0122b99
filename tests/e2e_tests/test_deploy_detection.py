"""In a browser: a detection deployment's try-it page draws the model's boxes on the image, and
the confidence slider and a per-class threshold decide which boxes stay.

The model zoo has no detection architecture to train yet, so the package is built here from a
network that answers two fixed boxes for any image: a dog at 0.9 and a cat at 0.3.
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

ACCEPTED = (15, 118, 110)  # the page's box colour, #0f766e


class FixedBoxes(framework.nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        rows = [[0.25, 0.25, 0.75, 0.75, 0.9, 1.0], [0.05, 0.05, 0.95, 0.95, 0.3, 0.0]]
        self.register_buffer("rows", framework.to_tensor(np.array(rows, np.float32)))

    def forward(self, image):
        mean = image.mean(axis=[1, 2, 3]).reshape([-1, 1, 1])
        return (mean - mean) + self.rows  # [N, 2, 6]: x1 y1 x2 y2 score class, in 0..1


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
    framework.jit.save(FixedBoxes(), str(tmp_path / "model"), input_spec=[meta.input_spec()])
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
    page.wait_for_function("() => document.body.dataset.chartReady === 'true'")
    answer = page.locator("#answer")
    expect(answer).to_have_text("2 of 2 boxes above their thresholds")
    # Both boxes are stroked: the dog's left edge at 25% and the cat's at 5% of the width.
    assert canvas_pixel(page, 0.25, 0.5) == ACCEPTED
    assert canvas_pixel(page, 0.05, 0.5) == ACCEPTED
    screenshot("two-boxes")

    page.locator("#threshold").fill("0.5")
    expect(answer).to_have_text("1 of 2 boxes above their thresholds")
    assert canvas_pixel(page, 0.25, 0.5) == ACCEPTED
    assert canvas_pixel(page, 0.05, 0.5) == (40, 40, 40)  # the cat's box is gone
    expect(page.locator("#chart-classes .bars .point")).to_have_count(1)

    page.click("#class-thresholds summary")
    page.locator('#class-threshold-rows input[data-class-name="dog"]').fill("0.95")
    expect(answer).to_have_text("0 of 2 boxes above their thresholds")
    page.locator('#class-threshold-rows input[data-class-name="cat"]').fill("0.2")
    expect(answer).to_have_text("1 of 2 boxes above their thresholds")
    assert canvas_pixel(page, 0.05, 0.5) == ACCEPTED
    assert canvas_pixel(page, 0.25, 0.5) == (40, 40, 40)
    page.click("#save-class-thresholds")
    expect(page.locator("#deploy-status")).to_contain_text("2 classes have their own threshold")
    served.refresh_from_db()
    assert served.class_thresholds == {"cat": 0.2, "dog": 0.95}
    screenshot("cat-only")
