"""The zh-Hans catalog of the server's texts is complete and matches the templates and code."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.test import SimpleTestCase, override_settings

from tests.platform_tests.i18n_tests.catalogs import DJANGO_PO, MAKEMESSAGES_IGNORE
from tests.platform_tests.i18n_tests.po_file import Entry, read_po

ROOT = Path(settings.BASE_DIR)
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%%|\{\w+\}")


def translated(entries: list[Entry]) -> list[Entry]:
    return [e for e in entries if e.msgid and not e.obsolete]


class CatalogTests(SimpleTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.entries = translated(read_po(DJANGO_PO))

    def test_it_has_the_server_texts(self) -> None:
        msgids = {e.msgid for e in self.entries}
        self.assertGreater(len(msgids), 500)
        self.assertIn("Log in", msgids)
        self.assertIn("Start training", msgids)

    def test_every_entry_has_a_chinese_translation(self) -> None:
        for entry in self.entries:
            with self.subTest(msgid=entry.msgid):
                self.assertNotIn("fuzzy", entry.flags)
                self.assertTrue(entry.msgstr, "no msgstr")
                self.assertTrue(all(s.strip() for s in entry.msgstr.values()), "empty msgstr")

    def test_translations_keep_every_placeholder(self) -> None:
        for entry in self.entries:
            for msgstr in entry.msgstr.values():
                with self.subTest(msgid=entry.msgid):
                    self.assertEqual(
                        sorted(set(PLACEHOLDER.findall(msgstr))),
                        sorted(set(PLACEHOLDER.findall(entry.msgid))),
                    )

    def test_the_header_says_zh_hans_with_one_plural_form(self) -> None:
        header = next(e for e in read_po(DJANGO_PO) if not e.msgid)
        self.assertNotIn("fuzzy", header.flags)
        self.assertIn("Language: zh_Hans\n", header.msgstr[0])
        self.assertIn("Plural-Forms: nplurals=1; plural=0;", header.msgstr[0])

    def test_the_catalog_is_in_sync_with_the_templates_and_code(self) -> None:
        """makemessages, run afresh on a copy of the sources (as `make makemessages` runs it),
        finds exactly the catalog's msgids: none missing, none left over."""
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder)
            ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
            shutil.copytree(ROOT / "platform", copy / "platform", ignore=ignore)
            shutil.copytree(ROOT / "templates", copy / "templates")
            (copy / "locale").mkdir()
            here = Path.cwd()
            os.chdir(copy)
            try:
                with override_settings(LOCALE_PATHS=[copy / "locale"]):
                    call_command(
                        "makemessages",
                        locale=["zh_Hans"],
                        ignore_patterns=[".venv", *MAKEMESSAGES_IGNORE],
                        verbosity=0,
                    )
            finally:
                os.chdir(here)
            fresh = translated(read_po(copy / "locale" / DJANGO_PO.relative_to(ROOT / "locale")))
        committed = {e.key for e in self.entries}
        found = {e.key for e in fresh}
        self.assertEqual(sorted(found - committed, key=str), [], "missing from django.po")
        self.assertEqual(sorted(committed - found, key=str), [], "in django.po but unused")
