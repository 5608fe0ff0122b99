from __future__ import annotations

from pathlib import Path

from PIL import ImageEnhance

from datastore.importing.checks import find_near_duplicates
from datastore.importing.limits import ImportLimits
from datastore.importing.pipeline import KnownSamples
from tests.platform_tests.datastore_tests.sample_images import class_folders, photo, save


def test_it_flags_exact_and_near_duplicates(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    save(photo("astronaut"), root / "astronaut.png")
    save(photo("astronaut"), root / "copy" / "astronaut.png")
    brighter = ImageEnhance.Brightness(photo("coffee")).enhance(1.1)
    save(photo("coffee"), root / "coffee.png")
    save(brighter, root / "coffee_brighter.jpg")
    save(photo("rocket"), root / "rocket.png")
    prepared = run_import(root)
    found = {(p.code, p.file): p for p in prepared.report.problems}
    assert "'astronaut.png'" in found[("duplicate", "copy/astronaut.png")].reason
    assert "'coffee.png'" in found[("near_duplicate", "coffee_brighter.jpg")].reason
    assert not any(p.file == "rocket.png" for p in prepared.report.problems)
    flagged = {s.source: s.problems for s in prepared.samples}
    assert flagged["copy/astronaut.png"] == ["duplicate"]
    assert flagged["rocket.png"] == []


def test_it_skips_images_the_dataset_already_holds(tmp_path: Path, run_import) -> None:
    save(photo("chelsea"), tmp_path / "src" / "cat.png")
    first = run_import(tmp_path / "src")
    known = KnownSamples(content_hashes={first.samples[0].info.content_hash: "cat.png"})
    again = run_import(tmp_path / "src", known=known)
    assert again.samples == [] and again.skipped == 1
    assert again.report.problems[0].code == "already_imported"


def test_near_duplicates_are_found_through_any_band() -> None:
    base = 0x0123_4567_89AB_CDEF_0123_4567_89AB_CDEF
    spread = base ^ (1 << 127) ^ (1 << 90) ^ (1 << 40) ^ 1  # 4 bits apart, in different bands
    far = base ^ ((1 << 128) - 1)
    hashes = [
        (name, f"{value:032x}")
        for name, value in [("a", base), ("b", base ^ 0b1111), ("c", spread), ("d", far)]
    ]
    matches = find_near_duplicates(hashes, max_bits=4)
    assert matches == {"b": "a", "c": "a"}


def test_near_duplicates_compare_with_known_samples() -> None:
    old, new = f"{42:032x}", f"{42 ^ 3:032x}"
    matches = find_near_duplicates([("new", new)], max_bits=4, known={"old": old})
    assert matches == {"new": "old"}


def test_it_warns_about_small_and_imbalanced_classes(tmp_path: Path, run_import) -> None:
    class_folders(tmp_path / "src", labels=(0,), per_class=12)
    class_folders(tmp_path / "src", labels=(1,), per_class=1)
    prepared = run_import(tmp_path / "src", limits=ImportLimits(min_samples_per_class=5))
    few = next(p for p in prepared.report.problems if p.code == "class_too_few")
    assert few.where == "class '1'" and "only 1 labeled sample;" in few.reason
    imbalance = next(p for p in prepared.report.problems if p.code == "class_imbalance")
    assert "'0' has 12 samples but '1' has 1" in imbalance.reason
    assert "class weights" in imbalance.fix
