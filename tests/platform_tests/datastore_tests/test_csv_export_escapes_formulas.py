"""The CSV export escapes cells that spreadsheets would run as formulas, and quotes all text."""

from __future__ import annotations

import csv
import io
import zipfile

from datastore.importing.formats.csvcells import FORMULA_STARTS
from tests.platform_tests.datastore_tests import awkward_names
from tests.platform_tests.datastore_tests.base import DatastoreTestCase
from tests.platform_tests.datastore_tests.exporting import export_archive


class CsvExportEscapingTests(DatastoreTestCase):
    def labels_csv(self, version: object) -> str:
        archive = export_archive(self, version.dataset, "csv", version)
        return zipfile.ZipFile(archive).read("labels.csv").decode()

    def test_it_escapes_cells_that_would_run_as_formulas(self) -> None:
        rows = list(
            csv.reader(io.StringIO(self.labels_csv(awkward_names.classification_version(self))))
        )
        self.assertEqual(rows[0], ["filename", "label", "split"])
        self.assertFalse([cell for row in rows for cell in row if cell.startswith(FORMULA_STARTS)])
        labels = {row[1] for row in rows[1:]}
        for escaped in ['\'=HYPERLINK("x")', "'+1", "'-x", "'@y", "'\tstarts with a tab"]:
            self.assertIn(escaped, labels)
        self.assertIn("''quoted", labels)  # so that the apostrophe itself comes back
        self.assertIn("' padded ", labels)  # so that the spaces are kept, not trimmed
        self.assertIn("缺陷", labels)
        self.assertIn("two words", labels)

    def test_it_quotes_every_text_cell_and_leaves_numbers_bare(self) -> None:
        text = self.labels_csv(awkward_names.detection_version(self))
        # Read this way, any unquoted cell is taken for a number: text cells must all be quoted.
        rows = list(csv.reader(io.StringIO(text), quoting=csv.QUOTE_NONNUMERIC))
        for row in rows[1:]:
            filename, label, xmin, ymin, xmax, ymax, split = row
            self.assertIsInstance(filename, str)
            self.assertIsInstance(label, str)
            self.assertIsInstance(xmin, float)
            self.assertIsInstance(ymax, float)
            self.assertIn(split, ("train", "val", "test"))
        self.assertIn("'-x", {row[1] for row in rows})
