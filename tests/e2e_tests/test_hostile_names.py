"""Names that carry script show as text on every page, and no page breaks the policy.

A zip name, folder names (class folders), file names, a label file's name (which the import's
format note quotes), class names and COCO category names all carry payloads. Every page that
shows them is opened in Chromium, with the Content-Security-Policy on, and fails on an alert,
on any element a payload made (an `on*` attribute, `<img src=x>`, an inline `<script>`), on a
policy violation and on any console error or uncaught exception.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from datastore.models import Dataset, DatasetVersion, LabelClass
from datastore.services.labelset import rename_class
from datastore.services.versions import freeze_version
from deploy.models import Deployment
from deploy.services import serving, traffic
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.seeding import import_now, sign_in, team
from tests.platform_tests.deploy_tests.base import export_now, png_bytes
from tests.platform_tests.training_tests.base import FAST, make_job, run_now
from training.demo.digits import digit_images
from training.models import TrainingJob

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

IMG = "<img src=x onerror=alert(1)>"
SVG = '"><svg onload=alert(1)>'
SCRIPT = "</script><script>alert(1)</script>"  # has a slash: a name, never a path
PAYLOADS = (IMG, SVG, SCRIPT)

# Set up before any page script runs (Playwright's init scripts are exempt from the policy):
# every violation of the page is kept for `Watch.check` to read.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"}` +
    ` at ${e.sourceFile}:${e.lineNumber}`);
});
"""
# What a payload would have made had it become markup anywhere, Plotly's SVG included.
INJECTED = """() => {
  const found = [];
  for (const node of document.querySelectorAll("*")) {
    for (const attribute of node.attributes) {
      if (/^on/i.test(attribute.name)) found.push(`<${node.localName} ${attribute.name}>`);
    }
  }
  document.querySelectorAll("img[src='x'], a[href^='javascript:' i]").forEach(
    (node) => found.push(node.outerHTML.slice(0, 80)));
  document.querySelectorAll("script:not([src])").forEach((node) => {
    if (node.type !== "application/json") found.push(`inline script: ${node.text.slice(0, 80)}`);
  });
  return found;
}"""


class Watch:
    """Everything a page did that a hostile name could have caused: alerts, console errors
    (the browser reports each policy violation there too), uncaught exceptions and failed
    requests (an injected `<img src=x>` asks for x)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        page.add_init_script(RECORD_VIOLATIONS)
        page.on("dialog", self._dialog)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))
        page.on("response", self._response)

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def _console(self, message: Any) -> None:
        # A failed load is logged without its URL; _response records it with the URL.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.errors.append(message.text)

    def _response(self, response: Any) -> None:
        # The admin has no <link rel=icon>, so Chromium asks for /favicon.ico, which is a 404.
        if response.status >= 400 and not response.url.endswith("/favicon.ico"):
            self.errors.append(f"{response.status} for {response.url}")

    def check(self, where: str) -> None:
        """Fails on anything seen since the last check; call it before leaving a page."""
        violations = self.page.evaluate("() => window.__violations")
        injected = self.page.evaluate(INJECTED)
        seen = {
            "dialogs": self.dialogs,
            "errors": self.errors,
            "violations": violations,
            "injected": injected,
        }
        assert not any(seen.values()), f"{where}: {seen}"

    def visit(self, url: str, ready: str | None = None) -> None:
        """Opens `url`, waits for `ready` (a JS condition) and the network, then checks."""
        self.page.goto(url)
        if ready:
            self.page.wait_for_function(f"() => {ready}")
        self.page.wait_for_load_state("networkidle")
        self.check(url)


@pytest.fixture
def watch(page: Any) -> Watch:
    return Watch(page)


def tick_labels(page: Any, chart: str, axis: str = "x") -> list[str]:
    """The text Plotly drew at the ticks of a chart's axis."""
    return page.locator(f"{chart} .{axis}tick text").all_text_contents()


# --- the import page, its report, the gallery, the label set and the classify page ------------


