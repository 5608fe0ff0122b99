"""Pure-Python import and validation, free of Django models: testable without a database.

The pipeline reads an upload (plain files and zips, extracted safely) as a `SourceTree`, detects
its format, reads its labels, inspects every image and returns a `PreparedImport`: the samples to
create and a `Report` of every problem found, each with the file, the line or field, a reason and
a suggested fix.
"""
