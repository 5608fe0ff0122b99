"""Creates the demo login and workspace that `make run` prints, if they do not exist yet."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from accounts.services import ensure_demo


class Command(BaseCommand):
    help = "Create the demo user and its workspace (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default="demo")
        parser.add_argument("--password", default="sampan-demo")
        parser.add_argument("--workspace", default="Demo workspace")

    def handle(self, *args: Any, **options: Any) -> None:
        user, workspace = ensure_demo(
            username=options["username"],
            password=options["password"],
            workspace_name=options["workspace"],
        )
        self.stdout.write(
            f"Demo login: {user.username} / {options['password']} "
            f"(workspace “{workspace.name}”; the password stays as you set it after the first run)"
        )
