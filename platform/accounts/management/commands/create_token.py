"""A first API token from the command line, for automation that starts without a browser::

    python manage.py create_token --user alice --workspace vision-team --name "CI uploads"

It prints the secret alone on standard output, once: it is stored only as a hash.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import Workspace
from accounts.services import find_user, issue_token


class Command(BaseCommand):
    help = "Create an API token for a user in a workspace and print its secret (shown once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", required=True, help="Username or email of an active user")
        parser.add_argument("--workspace", required=True, help="The workspace's slug")
        parser.add_argument("--name", required=True, help="A label to recognise the token by")

    def handle(self, *args: Any, **options: Any) -> None:
        user = find_user(options["user"])
        if user is None:
            raise CommandError(f"No active user has the username or email {options['user']!r}.")
        workspace = Workspace.objects.filter(slug=options["workspace"]).first()
        if workspace is None:
            raise CommandError(f"No workspace has the slug {options['workspace']!r}.")
        name = options["name"].strip()
        if not name or len(name) > 100:
            raise CommandError("--name must be 1 to 100 characters.")
        role = workspace.role_of(user)
        if role is None:
            raise CommandError(
                f"{user.username} is not a member of {workspace.slug}; invite them first."
            )
        token, secret = issue_token(workspace, user=user, name=name)
        self.stderr.write(
            f"Token “{token.name}” ({token.prefix}…) for {user.username} in {workspace.slug}, "
            f"with the {role.label.lower()} role. The secret is shown only this once:"
        )
        self.stdout.write(secret)
