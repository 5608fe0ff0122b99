"""A small reader of gettext .po files: enough to check a catalog's entries in tests."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False

    @property
    def key(self) -> tuple[str | None, str, str | None]:
        return (self.msgctxt, self.msgid, self.msgid_plural)


def read_po(path: Path) -> list[Entry]:
    """Every entry of the catalog at `path`, the header (msgid "") included."""
    entries: list[Entry] = []
    entry = Entry()
    current: tuple[str, int] | None = None
    started = False

    def finish() -> None:
        nonlocal entry, started
        if started:
            entries.append(entry)
        entry, started = Entry(), False

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#~"):
            entry.obsolete = True
            continue
        if not line:
            finish()
            current = None
            continue
        if line.startswith("#,"):
            if started:
                finish()
            entry.flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        if line.startswith("#"):
            if started and current is not None and current[0] != "msgctxt":
                finish()
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            value = ast.literal_eval(line)
            _append(entry, current, value)
            continue
        if keyword == "msgctxt" or (keyword == "msgid" and current and current[0] != "msgctxt"):
            if started:
                finish()
        started = True
        value = ast.literal_eval(rest)
        if keyword.startswith("msgstr["):
            current = ("msgstr", int(keyword[7:-1]))
        else:
            current = (keyword, 0)
        _set(entry, current, value)
    finish()
    return entries


def _set(entry: Entry, current: tuple[str, int], value: str) -> None:
    name, index = current
    if name == "msgstr":
        entry.msgstr[index] = value
    else:
        setattr(entry, name, value)


def _append(entry: Entry, current: tuple[str, int] | None, value: str) -> None:
    if current is None:
        return
    name, index = current
    if name == "msgstr":
        entry.msgstr[index] = entry.msgstr.get(index, "") + value
    else:
        setattr(entry, name, (getattr(entry, name) or "") + value)
