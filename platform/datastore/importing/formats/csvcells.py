"""The one rule for CSV cells that a spreadsheet could run as formulas, on export and import.

A leading apostrophe marks a cell as text, as spreadsheets themselves do (OWASP's advice against
CSV injection):

- Sampan's CSV export writes an apostrophe before a text cell that begins with `=`, `+`, `-`, `@`,
  a tab or a carriage return (a spreadsheet would take it for a formula), before one that begins
  with an apostrophe itself, and before one with whitespace at either end. Every text cell is
  quoted. In a cell of several labels, each label is escaped on its own.
- Sampan's CSV import drops a leading apostrophe and keeps the rest of the cell exactly as it is;
  any other cell has its surrounding whitespace trimmed, as before.

So every name reads back as it was written (`=HYPERLINK("x")`, `'quoted`, a name starting with a
tab), and a hand-written or spreadsheet-saved `'007` reads as `007`.
"""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
APOSTROPHE = "'"


def escape_cell(text: str) -> str:
    if text.startswith((*FORMULA_STARTS, APOSTROPHE)) or text != text.strip():
        return APOSTROPHE + text
    return text


def read_cell(text: str) -> str:
    return text[1:] if text.startswith(APOSTROPHE) else text.strip()
