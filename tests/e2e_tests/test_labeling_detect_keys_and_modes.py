"""Box labeling as a new user trips over it: a class key chooses the class of the next box and
never relabels the box just drawn (A applies it to a selected box); "No objects" shows on the
image; focus mode gives the canvas the screen at 1280x720; a viewer sees a read-only page."""

from __future__ import annotations

import pytest

from accounts.models import Membership, User
from datastore.models import Annotation, Dataset, Sample
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.seeding import import_now, sign_in, team

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def classes_of(sample: Sample) -> list[str]:
    rows = Annotation.objects.filter(sample=sample).order_by("id").select_related("label_class")
    return [a.label_class.name for a in rows]


def draw(page, x0: float, y0: float, x1: float, y1: float) -> None:
    box = page.locator("#canvas").bounding_box()
    view = page.evaluate("() => ({...window.labelingView})")

    def at(x: float, y: float) -> tuple[float, float]:
        return box["x"] + view["x"] + x * view["scale"], box["y"] + view["y"] + y * view["scale"]

    page.mouse.move(*at(x0, y0))
    page.mouse.down()
    page.mouse.move(*at(x1, y1), steps=6)
    page.mouse.up()


@pytest.fixture
def photos(tmp_path, settings) -> tuple[User, Dataset, Sample, Sample]:
    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Photos", task_type="detection")
    sample_images.photos(tmp_path / "src", names=("astronaut", "chelsea"))
    import_now(dataset, user, tmp_path / "src")
    dataset.ensure_classes(["person", "cat"])
    astronaut, chelsea = Sample.objects.order_by("original_name")
    return user, dataset, astronaut, chelsea


def test_a_class_key_chooses_the_next_boxes_class_only(page, live_server, photos) -> None:
    from playwright.sync_api import expect

    user, dataset, astronaut, _ = photos
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/label/?sample={astronaut.pk}")
    page.wait_for_function(f"() => document.body.dataset.imageReady === '{astronaut.pk}'")
    status = page.locator("#save-status")

    draw(page, 50, 50, 200, 200)
    expect(status).to_have_text("All changes saved")
    page.keyboard.press("2")  # meant for the next box, not the one just drawn
    draw(page, 250, 250, 400, 400)
    expect(status).to_have_text("All changes saved")
    assert classes_of(astronaut) == ["person", "cat"]
    expect(page.locator("#box-list li.selected")).to_have_count(0)

    page.locator("#box-list li").first.hover()  # select the first box
    page.locator("#apply-class").click()
    expect(status).to_have_text("All changes saved")
    assert classes_of(astronaut) == ["cat", "cat"]


def test_no_objects_is_marked_on_the_image(page, live_server, screenshot, photos) -> None:
    from playwright.sync_api import expect

    user, dataset, astronaut, _ = photos
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/label/?sample={astronaut.pk}")
    page.wait_for_function(f"() => document.body.dataset.imageReady === '{astronaut.pk}'")
    assert page.evaluate("() => document.body.dataset.noObjectsMark") == ""
    page.keyboard.press("e")
    expect(page.locator("#save-status")).to_have_text("All changes saved")
    page.wait_for_function(f"() => document.body.dataset.noObjectsMark === '{astronaut.pk}'")
    assert Sample.objects.get(pk=astronaut.pk).labeled
    # The mark's teal badge is on the canvas, at the image's top-left corner.
    pixel = page.evaluate(
        """() => {
            const canvas = document.getElementById("canvas");
            const ratio = window.devicePixelRatio || 1;
            const view = window.labelingView;
            const x = Math.round((Math.max(view.x + 8, 8) + 4) * ratio);
            const y = Math.round((Math.max(view.y + 8, 8) + 4) * ratio);
            return Array.from(canvas.getContext("2d").getImageData(x, y, 1, 1).data.slice(0, 3));
        }"""
    )
    assert pixel == pytest.approx([15, 118, 110], abs=30), pixel
    screenshot("no-objects")


def test_focus_mode_gives_the_canvas_the_screen(page, live_server, screenshot, photos) -> None:
    from playwright.sync_api import expect

    user, dataset, astronaut, _ = photos
    page.set_viewport_size({"width": 1280, "height": 720})
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/label/?sample={astronaut.pk}")
    page.wait_for_function(f"() => document.body.dataset.imageReady === '{astronaut.pk}'")
    page.keyboard.press("m")
    expect(page.locator("#focus")).to_have_attribute("aria-pressed", "true")
    box = page.locator("#canvas").bounding_box()
    assert box["y"] < 80, box  # at the top of the screen, not 330 px down
    assert box["y"] + box["height"] <= 720, box  # all of it above the fold
    assert box["height"] > 600, box
    screenshot("focus")
    page.locator("#focus").click()
    expect(page.locator("#focus")).to_have_attribute("aria-pressed", "false")


def test_a_viewer_sees_a_read_only_page(page, live_server, screenshot, photos) -> None:
    from playwright.sync_api import expect

    owner, dataset, astronaut, _ = photos
    viewer = User.objects.create_user(username="vera", password="a long enough passphrase")
    dataset.workspace.add_member(viewer, Membership.Role.VIEWER)
    sign_in(page, viewer, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/label/?sample={astronaut.pk}")
    page.wait_for_function(f"() => document.body.dataset.imageReady === '{astronaut.pk}'")
    expect(page.locator("#read-only")).to_contain_text("viewer")
    expect(page.locator("#save-status")).to_have_text("Read-only")
    expect(page.locator("#no-objects")).to_be_hidden()
    expect(page.locator("#apply-class")).to_be_hidden()
    draw(page, 50, 50, 200, 200)  # nothing happens, and nothing is saved
    page.keyboard.press("e")
    assert classes_of(astronaut) == []
    assert not Sample.objects.get(pk=astronaut.pk).labeled
    screenshot("viewer")
