"""Size and safety limits for one import. Django settings fill these in; tests pass their own."""

from __future__ import annotations

from dataclasses import dataclass

MIB = 1024 * 1024


@dataclass(frozen=True)
class ImportLimits:
    max_upload_bytes: int = 2048 * MIB  # any single uploaded file, zip or image
    max_extracted_bytes: int = 8192 * MIB  # everything a zip expands to, summed
    max_compression_ratio: float = 100.0  # uncompressed / compressed, per entry and overall
    ratio_floor_bytes: int = 1 * MIB  # entries smaller than this are too small to be a bomb
    # Any one label file (JSON, CSV, XML, txt, YAML): readers hold one whole in memory at a
    # time, and parsed JSON takes several times its size, so this bounds an import's memory.
    max_label_file_bytes: int = 256 * MIB
    max_label_json_depth: int = 100  # real label files nest under 10 levels
    max_class_name_chars: int = 100  # what a dataset's LabelClass.name holds
    max_files: int = 1_000_000
    max_image_pixels: int = 64_000_000  # width * height; Pillow's own guard stays on as well
    min_image_side: int = 16
    thumbnail_side: int = 160
    near_duplicate_bits: int = 5  # 128-bit perceptual hashes this close (Hamming) are near-copies
    min_samples_per_class: int = 10
    max_imbalance_ratio: float = 10.0
