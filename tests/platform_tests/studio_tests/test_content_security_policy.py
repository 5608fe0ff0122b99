"""Every page is served under the Content-Security-Policy, and nothing in static/ or templates/
turns data into markup: the checks that keep the stored-XSS class from coming back.

tests/e2e_tests/test_hostile_names.py opens the pages in a browser with hostile names.
"""

from __future__ import annotations

import re
from pathlib import Path

from django.test import TestCase

from core.testing import BaseTestCase
from datastore.models import Dataset

REPO_ROOT = Path(__file__).resolve().parents[3]
POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
}


def directives(header: str) -> dict[str, list[str]]:
    parsed = {}
    for part in header.split(";"):
        name, *sources = part.split()
        parsed[name] = sources
    return parsed


class PolicyHeaderTests(BaseTestCase):
    def assert_policy(self, url: str, status: int = 200) -> None:
        response = self.client.get(url)
        self.assertEqual(response.status_code, status, url)
        self.assertIn("text/html", response["Content-Type"], url)
        self.assertEqual(directives(response["Content-Security-Policy"]), POLICY, url)

    def test_it_sends_the_policy_on_public_pages(self) -> None:
        for url in ("/", "/login/", "/signup/", "/api/docs/", "/admin/login/"):
            self.assert_policy(url)

    def test_it_sends_the_policy_on_signed_in_pages(self) -> None:
        dataset = Dataset.objects.create(workspace=self.workspace, name="Photos")
        slug = self.workspace.slug
        self.client.force_login(self.alice)
        for url in (
            "/workspaces/",
            f"/workspaces/{slug}/",
            f"/workspaces/{slug}/datasets/",
            f"/workspaces/{slug}/jobs/",
            f"/workspaces/{slug}/jobs/new/",
            f"/workspaces/{slug}/jobs/compare/",
            f"/workspaces/{slug}/deployments/",
            f"/workspaces/{slug}/models/",
            f"/workspaces/{slug}/tokens/",
            f"/datasets/{dataset.pk}/",
            f"/datasets/{dataset.pk}/import/",
            f"/datasets/{dataset.pk}/report/",
            f"/datasets/{dataset.pk}/classes/",
            f"/datasets/{dataset.pk}/versions/",
            f"/datasets/{dataset.pk}/label/",
            "/cluster/",
        ):
            self.assert_policy(url)

    def test_it_sends_the_policy_on_error_pages(self) -> None:
        self.client.force_login(self.charlie)
        self.assert_policy(f"/workspaces/{self.workspace.slug}/datasets/", status=404)
        self.assert_policy("/no-such-page/", status=404)


class SwaggerUiTests(TestCase):
    def test_its_start_up_code_is_a_script_file_not_inline(self) -> None:
        page = self.client.get("/api/docs/").content.decode()
        self.assertIn('<script src="/api/docs/?script="></script>', page)
        self.assertEqual(re.findall(r"<script>", page), [])
        script = self.client.get("/api/docs/?script=")
        self.assertEqual(script.status_code, 200)
        self.assertEqual(script["Content-Type"], "application/javascript")
        self.assertIn("SwaggerUIBundle", script.content.decode())


def sources(folder: str, suffix: str) -> list[tuple[Path, str]]:
    return [(p, p.read_text()) for p in sorted((REPO_ROOT / folder).rglob(f"*{suffix}"))]


def offending_lines(files: list[tuple[Path, str]], pattern: str) -> list[str]:
    found = []
    for path, text in files:
        for number, line in enumerate(text.splitlines(), start=1):
            if re.search(pattern, line):
                found.append(f"{path.relative_to(REPO_ROOT)}:{number}: {line.strip()}")
    return found


def test_no_page_script_parses_markup() -> None:
    # static/js/dom.js's el() and replace() put data on a page as text, never as markup.
    scripts = sources("static", ".js")
    assert len(scripts) > 10
    assert offending_lines(scripts, r"innerHTML|outerHTML|insertAdjacentHTML|document\.write") == []


def test_no_template_turns_off_escaping_or_runs_inline_code() -> None:
    templates = sources("templates", ".html")
    assert len(templates) > 20
    assert offending_lines(templates, r"\|\s*safe\b|autoescape\s+off|safeseq") == []
    assert offending_lines(templates, r"<[^>]*\son[a-z]+\s*=|javascript:") == []
    # json_script's data blocks come from a filter, so every <script> written in a template
    # loads a file.
    assert offending_lines(templates, r"<script(?![^>]*\ssrc=)") == []
