"""`manage.py measure_architectures`: measure every catalog entry with the framework and write
modelzoo/architecture_profiles.json; `--check` only compares and fails on a difference."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from modelzoo.catalog import ARCHITECTURES
from modelzoo.services.profiles import PROFILES_FILE, committed_profiles, measure, write_profiles


class Command(BaseCommand):
    help = "Measure parameters, FLOPs and size of every architecture and commit them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="compare; write nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        committed = committed_profiles() if PROFILES_FILE.exists() else {}
        measured = {}
        for architecture in ARCHITECTURES:
            measured[architecture.key] = measure(architecture.key)
            self.stdout.write(f"{architecture.key}: {measured[architecture.key]}")
        differing = sorted(k for k in measured.keys() | committed.keys()
                           if measured.get(k) != committed.get(k))  # fmt: skip
        if options["check"]:
            if differing:
                raise CommandError(
                    f"{PROFILES_FILE.name} is out of date for {', '.join(differing)}: run "
                    "manage.py measure_architectures"
                )
            return
        write_profiles(measured)
        self.stdout.write(f"Wrote {PROFILES_FILE} ({len(differing)} entries changed)")
