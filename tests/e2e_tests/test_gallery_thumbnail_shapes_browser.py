"""In a browser: the gallery draws what each sample holds over its thumbnail, where the image
shows it: an OCR sample's text-line polygons (amber when difficult), a detection sample's
boxes in their class's colour (issue 23)."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image

from datastore.models import Annotation, Dataset, LabelClass, TextLine
from tests.platform_tests.datastore_tests.seeding import import_now, sign_in, team

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The canvas pixel under an image point (x, y), its RGBA; the canvas has the thumbnail's own
# pixels, so an image point maps by the thumbnail's width over the sample's.
PIXEL = """([sample, width, x, y]) => {
  const canvas = document.querySelector(`.tile[data-sample="${sample}"] canvas.tile-shapes`);
  const scale = canvas.width / width;
  const ctx = canvas.getContext("2d");
  return [...ctx.getImageData(Math.round(x * scale), Math.round(y * scale), 1, 1).data];
}"""


def pixel(page: Any, sample: Any, x: float, y: float) -> list[int]:
    return page.evaluate(PIXEL, [sample.pk, sample.width, x, y])


def one_image(dataset: Dataset, user: Any, folder: Any, size: tuple[int, int]) -> Any:
    folder.mkdir()
    Image.new("RGB", size, "white").save(folder / "page.png")
    assert import_now(dataset, user, folder).status == "succeeded"
    return dataset.samples.get()


def test_text_lines_are_drawn_on_an_ocr_thumbnail(
    page, live_server, screenshot, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Pages", task_type="ocr")
    sample = one_image(dataset, user, tmp_path / "src", (600, 400))
    line = [[40, 60], [560, 60], [560, 140], [40, 140]]
    TextLine.objects.create(sample=sample, order=0, points=line, transcription="Invoice")
    hard = [[40, 250], [300, 250], [300, 330], [40, 330]]
    TextLine.objects.create(sample=sample, order=1, points=hard, transcription="?", difficult=True)
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/")
    tile = page.locator(f'.tile[data-sample="{sample.pk}"]')
    expect(tile).to_have_attribute("data-shapes", "2")
    green, amber = pixel(page, sample, 300, 60), pixel(page, sample, 170, 250)
    assert green[3] > 0 and green[1] > green[0], green  # on the line's top edge: green
    assert amber[3] > 0 and amber[0] > amber[2], amber  # on the difficult one's: amber
    assert pixel(page, sample, 300, 100)[3] == 0  # inside the line: the image shows through
    assert pixel(page, sample, 450, 300)[3] == 0  # away from every line
    # Over the thumbnail exactly: the canvas is fitted as the image is.
    image, canvas = tile.locator("a img").bounding_box(), tile.locator("canvas").bounding_box()
    assert image == canvas
    tile.scroll_into_view_if_needed()
    screenshot("ocr-tile")


def test_boxes_are_drawn_on_a_detection_thumbnail(page, live_server, tmp_path, settings) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Cars", task_type="detection")
    sample = one_image(dataset, user, tmp_path / "src", (400, 300))
    car = LabelClass.objects.create(dataset=dataset, name="car", order=0, color="#e6194b")
    Annotation.objects.create(sample=sample, label_class=car, x=50, y=40, w=200, h=150)
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/")
    expect(page.locator(f'.tile[data-sample="{sample.pk}"]')).to_have_attribute("data-shapes", "1")
    red = pixel(page, sample, 150, 40)
    assert red[3] > 0 and red[0] > 150 and red[1] < 100, red  # the class's colour, on the edge
    assert pixel(page, sample, 150, 115)[3] == 0  # inside the box


def test_a_thumbnail_without_lines_gets_no_canvas(page, live_server, tmp_path, settings) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Pages", task_type="ocr")
    one_image(dataset, user, tmp_path / "src", (300, 200))
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/")
    expect(page.locator("#gallery .tile")).to_have_count(1)
    expect(page.locator("#gallery canvas")).to_have_count(0)
