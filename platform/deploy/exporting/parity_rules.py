"""What an export's parity check is judged on, and the bound it must meet, as the export
table states it next to the verdict (the checks themselves are in checks.py and
detection_checks.py)."""

from __future__ import annotations

from typing import Any

from deploy.exporting.checks import FLOAT_TOLERANCE, INT8_MIN_AGREEMENT
from deploy.exporting.detection_checks import INT8_MIN_BOX_AGREEMENT

# An OCR export reads the same strings as the pipeline, every polygon corner within this many
# pixels (deploy.exporting.ready.ocr_parity).
OCR_MAX_POLYGON_PX = 1.0


def parity_rule(task: str, int8: bool) -> dict[str, Any]:
    """{"measure", "at_most" | "at_least"}: a float export must reproduce the trained model's
    outputs within FLOAT_TOLERANCE of their scale; an INT8 one is judged on the answers it
    gives (the top class, the label set or the boxes), since its raw outputs move by design."""
    if task == "ocr":
        return {"measure": "polygon_px", "at_most": OCR_MAX_POLYGON_PX}
    if not int8:
        return {"measure": "max_abs_diff", "at_most": FLOAT_TOLERANCE}
    if task == "detection":
        return {"measure": "box_agreement", "at_least": INT8_MIN_BOX_AGREEMENT}
    if task == "multi_label":
        return {"measure": "label_set_agreement", "at_least": INT8_MIN_AGREEMENT}
    return {"measure": "top1_agreement", "at_least": INT8_MIN_AGREEMENT}
