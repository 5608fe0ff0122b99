"""Class names become safe, distinct folder names, and labels.txt brings the names back."""

from __future__ import annotations

import pytest

from datastore.importing.formats.class_folder_names import (
    class_folder_names,
    labels_file,
    read_labels_file,
    safe_folder_name,
)


@pytest.mark.parametrize(
    ("name", "folder"),
    [
        ("cat", "cat"),
        ("缺陷", "缺陷"),
        ("two words", "two words"),
        ("../evil", "_evil"),
        ("..", "_"),
        (".", "_"),
        ("", "_"),
        ("   ", "_"),
        (".hidden", "hidden"),
        ("ends with a dot.", "ends with a dot"),
        ("a/b", "a_b"),
        ("a\\b", "a_b"),
        ('<a>:"b"|?*', "_a___b____"),
        ("\tstarts with a tab", "_starts with a tab"),
        ("line\nbreak", "line_break"),
        ("evil\u202egnp.exe", "evil_gnp.exe"),
        ("cafe\u0301", "café"),
        ("CON", "CON_"),
        ("nul.txt", "nul_.txt"),
        ("COM1", "COM1_"),
        ("CONSOLE", "CONSOLE"),
        ("train", "train_"),
        ("Validation", "Validation_"),
        ("__MACOSX", "__MACOSX_"),
        ("labels.txt", "labels_.txt"),
        ("x" * 300, "x" * 100),
        ("缺" * 50, "缺" * 33),  # 3 bytes each: 33 fit in 100 bytes
    ],
)
def test_it_makes_a_class_name_a_safe_folder_name(name: str, folder: str) -> None:
    assert safe_folder_name(name) == folder


def test_it_keeps_folder_names_distinct_ignoring_case() -> None:
    folders = class_folder_names(["a/b", "a:b", "a_b", "Cat", "cat", "CON", "con"])
    assert folders == {
        "a/b": "a_b",
        "a:b": "a_b_2",
        "a_b": "a_b_3",
        "Cat": "Cat",
        "cat": "cat_2",
        "CON": "CON_",
        "con": "con__2",
    }


def test_labels_txt_reads_back_every_name() -> None:
    names = ["plain", "a\\nb", "line\nbreak", "cr\rhere", "tab\tinside", "para\u2028sep", "\\"]
    folders = class_folder_names(names)
    mapping = read_labels_file(labels_file(folders))
    assert mapping == {folder: name for name, folder in folders.items()}


def test_labels_txt_lines_without_a_tab_map_nothing() -> None:
    assert read_labels_file("cat\ndog\n") == {}
    assert read_labels_file("a_b\ta/b\r\nc\tc\r\n") == {"a_b": "a/b", "c": "c"}
