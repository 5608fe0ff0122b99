"""Draw, move and resize a box on the canvas, copy boxes to the next image, reload."""

from __future__ import annotations

import re

import pytest

from datastore.models import Annotation, Dataset, Sample
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.seeding import import_now, sign_in, team

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def boxes_of(sample: Sample) -> list[tuple[str, float, float, float, float]]:
    rows = Annotation.objects.filter(sample=sample).order_by("id")
    return [(a.label_class.name, a.x, a.y, a.w, a.h) for a in rows.select_related("label_class")]


def to_screen(page, x: float, y: float) -> tuple[float, float]:
    """Page coordinates of an image pixel, from the canvas's current view."""
    box = page.locator("#canvas").bounding_box()
    view = page.evaluate("() => ({...window.labelingView})")
    return box["x"] + view["x"] + x * view["scale"], box["y"] + view["y"] + y * view["scale"]


def drag(page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*to_screen(page, *start))
    page.mouse.down()
    page.mouse.move(*to_screen(page, *end), steps=8)
    page.mouse.up()


def test_it_draws_moves_and_resizes_a_box(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Photos", task_type="detection")
    sample_images.photos(tmp_path / "src", names=("astronaut", "chelsea"))
    import_now(dataset, user, tmp_path / "src")
    dataset.ensure_classes(["person", "cat"])
    astronaut, chelsea = Sample.objects.order_by("original_name")
    sign_in(page, user, live_server.url)

    page.goto(f"/datasets/{dataset.pk}/label/?sample={astronaut.pk}")
    page.wait_for_function(f"() => document.body.dataset.imageReady === '{astronaut.pk}'")
    status = page.locator("#save-status")

    drag(page, (100, 100), (300, 250))  # draw
    expect(status).to_have_text("All changes saved")
    ((name, x, y, w, h),) = boxes_of(astronaut)
    assert name == "person"
    assert (x, y, w, h) == pytest.approx((100, 100, 200, 150), abs=2)

    drag(page, (200, 175), (240, 195))  # move from inside the box: +40, +20
    expect(status).to_have_text("All changes saved")
    assert boxes_of(astronaut)[0][1:] == pytest.approx((140, 120, 200, 150), abs=2)

    drag(page, (340, 270), (400, 300))  # resize by the bottom-right handle: +60, +30
    expect(status).to_have_text("All changes saved")
    assert boxes_of(astronaut)[0][1:] == pytest.approx((140, 120, 260, 180), abs=2)

    page.keyboard.press("2")  # the class of the next boxes: the selected one stays a person
    expect(
        page.locator(f'#classes button[data-class-id="{dataset.classes.get(name="cat").pk}"]')
    ).to_have_class(re.compile(r"\bon\b"))
    assert boxes_of(astronaut)[0][0] == "person"
    page.keyboard.press("a")  # apply it to the selected box
    expect(status).to_have_text("All changes saved")
    assert boxes_of(astronaut)[0][0] == "cat"
    screenshot("drawn")

    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => document.body.dataset.imageReady === '{chelsea.pk}'")
    page.keyboard.press("c")  # copy the previous image's boxes
    expect(status).to_have_text("All changes saved")
    assert [b[0] for b in boxes_of(chelsea)] == ["cat"]
    page.keyboard.press("Control+z")
    expect(status).to_have_text("All changes saved")
    assert boxes_of(chelsea) == []

    page.reload()
    page.wait_for_function(f"() => document.body.dataset.imageReady === '{chelsea.pk}'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => document.body.dataset.imageReady === '{astronaut.pk}'")
    expect(page.locator("#box-list li")).to_have_count(1)
    expect(page.locator("#box-list select")).to_have_value(str(dataset.classes.get(name="cat").pk))
    page.keyboard.press("+")
    page.keyboard.press("+")
    expect(page.locator("#zoom-text")).not_to_have_text("100%")
    screenshot("reloaded-zoomed")
    page.keyboard.press("f")
    screenshot("reloaded")