def hostile_zip(folder: Path) -> Path:
    """`IMG.zip` holding `SVG/` with digits named after IMG, a CSV named after IMG whose labels
    are the three payloads, and a broken image (for a row in the validation report)."""
    inside = f"{SVG}/"
    rows = io.StringIO()
    writer = csv.writer(rows)
    writer.writerow(["filename", "label"])
    archive = folder / f"{IMG}.zip"
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive, "w") as zf:
        for index, (label, image) in enumerate(digit_images(per_class=4)[:12]):
            name = f"{IMG} {index}.png"
            buffer = io.BytesIO()
            image.save(buffer, format="PNG")
            zf.writestr(inside + name, buffer.getvalue())
            writer.writerow([name, PAYLOADS[label % 3]])
        writer.writerow([f"{SVG} missing.png", IMG])
        zf.writestr(f"{inside}{IMG}.csv", rows.getvalue())
        zf.writestr(f"{inside}{IMG} broken.jpg", b"not really a photo")
    return archive


def test_a_hostile_zip_imports_and_its_names_show_as_text(
    page, live_server, screenshot, celery_worker, watch: Watch, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"  # the worker's storage
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name=SVG, task_type="classification")
    sign_in(page, user, live_server.url)

    # The real flow: chunked upload from the page, the import on the worker, then upload.js
    # draws the outcome with the format note, which quotes the CSV's name.
    page.goto(f"/datasets/{dataset.pk}/import/")
    page.locator("#pick-files").set_input_files(str(hostile_zip(tmp_path / "src")))
    page.get_by_role("button", name="Upload and import").click()
    outcome = page.locator("#outcome")
    expect(outcome).to_contain_text("Imported 12 images", timeout=60_000)
    expect(outcome).to_contain_text(f"Found CSV labels in {SVG}/{IMG}.csv.")
    expect(outcome.get_by_role("link", name="Read the report")).to_be_visible()
    screenshot("import")
    watch.check("the import page")

    watch.visit(f"/datasets/{dataset.pk}/report/", "document.body.dataset.chartsReady")
    expect(page.locator("#problems")).to_contain_text(f"{SVG}/{IMG} broken.jpg")
    expect(page.locator("#problems")).to_contain_text(f"The row names '{SVG} missing.png'")
    expect(page.locator("main")).to_contain_text(f"Found CSV labels in {SVG}/{IMG}.csv.")
    assert sorted(tick_labels(page, "#chart-classes")) == sorted(PAYLOADS)

    watch.visit(f"/datasets/{dataset.pk}/")
    gallery = page.locator("#gallery")
    expect(gallery.locator(".tile")).to_have_count(12)
    for name in PAYLOADS:
        expect(gallery.locator(".chip", has_text=name).first).to_be_visible()
    assert page.locator("#gallery img").first.get_attribute("alt").startswith(f"{SVG}/{IMG} ")
    screenshot("gallery")

    watch.visit(
        f"/datasets/{dataset.pk}/classes/", "document.querySelectorAll('.class-name').length === 3"
    )
    names = page.locator("#classes .class-name").evaluate_all("inputs => inputs.map(i => i.value)")
    assert sorted(names) == sorted(PAYLOADS)
    options = page.locator("#change-class select[name=source] option").all_text_contents()
    assert sorted(options) == sorted(PAYLOADS)

    watch.visit(f"/datasets/{dataset.pk}/label/", "document.body.dataset.ready")
    buttons = page.locator("#classes .class-button span").all_text_contents()
    assert sorted(buttons) == sorted(PAYLOADS)
    expect(page.locator("#sample-name")).to_contain_text(IMG)
    assert page.locator("#strip li").first.get_attribute("title").startswith(f"{SVG}/{IMG} ")
    watch.check("the classify page")


# --- COCO categories on the detection pages ---------------------------------------------------


