"""PPOCRLabel's Label.txt and rec_gt.txt, and ICDAR 2015 ground truth: read and written back
exactly; a bad file fails whole, naming each bad line; an overlong line is refused after a
bounded read."""

from __future__ import annotations

import io

import numpy as np
import pytest

from framework.vision.ocr.label_files import (
    MAX_LINE_CHARS,
    LabelFileError,
    TextImage,
    TextLine,
    read_icdar,
    read_label_txt,
    read_rec_gt,
    write_icdar,
    write_label_txt,
    write_rec_gt,
)

# As PPOCRLabel writes it: integer pixels, ensure_ascii off, one image per line.
LABEL_TXT = (
    'receipts/1.jpg\t[{"transcription": "合计金额：128.01", "points": [[10, 20], [200, 20], '
    '[200, 52], [10, 52]], "difficult": false}, {"transcription": "###", "points": [[5, 60], '
    '[90, 60], [90, 80], [5, 80]], "difficult": false}]\n'
    'receipts/2.jpg\t[{"transcription": "Total", "points": [[1.5, 2], [40, 2], [44, 10], '
    '[40, 18], [1.5, 18], [0, 10]], "difficult": true}]\n'
    "receipts/3.jpg\t[]\n"
)


def test_label_txt_reads_every_line_and_writes_it_back_exactly() -> None:
    images = read_label_txt(io.StringIO(LABEL_TXT))
    assert [image.path for image in images] == [
        "receipts/1.jpg",
        "receipts/2.jpg",
        "receipts/3.jpg",
    ]
    first, ignored = images[0].lines
    assert first.transcription == "合计金额：128.01" and not first.ignore
    np.testing.assert_array_equal(first.points, [[10, 20], [200, 20], [200, 52], [10, 52]])
    assert ignored.ignore  # "###"
    (hexagon,) = images[1].lines
    assert hexagon.points.shape == (6, 2) and hexagon.ignore  # difficult
    out = io.StringIO()
    write_label_txt(images, out)
    assert out.getvalue() == LABEL_TXT


def test_a_bad_label_txt_fails_whole_naming_each_bad_line() -> None:
    text = (
        LABEL_TXT
        + 'a.jpg\t[{"transcription": "x", "points": [[0, 0], [1, 1]]}]\n'  # 2 points
        + "b.jpg [no tab]\n"
        + 'c.jpg\t[{"transcription": "x", "points": [[0, 0], [1, 0], [1, "y"]]}]\n'
        + 'd.jpg\t[{"transcription": 5, "points": [[0, 0], [1, 0], [1, 1]]}]\n'
        + "e.jpg\t[{broken json\n"
        + "receipts/1.jpg\t[]\n"  # listed again
    )
    with pytest.raises(LabelFileError) as caught:
        read_label_txt(io.StringIO(text))
    lines = [number for number, _ in caught.value.problems]
    assert lines == [4, 5, 6, 7, 8, 9]
    message = str(caught.value)
    assert message.startswith("Label.txt: 6 bad lines: line 4: points must be at least 3")
    assert "line 5: expected an image path, a tab" in message
    assert "line 7: transcription must be a string" in message
    assert "line 9: receipts/1.jpg is listed again (first on line 1)" in message


class CountingStream(io.StringIO):
    """Remembers the largest read it was asked for."""

    largest = 0

    def readline(self, size: int = -1) -> str:
        self.largest = max(self.largest, size)
        return super().readline(size)


def test_an_overlong_line_is_refused_after_a_bounded_read() -> None:
    stream = CountingStream("x.jpg\t[" + " " * (3 * MAX_LINE_CHARS) + "]\n")
    with pytest.raises(LabelFileError, match="line 1: longer than 1,000,000 characters"):
        read_label_txt(stream)
    assert 0 < stream.largest <= MAX_LINE_CHARS + 1


def test_rec_gt_round_trip_and_errors() -> None:
    text = "crops/0001.png\t发票号码：20261202\ncrops/0002.png\tTotal: 1,234.50\n"
    pairs = read_rec_gt(io.StringIO(text))
    assert pairs == [
        ("crops/0001.png", "发票号码：20261202"),
        ("crops/0002.png", "Total: 1,234.50"),
    ]
    out = io.StringIO()
    write_rec_gt(pairs, out)
    assert out.getvalue() == text
    with pytest.raises(LabelFileError, match="line 2: expected a crop path, a tab"):
        read_rec_gt(io.StringIO("a.png\tok\nno tab here\n"))
    with pytest.raises(ValueError, match="line break"):
        write_rec_gt([("a.png", "two\nlines")], io.StringIO())


def test_icdar_ground_truth_with_commas_a_bom_and_illegible_lines() -> None:
    text = (
        "\ufeff377,117,463,117,465,130,378,130,Genaxis Theatre\n"
        "493,115,519,115,519,131,493,131,###\n"
        "10,10,90,10,90,30,10,30,1,234.50\n"
    )
    lines = read_icdar(io.StringIO(text))
    assert [line.transcription for line in lines] == ["Genaxis Theatre", "###", "1,234.50"]
    assert [line.ignore for line in lines] == [False, True, False]
    np.testing.assert_array_equal(lines[0].points[0], [377, 117])
    out = io.StringIO()
    write_icdar(lines, out)
    assert out.getvalue() == text.lstrip("\ufeff")
    with pytest.raises(LabelFileError, match="line 1: expected 8 coordinates"):
        read_icdar(io.StringIO("1,2,3,4,text\n"))
    with pytest.raises(ValueError, match="quadrilaterals, not 6 points"):
        write_icdar([TextLine(np.zeros((6, 2)), "x")], io.StringIO())


def test_images_without_lines_and_blank_lines() -> None:
    images = read_label_txt(io.StringIO("\nempty.jpg\t[]\n\n"))
    assert images == [TextImage("empty.jpg", [])]
