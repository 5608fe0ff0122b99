"""In a browser, against a real worker: import weights from the zoo page and watch the import
go from queued to imported without a reload; a hostile file fails there with its reason."""

from __future__ import annotations

import pickle

import pytest

from tests.platform_tests.datastore_tests.seeding import sign_in, team

pytestmark = [pytest.mark.e2e, pytest.mark.integration, pytest.mark.django_db(transaction=True)]


class Huge:
    """Pickles as `bytearray(4 GiB)`: 53 bytes that ask for 4 GiB when loaded."""

    def __reduce__(self) -> tuple:
        return (bytearray, (4 * 2**30,))


def test_weights_are_imported_by_the_worker_while_the_page_follows(
    page, live_server, screenshot, celery_worker, tmp_path, settings
) -> None:
    from playwright.sync_api import expect
    from safetensors.numpy import save_file

    from framework.vision.models import LeNet

    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"  # the worker's storage
    user, workspace = team()
    good = tmp_path / "digits-start.safetensors"
    save_file({k: v.numpy() for k, v in LeNet().state_dict().items()}, str(good))
    bad = tmp_path / "tiny.pdparams"
    bad.write_bytes(pickle.dumps({"w": Huge()}, protocol=2))
    sign_in(page, user, live_server.url)

    page.goto(f"/workspaces/{workspace.slug}/models/")
    for path in (good, bad):
        page.select_option("#id_architecture", "lenet")
        page.set_input_files("#id_file", str(path))
        page.locator("#import-weights button[type=submit]").click()
        expect(page.locator(".message.success")).to_contain_text(f"Importing “{path.name}”")
    # The page follows the queued imports and reloads once each has ended.
    imported = page.locator(".weight-import", has_text="digits-start.safetensors")
    expect(imported.locator(".badge")).to_have_text("Succeeded", timeout=90_000)
    expect(imported).to_contain_text("finite outputs for 10 classes")
    refused = page.locator(".weight-import", has_text="tiny.pdparams")
    expect(refused.locator(".badge")).to_have_text("Failed", timeout=90_000)
    expect(refused).to_contain_text("asks for 4.0 GiB for a bytearray")
    assert str(tmp_path) not in refused.inner_text()
    expect(page.locator("#arch-lenet")).to_contain_text("digits-start")
    screenshot("imports")
