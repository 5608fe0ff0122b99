"""`make run` seeds the demo workspace with the digits and a LeNet trained on them."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from training.demo.seeding import demo_workspace, seed_demo


class Command(BaseCommand):
    help = "Add the digits dataset and a trained LeNet to the demo workspace (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default="demo")
        parser.add_argument("--workspace", default="Demo workspace")
        # 500 of the 1,797 digits and four epochs: about 13 s of CPU on the first `make run`
        # (93% validation accuracy), so the stack still comes up quickly.
        parser.add_argument("--per-class", type=int, default=50, help="Digits of each class")
        parser.add_argument("--epochs", type=int, default=4)

    def handle(self, *args: Any, **options: Any) -> None:
        found = demo_workspace(options["username"], options["workspace"])
        if found is None:
            self.stdout.write("No demo workspace: run ensure_demo first. Nothing seeded.")
            return
        user, workspace = found
        job = seed_demo(
            user,
            workspace,
            per_class=options["per_class"],
            epochs=options["epochs"],
            say=self.stdout.write,
        )
        self.stdout.write(f"Demo: {job.dataset_label}, and job #{job.pk} ({job.status}).")
