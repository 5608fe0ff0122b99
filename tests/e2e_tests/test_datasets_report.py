"""The validation report: problems with file, place, reason and fix, and the Plotly charts."""

from __future__ import annotations

import pytest

from datastore.models import Dataset
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.seeding import import_now, sign_in, team

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_it_shows_problems_and_charts(page, live_server, screenshot, tmp_path, settings) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Photos", task_type="detection")
    src = tmp_path / "src"
    sample_images.photos(src, names=("astronaut", "coffee", "chelsea", "rocket", "coins"))
    (src / "broken.jpg").write_text("not really a photo")
    (src / "boxes.csv").write_text(
        "filename,label,xmin,ymin,xmax,ymax\n"
        "astronaut.jpg,person,100,20,400,500\nastronaut.jpg,flag,0,0,100,200\n"
        "coffee.jpg,cup,150,50,450,300\nchelsea.jpg,cat,100,0,600,290\n"
        "rocket.jpg,rocket,280,10,280,400\nmissing.jpg,cup,1,1,5,5\n"
    )
    import_now(dataset, user, src)
    sign_in(page, user, live_server.url)
    page.goto(f"/datasets/{dataset.pk}/report/")
    page.wait_for_function("() => document.body.dataset.chartsReady === 'true'")
    problems = page.locator("#problems tbody tr")
    expect(page.locator("#problems")).to_contain_text("The file holds plain text, not an image.")
    expect(page.locator("#problems")).to_contain_text("line 6")
    expect(page.locator("#problems")).to_contain_text("reaches past the edge")
    assert problems.count() >= 4
    for chart in ("#chart-classes", "#chart-sizes", "#chart-boxes"):
        expect(page.locator(f"{chart} .main-svg").first).to_be_visible()
    expect(page.locator("#totals")).to_contain_text("5images")
    screenshot("report")