def test_hostile_coco_categories_show_as_text_on_the_detection_pages(
    page, live_server, screenshot, watch: Watch, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name=IMG, task_type="detection")
    src = tmp_path / "src"
    sample_images.photos(src / SVG, names=("astronaut", "coffee"))
    coco = {
        "images": [
            {"id": 1, "file_name": "astronaut.jpg", "width": 512, "height": 512},
            {"id": 2, "file_name": "coffee.jpg", "width": 600, "height": 400},
        ],
        "categories": [{"id": i, "name": name} for i, name in enumerate(PAYLOADS, start=1)],
        "annotations": [
            {"id": 1, "image_id": 1, "category_id": 1, "bbox": [100, 20, 300, 480]},
            {"id": 2, "image_id": 1, "category_id": 3, "bbox": [10, 10, 50, 50]},
            {"id": 3, "image_id": 2, "category_id": 2, "bbox": [150, 50, 300, 250]},
        ],
    }
    (src / f"{IMG}.json").write_text(json.dumps(coco))
    job = import_now(dataset, user, src)
    assert job.format_note == f"Found COCO annotations in {IMG}.json."
    sign_in(page, user, live_server.url)

    watch.visit(f"/datasets/{dataset.pk}/report/", "document.body.dataset.chartsReady")
    expect(page.locator("main")).to_contain_text(job.format_note)
    assert sorted(tick_labels(page, "#chart-classes")) == sorted(PAYLOADS)

    watch.visit(f"/datasets/{dataset.pk}/")
    expect(page.locator("#gallery .chip", has_text=SCRIPT).first).to_be_visible()

    astronaut = dataset.samples.get(original_name=f"{SVG}/astronaut.jpg")
    watch.visit(
        f"/datasets/{dataset.pk}/label/?sample={astronaut.pk}",
        f"document.body.dataset.imageReady === '{astronaut.pk}'",
    )
    buttons = page.locator("#classes .class-button span").all_text_contents()
    assert buttons == list(PAYLOADS)
    chosen = page.locator("#box-list select").evaluate_all(
        "selects => selects.map(s => s.selectedOptions[0].textContent)"
    )
    assert sorted(chosen) == sorted([IMG, SCRIPT])
    screenshot("detect")
    watch.check("the detect page")

    watch.visit(f"/workspaces/{workspace.slug}/datasets/")
    expect(page.locator("main")).to_contain_text(IMG)


# --- a version, a job, its report, the comparison, the export panel and the deployment --------


def hostile_version(workspace: Any, user: Any, root: Path) -> DatasetVersion:
    """Digits 0, 1 and 2 in class folders named IMG, SVG and "plain", then "plain" renamed to
    SCRIPT (a slash cannot be in a folder's name), frozen with a hostile note."""
    dataset = Dataset.objects.create(workspace=workspace, name=SCRIPT, task_type="classification")
    for index, (label, image) in enumerate(digit_images(per_class=10)):
        if label < 3:
            folder = (IMG, SVG, "plain")[label]
            sample_images.save(image, root / folder / f"{SVG} {index}.png")
    import_now(dataset, user, root)
    rename_class(LabelClass.objects.get(dataset=dataset, name="plain"), SCRIPT)
    return freeze_version(
        dataset,
        user=user,
        method=DatasetVersion.SplitMethod.STRATIFIED,
        ratios={"train": 0.7, "val": 0.3, "test": 0.0},
        seed=0,
        note=IMG,
    )


