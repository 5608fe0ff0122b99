"""Reading .po files and the compiled JS catalog in the i18n tests. Not a test module."""

from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
JS_PO = REPO_ROOT / "locale" / "zh_Hans" / "LC_MESSAGES" / "djangojs.po"
JS_MO = JS_PO.with_suffix(".mo")


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


def compile_js_catalog() -> None:
    """Compiles djangojs.po when its .mo is missing or older (a fresh clone has none: .mo files
    are built, not committed), and makes Django read the catalogs again."""
    if JS_MO.exists() and JS_MO.stat().st_mtime >= JS_PO.stat().st_mtime:
        return
    # Written beside it and renamed: a test process running in parallel never reads half.
    partial = JS_MO.with_name(f".{JS_MO.name}.{os.getpid()}")
    subprocess.run(["msgfmt", "--check", "-o", str(partial), str(JS_PO)], check=True)
    os.replace(partial, JS_MO)
    from django.utils.translation.reloader import translation_file_changed

    translation_file_changed(sender=None, file_path=JS_MO)


def catalog_of(script: str) -> dict[str, str | list[str]]:
    """The translations in a /jsi18n/ response: the `newcatalog` object it defines."""
    match = re.search(r"const newcatalog = (\{.*?\});\n", script, re.S)
    return json.loads(match[1]) if match else {}
