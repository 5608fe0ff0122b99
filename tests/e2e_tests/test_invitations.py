"""An owner invites a teammate, who sees nothing of the workspace until accepting on the
Workspaces page; an unknown address gets exactly the same answer as a known one."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long enough passphrase"


def log_in(page, username: str) -> None:  # noqa: ANN001 - a Playwright page
    page.goto("/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def test_a_teammate_joins_only_by_accepting(page, live_server, screenshot) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    from accounts.models import Membership, User, Workspace

    owner = User.objects.create_user("olga", "olga@example.org", PASSWORD)
    User.objects.create_user("tom", "tom@example.org", PASSWORD)
    workspace = Workspace.objects.create(name="Inspection line", slug="inspection-line")
    workspace.add_member(owner, Membership.Role.OWNER)

    log_in(page, "olga")
    page.goto("/workspaces/inspection-line/members/")
    messages = []
    for address in ("tom@example.org", "ghost@example.org"):
        page.get_by_label("Username or email").fill(address)
        page.get_by_label("Role").select_option("member")
        page.get_by_role("button", name="Send invitation").click()
        message = page.locator(".message.success")
        expect(message).to_contain_text("Invited")
        messages.append(message.inner_text().replace(address, "X"))
    assert messages[0] == messages[1]  # the page does not tell who has an account
    expect(page.locator("#invitations")).to_contain_text("tom@example.org")
    screenshot("invited")

    page.get_by_role("button", name="Log out").click()
    log_in(page, "tom")
    expect(page).to_have_url(re.compile(r"/workspaces/$"))
    assert page.goto("/workspaces/inspection-line/").status == 404  # not a member yet
    page.goto("/workspaces/")
    card = page.locator("#my-invitations")
    expect(card).to_contain_text("olga invited you to Inspection line")
    screenshot("invitation")
    card.get_by_role("button", name="Accept").click()
    expect(page).to_have_url(re.compile(r"/workspaces/inspection-line/$"))
    expect(page.locator(".message.success")).to_contain_text("You joined “Inspection line”")
    expect(page.locator("#overview-datasets")).to_be_visible()  # the workspace's overview
    screenshot("joined")
    page.get_by_role("link", name="Members").click()
    expect(page.locator("tbody tr", has_text="tom")).to_contain_text("Member")
