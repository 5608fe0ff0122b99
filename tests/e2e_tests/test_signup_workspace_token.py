"""A newcomer signs up, creates a workspace and an API token, and uses and revokes it."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long enough passphrase"


def call_api(base_url: str, path: str, token: str) -> tuple[int, dict]:
    request = urllib.request.Request(base_url + path, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def test_it_signs_up_creates_a_workspace_and_a_token(page, live_server, screenshot) -> None:
    from playwright.sync_api import expect

    page.goto("/")
    screenshot("landing")
    page.get_by_role("link", name="Create an account").click()

    page.get_by_label("Username").fill("dora")
    page.get_by_label("Email").fill("dora@example.org")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    screenshot("signup")
    page.get_by_role("button", name="Sign up").click()
    expect(page).to_have_url(re.compile(r"/workspaces/$"))
    expect(page.get_by_role("heading", name="Workspaces", exact=True)).to_be_visible()
    expect(page.locator(".whoami")).to_have_text("dora")

    page.get_by_label("Name").fill("Vision lab")
    page.get_by_role("button", name="Create workspace").click()
    expect(page).to_have_url(re.compile(r"/workspaces/vision-lab/$"))
    expect(page.get_by_role("heading", name="Vision lab")).to_be_visible()
    expect(page.locator("#overview-datasets")).to_contain_text("No datasets yet.")
    screenshot("workspace")
    page.get_by_role("link", name="Members").click()
    expect(page.locator("td .badge")).to_have_text("Owner")

    page.get_by_role("link", name="API tokens").click()
    page.get_by_label("Name").fill("CI upload script")
    page.get_by_role("button", name="Create token").click()
    secret_box = page.locator("#new-token")
    expect(secret_box).to_have_text(re.compile(r"^spn_[\w-]{40,}$"))
    secret = secret_box.inner_text()
    screenshot("token-created")

    status, me = call_api(live_server.url, "/api/me/", secret)
    assert (status, me["username"]) == (200, "dora")
    status, workspaces = call_api(live_server.url, "/api/workspaces/", secret)
    assert [w["slug"] for w in workspaces["results"]] == ["vision-lab"]

    # Shown once: loading the page again shows only the prefix.
    page.goto("/workspaces/vision-lab/tokens/")
    expect(page.locator("#new-token")).to_have_count(0)
    expect(page.locator("#token-table")).to_contain_text(secret[:12])
    assert secret not in page.content()

    page.get_by_role("button", name="Revoke").click()
    expect(page.locator("#token-table .badge")).to_have_text("Revoked")
    screenshot("token-revoked")
    status, body = call_api(live_server.url, "/api/me/", secret)
    assert (status, body["message"]) == (401, "Invalid or revoked token.")
