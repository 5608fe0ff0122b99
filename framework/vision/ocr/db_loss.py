"""The DB text detector's training loss, as PaddleOCR's `DBLoss`:

- the shrink (probability) map: binary cross-entropy with online hard negative mining: the
  positives and the `ohem_ratio` times as many negatives with the largest loss;
- the threshold map: L1 inside the threshold mask;
- the approximate binary map: dice loss against the shrink map inside the shrink mask.

`loss = alpha * shrink + beta * threshold + binary`. Built from differentiable framework ops.

PaddleOCR's class default and its shipped configs set `main_loss_type="DiceLoss"`, under which
the "balanced" shrink-map term is a plain dice loss (every pixel carries the same loss, so the
mining picks nothing); this module defaults to the DB paper's balanced BCE ("BCELoss") and
takes `main_loss_type="DiceLoss"` to reproduce PaddleOCR's numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import framework
import framework.nn.functional as F
from framework.core.tensor import Tensor
from framework.nn.layer.layers import Layer

_MAIN_LOSSES = ("BCELoss", "DiceLoss")


def _as_tensor(value) -> Tensor:
    return value if isinstance(value, Tensor) else framework.to_tensor(value)


def _check_same_shape(name: str, pred: Tensor, **labels: Tensor) -> None:
    for label_name, label in labels.items():
        if list(label.shape) != list(pred.shape):
            raise ValueError(
                f"{name}: {label_name} has shape {list(label.shape)}, "
                f"the prediction {list(pred.shape)}"
            )


def balanced_bce_loss(
    pred: Tensor,
    gt: Tensor,
    mask: Tensor,
    negative_ratio: float = 3.0,
    eps: float = 1e-6,
    from_logits: bool = False,
) -> Tensor:
    """BCE over the positives (`gt * mask`) and the `negative_ratio * positives` negatives
    (`(1 - gt) * mask`) with the largest loss, summed and divided by the number of pixels
    kept (PaddleOCR's `BalanceLoss` with `BCELoss`).

    `pred` holds probabilities in [0, 1], or logits with `from_logits=True` (the stable
    form: a saturated sigmoid, p = 1.0 in float32, passes no gradient to its logit, so a
    confident mistake would never be corrected); `pred`, `gt`, `mask` are float tensors of
    one shape (`[N, H, W]`), `gt` and `mask` 0/1. Returns a 0-D tensor.

        loss = balanced_bce_loss(prob, shrink_map, shrink_mask)
    """
    _check_same_shape("balanced_bce_loss", pred, gt=gt, mask=mask)
    positive = gt * mask
    negative = (1 - gt) * mask
    positive_count = int(positive.sum().item())
    negative_count = int(min(negative.sum().item(), positive_count * negative_ratio))
    if from_logits:
        loss = F.binary_cross_entropy_with_logits(pred, gt, reduction="none")
    else:
        loss = F.binary_cross_entropy(pred, gt, reduction="none")
    positive_loss = (positive * loss).sum()
    if negative_count == 0:
        return positive_loss / (positive_count + eps)
    hardest, _ = framework.topk((negative * loss).reshape([-1]), negative_count)
    return (positive_loss + hardest.sum()) / (positive_count + negative_count + eps)


def mask_l1_loss(pred: Tensor, gt: Tensor, mask: Tensor, eps: float = 1e-6) -> Tensor:
    """`sum(|pred - gt| * mask) / (sum(mask) + eps)` (PaddleOCR's `MaskL1Loss`); float
    tensors of one shape, returns a 0-D tensor.

        loss = mask_l1_loss(thresholds, threshold_map, threshold_mask)
    """
    _check_same_shape("mask_l1_loss", pred, gt=gt, mask=mask)
    return ((pred - gt).abs() * mask).sum() / (mask.sum() + eps)


def db_dice_loss(pred: Tensor, gt: Tensor, mask: Tensor, eps: float = 1e-6) -> Tensor:
    """`1 - 2 sum(pred * gt * mask) / (sum(pred * mask) + sum(gt * mask) + eps)` (PaddleOCR's
    `DiceLoss`); float tensors of one shape, returns a 0-D tensor.

        loss = db_dice_loss(binary, shrink_map, shrink_mask)
    """
    _check_same_shape("db_dice_loss", pred, gt=gt, mask=mask)
    intersection = (pred * gt * mask).sum()
    union = (pred * mask).sum() + (gt * mask).sum() + eps
    return 1 - 2.0 * intersection / union


class DBLoss(Layer):
    """The DB detector's loss (PaddleOCR's `ppocr.losses.DBLoss`).

    Args:
        balance_loss: mine hard negatives in the shrink-map term (else the mean over the
            shrink mask).
        main_loss_type: "BCELoss" (default, the DB paper) or "DiceLoss" (PaddleOCR's
            configs) for the shrink-map term.
        alpha: weight of the shrink-map term.
        beta: weight of the threshold-map L1.
        ohem_ratio: negatives kept per positive in the shrink-map term.

    Call it as `loss_fn(maps, shrink_map, shrink_mask, threshold_map, threshold_mask)` or as
    PaddleOCR does, `loss_fn({"maps": maps}, [image, threshold_map, threshold_mask,
    shrink_map, shrink_mask])`. `maps` is the training head's `[N, 3, H, W]` float output
    (shrink probabilities, thresholds, approximate binary map, all in [0, 1]); the labels are
    `[N, H, W]` float (see `make_db_labels`). Returns a dict of 0-D tensors: "loss" and its
    terms "loss_shrink_maps" (times alpha), "loss_threshold_maps" (times beta),
    "loss_binary_maps".

        loss_fn = DBLoss()
        losses = loss_fn(maps, shrink_map, shrink_mask, threshold_map, threshold_mask)
        losses["loss"].backward()
    """

    def __init__(
        self,
        balance_loss: bool = True,
        main_loss_type: str = "BCELoss",
        alpha: float = 5.0,
        beta: float = 10.0,
        ohem_ratio: float = 3.0,
        eps: float = 1e-6,
        **kwargs,
    ) -> None:
        super().__init__()
        if main_loss_type not in _MAIN_LOSSES:
            raise ValueError(f"DBLoss: main_loss_type must be one of {_MAIN_LOSSES}")
        self.balance_loss = balance_loss
        self.main_loss_type = main_loss_type
        self.alpha = alpha
        self.beta = beta
        self.ohem_ratio = ohem_ratio
        self.eps = eps

    def _shrink_loss(self, pred: Tensor, gt: Tensor, mask: Tensor) -> Tensor:
        if self.main_loss_type == "BCELoss":
            if self.balance_loss:
                return balanced_bce_loss(pred, gt, mask, self.ohem_ratio, self.eps)
            # the mean over the mask (PaddleOCR returns the unreduced map here)
            loss = F.binary_cross_entropy(pred, gt, reduction="none")
            return (loss * mask).sum() / (mask.sum() + self.eps)
        loss = db_dice_loss(pred, gt, mask, self.eps)
        if not self.balance_loss:
            return loss
        # PaddleOCR's BalanceLoss around a scalar loss: every kept pixel carries `loss`
        positive_count = int((gt * mask).sum().item())
        negative_count = int(min(((1 - gt) * mask).sum().item(), positive_count * self.ohem_ratio))
        kept = positive_count + negative_count
        return loss * (kept / (kept + self.eps))

    def forward(self, predicts, *labels) -> dict[str, Tensor]:
        maps = predicts["maps"] if isinstance(predicts, Mapping) else predicts
        if len(labels) == 1 and isinstance(labels[0], Sequence):
            if len(labels[0]) != 5:
                raise ValueError(
                    "DBLoss: PaddleOCR-style labels are [image, threshold_map, "
                    f"threshold_mask, shrink_map, shrink_mask], got {len(labels[0])} items"
                )
            threshold_map, threshold_mask, shrink_map, shrink_mask = labels[0][1:]
        elif len(labels) == 4:
            shrink_map, shrink_mask, threshold_map, threshold_mask = labels
        else:
            raise ValueError(
                "DBLoss takes (maps, shrink_map, shrink_mask, threshold_map, threshold_mask) "
                "or ({'maps': maps}, labels)"
            )
        maps = _as_tensor(maps)
        shrink_map, shrink_mask, threshold_map, threshold_mask = (
            _as_tensor(t) for t in (shrink_map, shrink_mask, threshold_map, threshold_mask)
        )
        if maps.ndim != 4 or maps.shape[1] != 3:
            raise ValueError(f"DBLoss takes [N, 3, H, W] maps, got {list(maps.shape)}")
        expected = [maps.shape[0], *maps.shape[2:]]
        for name, label in (
            ("shrink_map", shrink_map),
            ("shrink_mask", shrink_mask),
            ("threshold_map", threshold_map),
            ("threshold_mask", threshold_mask),
        ):
            if list(label.shape) != expected:
                raise ValueError(
                    f"DBLoss: {name} must be [N, H, W] = {expected}, got {list(label.shape)}"
                )
        shrink = self._shrink_loss(maps[:, 0], shrink_map, shrink_mask)
        threshold = mask_l1_loss(maps[:, 1], threshold_map, threshold_mask, self.eps)
        binary = db_dice_loss(maps[:, 2], shrink_map, shrink_mask, self.eps)
        shrink = self.alpha * shrink
        threshold = self.beta * threshold
        return {
            "loss": shrink + threshold + binary,
            "loss_shrink_maps": shrink,
            "loss_threshold_maps": threshold,
            "loss_binary_maps": binary,
        }

    def extra_repr(self) -> str:
        return (
            f"main_loss_type={self.main_loss_type!r}, alpha={self.alpha}, beta={self.beta}, "
            f"ohem_ratio={self.ohem_ratio}"
        )
