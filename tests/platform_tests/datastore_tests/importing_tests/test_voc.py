from __future__ import annotations

from pathlib import Path

from datastore.importing.formats.base import Format
from tests.platform_tests.datastore_tests.sample_images import photo, save

VOC = """<annotation>
  <folder>JPEGImages</folder>
  <filename>{name}</filename>
  <size><width>{w}</width><height>{h}</height><depth>3</depth></size>
  {objects}
</annotation>"""
OBJECT = (
    "<object><name>{label}</name><bndbox><xmin>{x0}</xmin><ymin>{y0}</ymin>"
    "<xmax>{x1}</xmax><ymax>{y1}</ymax></bndbox></object>"
)


def write_voc(root: Path, name: str, objects: list[tuple], xml_text: str | None = None) -> None:
    image = photo(name)
    save(image, root / "JPEGImages" / f"{name}.jpg")
    body = "".join(OBJECT.format(label=o[0], x0=o[1], y0=o[2], x1=o[3], y1=o[4]) for o in objects)
    text = xml_text or VOC.format(name=f"{name}.jpg", w=image.width, h=image.height, objects=body)
    (root / "Annotations").mkdir(parents=True, exist_ok=True)
    (root / "Annotations" / f"{name}.xml").write_text(text)


def test_it_reads_voc_objects(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    write_voc(root, "chelsea", [("cat", 140, 20, 330, 290)])
    write_voc(root, "rocket", [("rocket", 280, 10, 360, 400), ("tower", 180, 0, 260, 420)])
    (root / "train_list.txt").write_text("JPEGImages/chelsea.jpg Annotations/chelsea.xml\n")
    prepared = run_import(root, detection=True)
    assert prepared.format == Format.VOC
    by_source = {s.source: s for s in prepared.samples}
    rocket = by_source["JPEGImages/rocket.jpg"]
    assert [(b.label, b.x, b.y, b.w, b.h) for b in rocket.boxes] == [
        ("rocket", 280, 10, 80, 390),
        ("tower", 180, 0, 80, 420),
    ]
    assert by_source["JPEGImages/chelsea.jpg"].split == "train"
    assert set(prepared.classes) == {"cat", "rocket", "tower"}


def test_it_points_to_the_broken_line_of_bad_xml(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    write_voc(root, "coffee", [], xml_text="<annotation>\n<filename>coffee.jpg\n</annotation>")
    write_voc(root, "chelsea", [("cat", 140, 20, "wide", 290)])
    prepared = run_import(root, detection=True)
    broken = next(p for p in prepared.report.problems if p.file == "Annotations/coffee.xml")
    assert broken.code == "malformed_file"
    assert broken.where.startswith("line 3")
    field = next(p for p in prepared.report.problems if p.file == "Annotations/chelsea.xml")
    assert (field.code, field.where) == ("malformed_field", "object[0]/bndbox/xmax")


def test_it_refuses_xml_with_entity_declarations(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
        '<!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><annotation><filename>&lol2;</filename>'
        "</annotation>"
    )
    write_voc(root, "coffee", [], xml_text=bomb)
    write_voc(root, "chelsea", [("cat", 140, 20, 330, 290)])
    prepared = run_import(root, detection=True)
    refused = next(p for p in prepared.report.problems if p.file == "Annotations/coffee.xml")
    assert "DOCTYPE" in refused.reason
