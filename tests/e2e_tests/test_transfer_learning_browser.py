"""In a browser, against a real worker: a photo dataset's job form proposes the pretrained
MobileNetV2 with the fine-tuning recipe; the job fine-tunes it (backbone frozen first), its
report reads as a report; and the zoo's try panel names a cat on a photo of one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from datastore.models import Dataset
from datastore.services.versions import freeze_version
from tests.framework_tests.vision_tests.shipped_store import photo, process_store
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.seeding import import_now, sign_in, team
from training.models import JobLogLine, TrainingJob

pytestmark = [pytest.mark.e2e, pytest.mark.integration, pytest.mark.django_db(transaction=True)]
CAT_NAMES = ("tabby", "tiger cat", "Persian cat", "Siamese cat", "Egyptian cat")


@pytest.fixture
def shipped_home(monkeypatch: pytest.MonkeyPatch) -> str:
    """The shipped weights for this process and, set before it starts, the worker's."""
    home = process_store()
    monkeypatch.setenv("FRAMEWORK_HOME", home)
    return home


def photo_folder(root: Path) -> Path:
    """Two classes of real colour photos, each image a few times, turned a little."""
    folder = root / "photos"
    for label, names in (("cat", ("chelsea", "astronaut")), ("cup", ("coffee", "rocket"))):
        for turn in range(4):
            for name in names:
                image = sample_images.photo(name).rotate(turn * 4)
                sample_images.save(image, folder / label / f"{name}-{turn}.jpg")
    return folder


def test_a_photo_dataset_fine_tunes_the_proposed_pretrained_model(
    page, live_server, screenshot, shipped_home, celery_worker, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    assert os.environ["FRAMEWORK_HOME"] == shipped_home
    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"  # the worker's storage
    user, workspace = team()
    dataset = Dataset.objects.create(
        workspace=workspace,
        name="Cats and cups",
        task_type=Dataset.TaskType.CLASSIFICATION,
        created_by=user,
    )
    import_now(dataset, user, photo_folder(tmp_path))
    ratios = {"train": 0.5, "val": 0.5, "test": 0.0}
    freeze_version(dataset, user=user, method="stratified", ratios=ratios)
    sign_in(page, user, live_server.url)

    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/workspaces/{workspace.slug}/jobs/new/")
    page.wait_for_timeout(500)
    assert not errors, errors
    expect(page.locator("#suggestion")).to_contain_text("Colour photos: MobileNetV2 pretrained")
    expect(page.locator("#id_architecture")).to_have_value("mobilenet_v2")
    expect(page.locator("#id_weights")).to_have_value("shipped:mobilenet_v2")
    page.get_by_label("Quick: a few epochs to see whether it learns").check()
    page.locator("#advanced summary").click()
    expect(page.locator("#id_input_size")).to_have_value("224")
    expect(page.locator("#id_freeze_epochs")).to_have_value("1")
    expect(page.locator("#id_backbone_lr_scale")).to_have_value("0.1")
    expect(page.locator("#fine-tune-settings .when-pretrained")).to_be_visible()
    page.fill("#id_batch_size", "4")
    page.fill("#id_name", "Cats from the browser")
    screenshot("form")
    page.select_option("#id_weights", "scratch")  # the recipe follows the starting weights
    expect(page.locator("#id_freeze_epochs")).to_have_value("0")
    expect(page.locator("#fine-tune-settings .when-scratch")).to_be_visible()
    page.select_option("#id_weights", "shipped:mobilenet_v2")
    page.fill("#id_batch_size", "4")
    page.locator("#start").click()

    expect(page.locator("#status")).to_have_text("Succeeded", timeout=240_000)
    job = TrainingJob.objects.get(name="Cats from the browser")
    log = "\n".join(JobLogLine.objects.filter(job=job).values_list("message", flat=True))
    assert "Loaded 260 of 262 tensors from the shipped weights" in log
    assert "The backbone is frozen for the first 1 epoch" in log
    assert "The backbone is unfrozen" in log
    assert job.config["normalize"]["mean"] == [0.485, 0.456, 0.406]
    screenshot("finished")

    page.locator("#report-link").click()
    page.wait_for_selector("body[data-report-ready]")
    screenshot("report")

    page.goto(f"/workspaces/{workspace.slug}/models/")
    chelsea = tmp_path / "chelsea.png"
    photo("chelsea").save(chelsea)
    page.select_option("#try-architecture", "mobilenet_v2")
    page.set_input_files("#try-image", str(chelsea))
    page.locator("#try-form button[type=submit]").click()
    results = page.locator("#try-results .try-class")
    expect(results).to_have_count(5, timeout=30_000)
    assert set(results.locator(".class-name").all_inner_texts()) & set(CAT_NAMES)
    page.locator("#try-photo").scroll_into_view_if_needed()
    screenshot("zoo-try")
