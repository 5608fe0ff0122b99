"""Where the translation catalogs live, how the tests make sure they are compiled, and how
they read .po files and the compiled JS catalog. Not a test module."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from asgiref.local import Local
from django.conf import settings
from django.utils import translation

REPO_ROOT = Path(__file__).resolve().parents[3]
LOCALE = Path(settings.LOCALE_PATHS[0])
DJANGO_PO = LOCALE / "zh_Hans" / "LC_MESSAGES" / "django.po"
JS_PO = LOCALE / "zh_Hans" / "LC_MESSAGES" / "djangojs.po"
# The same folders `make makemessages` leaves out: they hold no user-facing server text.
MAKEMESSAGES_IGNORE = (
    "node_modules",
    "tests",
    "benchmarks",
    "framework",
    "workers",
    "static",
    "var",
)


@dataclass
class Entry:
    msgid: str
    plural: str | None
    translations: list[str]
    fuzzy: bool


def _unquote(parts: list[str]) -> str:
    return "".join(json.loads(part) for part in parts)  # a .po string is a JSON string here


def entries(path: Path) -> list[Entry]:
    """The entries of a .po file, the header left out."""
    found = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fields: dict[str, list[str]] = {}
        current: list[str] | None = None
        fuzzy = False
        for line in block.splitlines():
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            match = re.match(r"^(msgid_plural|msgid|msgstr(?:\[\d+\])?) (\".*\")$", line)
            if match:
                current = fields.setdefault(match[1], [])
                current.append(match[2])
            elif line.startswith('"') and current is not None:
                current.append(line)
            else:
                current = None
        if "msgid" not in fields or _unquote(fields["msgid"]) == "":
            continue
        translations = [_unquote(v) for k, v in sorted(fields.items()) if k.startswith("msgstr")]
        plural = _unquote(fields["msgid_plural"]) if "msgid_plural" in fields else None
        found.append(Entry(_unquote(fields["msgid"]), plural, translations, fuzzy))
    return found


def compile_catalogs() -> None:
    """What `make messages` does: each .po's .mo, rebuilt when missing or older than the .po
    (a fresh clone has none: .mo files are built, not committed). Each is written beside it
    and renamed, so a test process running in parallel never reads half of one."""
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        raise RuntimeError("msgfmt is missing: install gettext (make system-packages)")
    rebuilt = False
    for po in LOCALE.glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        partial = mo.with_name(f".{mo.name}.{os.getpid()}")
        subprocess.run([msgfmt, "--check", "-o", str(partial), str(po)], check=True)
        os.replace(partial, mo)
        rebuilt = True
    if rebuilt:
        # A process that already looked for the catalogs keeps what it found: start over from
        # the files, as Django does when LOCALE_PATHS changes (django.test.signals).
        trans_real = translation.trans_real
        trans_real._translations = {}
        trans_real._default = None
        trans_real._active = Local()
        trans_real.translation_catalog_exists.cache_clear()
        from django.utils.translation.reloader import translation_file_changed

        translation_file_changed(sender=None, file_path=JS_PO.with_suffix(".mo"))


def catalog_of(script: str) -> dict[str, str | list[str]]:
    """The translations in a /jsi18n/ response: the `newcatalog` object it defines."""
    match = re.search(r"const newcatalog = (\{.*?\});\n", script, re.S)
    return json.loads(match[1]) if match else {}
