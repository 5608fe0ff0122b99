"""Label three images with the keyboard, undo and redo, reload: everything persisted."""

from __future__ import annotations

import pytest

from datastore.models import Dataset, Sample
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.seeding import import_now, sign_in, team

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def labels() -> list[list[str]]:
    return [
        sorted(s.annotations.values_list("label_class__name", flat=True))
        for s in Sample.objects.order_by("id")
    ]


def test_it_labels_three_images_with_the_keyboard(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Pets", task_type="classification")
    sample_images.photos(tmp_path / "src", names=("chelsea", "coffee", "astronaut", "rocket"))
    import_now(dataset, user, tmp_path / "src")
    dataset.ensure_classes(["cat", "cup", "person"])
    sign_in(page, user, live_server.url)

    page.goto(f"/datasets/{dataset.pk}/label/")
    page.wait_for_function("() => document.body.dataset.ready === 'true'")
    expect(page.locator("#sample-name")).to_contain_text("astronaut.jpg")
    status = page.locator("#save-status")
    # Samples are in name order: astronaut, chelsea, coffee, rocket.
    for key in ("3", "1", "2"):  # choosing a class moves on to the next image
        page.keyboard.press(key)
    expect(page.locator("#sample-name")).to_contain_text("rocket.jpg")
    expect(status).to_have_text("All changes saved")
    expect(page.locator("#progress-text")).to_contain_text("3 of 4 labeled (75%)")
    screenshot("labeled")
    assert labels() == [["person"], ["cat"], ["cup"], []]

    page.keyboard.press("ArrowLeft")  # back to coffee
    expect(page.locator("#sample-name")).to_contain_text("coffee.jpg")
    page.keyboard.press("Control+z")  # undo the last assignment: coffee unlabeled
    expect(status).to_have_text("All changes saved")
    assert labels()[2] == []
    page.keyboard.press("Control+y")
    expect(status).to_have_text("All changes saved")
    assert labels()[2] == ["cup"]

    page.reload()
    page.wait_for_function("() => document.body.dataset.ready === 'true'")
    expect(page.locator("#sample-name")).to_contain_text("coffee.jpg")  # the URL kept the place
    expect(page.locator(".class-button.on")).to_have_text("2cup")
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".class-button.on")).to_have_text("1cat")
    expect(page.locator("#progress-text")).to_contain_text("3 of 4 labeled")
    screenshot("reloaded")


def test_it_labels_a_multi_selection_at_once(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Tags", task_type="multi_label")
    sample_images.class_folders(tmp_path / "src", labels=(1, 7), per_class=3)
    import_now(dataset, user, tmp_path / "src", fmt="flat")
    dataset.ensure_classes(["blurry", "thin"])
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/label/")
    page.wait_for_function("() => document.body.dataset.ready === 'true'")
    strip = page.locator("#strip li")
    expect(strip).to_have_count(6)
    strip.nth(1).click(modifiers=["Control"])
    strip.nth(4).click(modifiers=["Shift"])
    expect(page.locator("#selection-note")).to_contain_text("4 images selected")
    page.keyboard.press("2")
    expect(page.locator("#save-status")).to_have_text("All changes saved")
    screenshot("bulk")
    assert labels() == [[], ["thin"], ["thin"], ["thin"], ["thin"], []]
