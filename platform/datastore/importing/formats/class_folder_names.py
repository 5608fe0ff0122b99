"""Class names as folder names, and the `labels.txt` that maps the folders back to the names.

An ImageNet-style export puts each image in a folder named after its class, so a class name
becomes part of a path on whatever machine unzips it. The folder name is the class name, made
safe by these rules, in this order:

1. It is NFC-normalized, as the importer normalizes every path.
2. `/` and `\\`, control characters, bidirectional-text controls and the characters Windows
   refuses in names (`<>:"|?*`) each become `_`.
3. Dots and spaces at either end are dropped: Windows drops trailing ones itself, a leading dot
   hides a folder, and `.` and `..` are not folders at all. It is cut to 100 bytes of UTF-8.
4. An empty result becomes `_`. A Windows device name (CON, NUL, COM1... with or without an
   extension), and a name an importer would read as something else (a split such as `train`,
   `__MACOSX`, `labels.txt`), gets `_` after its first part: `CON_`, `train_`.
5. Names that still come out the same, ignoring case (Windows and macOS folders ignore case),
   get `_2`, `_3`... in class order.

`labels.txt` holds one line per class, `folder<TAB>name`, in class order; a backslash, line
feed or carriage return in the name is written `\\\\`, `\\n` or `\\r`. The class-folders importer
reads the real names back from it; lines without a tab (older exports listed bare names) map
nothing.
"""

from __future__ import annotations

import re
import unicodedata

from datastore.importing.formats.base import SPLIT_NAMES
from datastore.importing.tree import IGNORED_DIRS

LABELS_FILE = "labels.txt"
MAX_FOLDER_BYTES = 100
WINDOWS_FORBIDDEN = set('<>:"/\\|?*')
BIDI_CONTROLS = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
WINDOWS_DEVICES = {"CON", "PRN", "AUX", "NUL"} | {
    f"{port}{n}" for port in ("COM", "LPT") for n in [*"0123456789", "¹", "²", "³"]
}
READ_AS_SOMETHING_ELSE = {*SPLIT_NAMES, *(d.casefold() for d in IGNORED_DIRS), LABELS_FILE}
ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r"}
UNESCAPES = {value[1]: key for key, value in ESCAPES.items()}


def _unsafe(char: str) -> bool:
    return (
        char in WINDOWS_FORBIDDEN
        or char in BIDI_CONTROLS
        or unicodedata.category(char) in ("Cc", "Cs")
    )


def safe_folder_name(name: str) -> str:
    """Rules 1 to 4: one class name as a folder name (not yet unique among the others)."""
    text = "".join("_" if _unsafe(c) else c for c in unicodedata.normalize("NFC", name))
    text = text.strip(" .")
    text = text.encode()[:MAX_FOLDER_BYTES].decode(errors="ignore").strip(" .") or "_"
    stem, dot, rest = text.partition(".")
    if stem.rstrip(" ").upper() in WINDOWS_DEVICES or text.casefold() in READ_AS_SOMETHING_ELSE:
        return f"{stem}_{dot}{rest}"
    return text


def class_folder_names(classes: list[str]) -> dict[str, str]:
    """Class name -> its folder name, distinct even where case does not count (rule 5)."""
    folders: dict[str, str] = {}
    taken: set[str] = set()
    for name in classes:
        base = folder = safe_folder_name(name)
        number = 2
        while folder.casefold() in taken:
            folder = f"{base}_{number}"
            number += 1
        taken.add(folder.casefold())
        folders[name] = folder
    return folders


def labels_file(folders: dict[str, str]) -> str:
    lines = []
    for name, folder in folders.items():
        escaped = "".join(ESCAPES.get(c, c) for c in name)
        lines.append(f"{folder}\t{escaped}\n")
    return "".join(lines)


def read_labels_file(text: str) -> dict[str, str]:
    """Folder name -> class name, from the lines of `labels.txt` that hold a tab."""
    mapping: dict[str, str] = {}
    # Only line feeds end lines: str.splitlines() would also split names at characters such
    # as U+2028, which a class name may hold.
    for line in text.split("\n"):
        folder, tab, escaped = line.removesuffix("\r").partition("\t")
        if tab and folder:
            name = re.sub(r"\\(.)", lambda m: UNESCAPES.get(m[1], m[0]), escaped)
            mapping[unicodedata.normalize("NFC", folder)] = name
    return mapping
