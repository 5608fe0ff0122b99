"""Where the translation catalogs live, and how the tests make sure they are compiled."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from asgiref.local import Local
from django.conf import settings
from django.utils import translation

LOCALE = Path(settings.LOCALE_PATHS[0])
DJANGO_PO = LOCALE / "zh_Hans" / "LC_MESSAGES" / "django.po"
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


def compile_catalogs() -> None:
    """What `make messages` does: each .po's .mo, rebuilt when the .po is newer."""
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        raise RuntimeError("msgfmt is missing: install gettext (make system-packages)")
    rebuilt = False
    for po in LOCALE.glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            subprocess.run([msgfmt, "--check", "-o", str(mo), str(po)], check=True)
            rebuilt = True
    if rebuilt:
        # A process that already looked for the catalogs keeps what it found: start over from
        # the files, as Django does when LOCALE_PATHS changes (django.test.signals).
        trans_real = translation.trans_real
        trans_real._translations = {}
        trans_real._default = None
        trans_real._active = Local()
        trans_real.translation_catalog_exists.cache_clear()