def test_hostile_class_and_job_names_through_training_and_deployment(
    page, live_server, screenshot, watch: Watch, tmp_path, settings
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    for name, value in FAST.items():
        setattr(settings, name, value)
    serving.clear_cache()
    traffic.recorder.reset()
    user, workspace = team()
    version = hostile_version(workspace, user, tmp_path / "src")
    job, _ = make_job(
        workspace=workspace,
        user=user,
        version=version,
        architecture="lenet",
        name=SVG,
        overrides={"epochs": 2, "batch_size": 8},
    )
    job = run_now(job)
    assert job.status == TrainingJob.Status.SUCCEEDED, job.error
    export = export_now(job, "package", user)
    deployment = Deployment.objects.create(
        workspace=workspace, name=IMG, export=export, created_by=user
    )
    sign_in(page, user, live_server.url)

    watch.visit(f"/datasets/{version.dataset_id}/versions/")
    expect(page.locator("#versions")).to_contain_text(IMG)

    watch.visit(f"/jobs/{job.pk}/", "document.body.dataset.chartsReady")
    expect(page.locator("main h2").first).to_contain_text(f"#{job.pk} {SVG}")
    captions = page.locator("#predictions figcaption").all_text_contents()
    assert captions and all(any(name in c for name in PAYLOADS) for c in captions)
    page.wait_for_function("() => document.getElementById('export-panel').dataset.ready")
    expect(page.locator("#exports tbody tr").first).to_contain_text("Succeeded")
    watch.check("the job page with its export panel")

    watch.visit(f"/jobs/{job.pk}/report/", "document.body.dataset.reportReady")
    for axis in ("x", "y"):
        assert sorted(tick_labels(page, "#confusion", axis)) == sorted(PAYLOADS)
    in_order = [c["name"] for c in version.classes]  # the folders' order: SVG, IMG, SCRIPT
    assert sorted(in_order) == sorted(PAYLOADS)
    assert page.locator("#pr-class option").all_text_contents() == in_order
    expect(page.locator("#threshold-facts")).to_contain_text(f"Precision, {in_order[0]}")
    expect(page.locator("#pr-chart .gtitle")).to_have_text(
        f"Precision-recall, {in_order[0]} vs. the rest"
    )
    expect(page.locator("#per-class")).to_contain_text(SCRIPT)
    thumbs = page.locator("#mistakes .thumb figcaption").all_text_contents()
    assert all(any(name in t for name in PAYLOADS) for t in thumbs)

    watch.visit(
        f"/workspaces/{workspace.slug}/jobs/compare/?ids={job.pk}",
        "document.body.dataset.compareReady",
    )
    expect(page.locator("#hyperparameters tbody")).to_contain_text(f"#{job.pk} {SVG}")

    watch.visit(f"/jobs/{job.pk}/exports/")
    watch.visit(f"/workspaces/{workspace.slug}/jobs/")
    expect(page.locator("main")).to_contain_text(SVG)
    watch.visit(f"/workspaces/{workspace.slug}/deployments/")
    expect(page.locator("main")).to_contain_text(IMG)

    watch.visit(f"/deployments/{deployment.pk}/", "document.body.dataset.trafficReady")
    rows = page.locator("#class-threshold-rows td:first-child").all_text_contents()
    assert rows == in_order
    digit = tmp_path / "digit.png"
    digit.write_bytes(png_bytes(digit_images(per_class=1)[1][1]))
    page.set_input_files("#file", str(digit))
    page.wait_for_function("() => document.body.dataset.chartReady === 'true'")
    assert sorted(tick_labels(page, "#chart-classes", "y")) == sorted(PAYLOADS)
    expect(page.locator("#answer")).to_contain_text("model v1")
    screenshot("deployment")
    watch.check("the deployment page after trying an image")


# --- the one DOM helper, the admin and Swagger UI under the policy ----------------------------


def test_el_keeps_data_as_text_and_refuses_handlers_and_script_urls(
    page, live_server, watch: Watch
) -> None:
    watch.visit("/login/")
    seen = page.evaluate(
        """async (payload) => {
        const { el, plotlyText } = await import("/static/js/dom.js");
        const refused = (make) => { try { make(); return false; } catch { return true; } };
        const p = el("p", { "data-name": payload }, payload, 0, null, false, [el("b")]);
        return {
          children: [...p.childNodes].map((n) => n.nodeName),
          text: p.textContent,
          attribute: p.dataset.name,
          chip: el("span", { style: { "--chip": "#e6194b" } }).style.getPropertyValue("--chip"),
          onclick: refused(() => el("a", { onclick: "alert(1)" })),
          href: refused(() => el("a", { href: " JaVa\\tScRiPt:alert(1)" })),
          plainHref: el("a", { href: "/datasets/1/" }).getAttribute("href"),
          srcdoc: refused(() => el("iframe", { srcdoc: payload })),
          script: refused(() => el("script", {}, "alert(1)")),
          styleText: refused(() => el("span", { style: "color: red" })),
          plotly: plotlyText("<b>A&B</b>"),
        };
    }""",
        IMG,
    )
    assert seen == {
        "children": ["#text", "#text", "B"],
        "text": f"{IMG}0",
        "attribute": IMG,
        "chip": "#e6194b",
        "onclick": True,
        "href": True,
        "plainHref": "/datasets/1/",
        "srcdoc": True,
        "script": True,
        "styleText": True,
        "plotly": "&lt;b&gt;A&amp;B&lt;/b&gt;",
    }
    watch.check("dom.js")


def test_the_admin_and_swagger_ui_work_under_the_policy(
    page, live_server, watch: Watch, django_user_model
) -> None:
    from playwright.sync_api import expect

    admin = django_user_model.objects.create_superuser(
        username=IMG, email="root@example.org", password="a long enough passphrase"
    )
    sign_in(page, admin, live_server.url)
    watch.visit("/admin/")
    expect(page.locator("#user-tools")).to_contain_text(IMG)
    watch.visit("/admin/accounts/user/")
    expect(page.locator("#result_list")).to_contain_text(IMG)
    watch.visit(f"/admin/accounts/user/{admin.pk}/change/")
    expect(page.locator("#id_username")).to_have_value(IMG)
    watch.visit("/api/docs/", "document.querySelectorAll('.swagger-ui .opblock').length > 0")
