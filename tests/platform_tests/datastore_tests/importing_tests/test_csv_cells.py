"""The CSV escaping rule: formulas are escaped on export and every name reads back as it was."""

from __future__ import annotations

import csv
import io

import pytest

from datastore.importing.formats.csvcells import escape_cell, read_cell

NAMES = [
    "cat",
    "缺陷",
    '=HYPERLINK("http://x","y")',
    "+1",
    "-x",
    "@SUM(A1)",
    "\tstarts with a tab",
    "\rstarts with a carriage return",
    "'quoted",
    "'=already escaped",
    "'",
    "''",
    " padded ",
    "trailing\t",
    "a, with a comma",
    'a "quote" inside',
]


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_it_escapes_a_cell_that_would_run_as_a_formula(start: str) -> None:
    assert escape_cell(f"{start}cmd") == f"'{start}cmd"


def test_it_leaves_plain_cells_alone() -> None:
    assert escape_cell("cat") == "cat"
    assert escape_cell("a=b") == "a=b"
    assert escape_cell("images/0000001_x.png") == "images/0000001_x.png"


@pytest.mark.parametrize("name", NAMES)
def test_every_name_reads_back_as_it_was_written(name: str) -> None:
    text = io.StringIO()
    csv.writer(text, quoting=csv.QUOTE_NONNUMERIC).writerow([escape_cell(name), 1.5])
    cell, number = next(csv.reader(io.StringIO(text.getvalue(), newline="")))
    assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert read_cell(cell) == name
    assert number == "1.5"


def test_it_reads_a_leading_apostrophe_as_a_text_marker() -> None:
    assert read_cell("'007") == "007"
    assert read_cell("  cat ") == "cat"
