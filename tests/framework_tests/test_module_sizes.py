"""No framework module is over 500 lines (issue 22): a module past that is split by topic into a
package whose `__init__` re-exports the old names (see `framework/nn/layer/activation/`)."""

from __future__ import annotations

from pathlib import Path

import framework

LIMIT = 500
_ROOT = Path(framework.__file__).parent


def line_counts(root: Path) -> dict[str, int]:
    """Lines of each `*.py` file under `root`, as `wc -l` counts them, by path from `root`."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes().count(b"\n")
        for path in sorted(root.rglob("*.py"))
    }


def test_it_counts_lines_as_wc_does(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "three.py").write_text("a = 1\n\nb = 2\n")
    (tmp_path / "no_newline_at_end.py").write_text("a = 1\nb = 2")
    (tmp_path / "notes.txt").write_text("\n" * 900)
    assert line_counts(tmp_path) == {"no_newline_at_end.py": 1, "pkg/three.py": 3}


def test_it_finds_the_framework_modules() -> None:
    counts = line_counts(_ROOT)
    assert "__init__.py" in counts and "nn/layer/activation/__init__.py" in counts
    assert len(counts) > 300


def test_no_framework_module_is_over_the_limit() -> None:
    over = {path: lines for path, lines in line_counts(_ROOT).items() if lines > LIMIT}
    assert not over, f"framework modules over {LIMIT} lines, split them by topic: " + ", ".join(
        f"{path} ({lines})" for path, lines in sorted(over.items(), key=lambda item: -item[1])
    )
