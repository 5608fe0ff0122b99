"""In a browser: a detection job's exported package, deployed, draws the boxes its predict
endpoint answers on the try-it page, one per class colour, and lists them; a per-class
threshold removes that class's boxes."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

from accounts.models import Membership, User, Workspace
from deploy.models import Deployment
from deploy.services import serving, traffic
from framework.inference.packaged_model import PackagedModel
from tests.platform_tests.datastore_tests.seeding import sign_in
from tests.platform_tests.deploy_tests.base import export_now
from tests.platform_tests.deploy_tests.detection_base import (
    finished_detection_job,
    shapes_pngs,
)
from tests.platform_tests.training_tests.detection_data import shapes_version

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def deployed(settings, tmp_path) -> tuple[User, Deployment, bytes]:
    settings.MEDIA_ROOT = tmp_path / "media"
    serving.clear_cache()
    traffic.recorder.reset()
    user = User.objects.create_user(username="dana", password="a long enough passphrase")
    workspace = Workspace.objects.create(name="Dana's lab", slug="danas-lab")
    workspace.add_member(user, Membership.Role.OWNER)
    version = shapes_version(workspace, user, images=8)
    job = finished_detection_job(workspace, user, version)
    export = export_now(job, "package", user)
    served = Deployment.objects.create(workspace=workspace, name="shapes", export=export)
    return user, served, shapes_pngs(version, 1)[0]


def test_the_try_it_page_draws_the_predicted_boxes(
    page, live_server, screenshot, deployed, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    user, served, png = deployed
    photo = tmp_path / "shapes.png"
    image = Image.open(io.BytesIO(png))
    image.save(photo)
    model = PackagedModel.load(served.export.file.path)
    (want,) = model.predict([image])
    counts = {n: sum(b["name"] == n for b in want["boxes"]) for n in model.meta.class_names}
    assert sum(counts.values()) >= 2, want

    sign_in(page, user, live_server.url)
    page.goto(f"/deployments/{served.pk}/")
    page.set_input_files("#file", str(photo))
    total = len(want["boxes"])
    page.wait_for_function(f"() => document.body.dataset.boxesDrawn === '{total}'")
    # The page asks for every box (threshold 0) and applies the thresholds itself.
    expect(page.locator("#answer")).to_have_text(
        re.compile(rf"^{total} of \d+ boxes reach their class's threshold \(model v1\)$")
    )
    names = page.locator("#detected-boxes li .class-name")
    expect(names).to_have_text([b["name"] for b in want["boxes"]])
    # The last box drawn lies on top: its top-left corner, in the canvas's pixels, has its
    # class's colour (its stroke, or its label's background when the box starts at the top).
    last = want["boxes"][-1]
    x1, y1 = last["box"][:2]
    colour = page.evaluate(
        """([x, y, width]) => {
            const canvas = document.getElementById("canvas");
            const scale = canvas.width / width;  // the left edge's stroke covers floor(x)
            const pixel = canvas.getContext("2d").getImageData(
                Math.floor(x * scale), Math.round(y * scale) + 3, 1, 1).data;
            return Array.from(pixel.slice(0, 3));
        }""",
        [x1, y1, image.width],
    )
    palette = {0: [230, 25, 75], 1: [60, 180, 75], 2: [67, 99, 216]}  # static/js/boxes.js
    assert colour == palette[last["index"]], want["boxes"]
    screenshot("shapes")

    busiest = max(counts, key=counts.get)
    page.locator(f'#class-threshold-rows input[data-class-name="{busiest}"]').fill("1")
    left = total - counts[busiest]
    page.wait_for_function(f"() => document.body.dataset.boxesDrawn === '{left}'")
    expect(page.locator(f'#detected-boxes li[data-class="{busiest}"]')).to_have_count(0)
    screenshot("without-" + busiest)
