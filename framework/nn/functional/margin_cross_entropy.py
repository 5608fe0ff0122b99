"""`margin_cross_entropy`: the additive / multiplicative angular margin losses of ArcFace,
CosFace and SphereFace in one form (Paddle's `nn.functional.margin_cross_entropy`, one card).

The target logit `cos(t)` becomes `cos(margin1 * t + margin2) - margin3`, every logit is
multiplied by `scale`, and the softmax cross entropy follows. Written with differentiable ops,
so gradients of every order come from them. Paddle has no CPU kernel for it.
"""

from __future__ import annotations

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.softmax import log_softmax
from framework.ops.manipulation.shape import reshape
from framework.ops.manipulation.where import where
from framework.ops.math.trigonometric import acos, cos

_REDUCTIONS = ("mean", "sum", "none", None)


def margin_cross_entropy(
    logits: Tensor,
    label: Tensor,
    margin1: float = 1.0,
    margin2: float = 0.5,
    margin3: float = 0.0,
    scale: float = 64.0,
    group: object = None,
    return_softmax: bool = False,
    reduction: str | None = "mean",
) -> Tensor | tuple[Tensor, Tensor]:
    """The margin softmax loss of cosine logits.

    `logits`: `[N, C]` float32/float64 cosines (normalised features times normalised
    weights, in [-1, 1]); `label`: `[N]` or `[N, 1]` int32/int64. Returns the loss: `[N, 1]`
    for `reduction=None`/'none', else its mean or sum (0-D); with `return_softmax`, also the
    `[N, C]` softmax of the margin logits. The default margins are ArcFace's.

        cos = framework.to_tensor([[0.6, 0.2], [0.1, 0.9]])
        F.margin_cross_entropy(cos, framework.to_tensor([0, 1]), scale=8.0)
    """
    if group not in (None, False):
        raise NotImplementedError("margin_cross_entropy: model-parallel groups are not supported")
    if reduction not in _REDUCTIONS:
        raise ValueError(
            f"The value of 'reduction' in margin_cross_entropy should be 'sum', 'mean' or "
            f"None, but received {reduction}"
        )
    if logits.ndim != 2:
        raise ValueError(f"margin_cross_entropy: logits must be [N, C], got {logits.shape}")
    if label.ndim == 2 and label.shape[1] == 1:
        label = reshape(label, [-1])
    if label.ndim != 1 or label.shape[0] != logits.shape[0]:
        raise ValueError(
            f"margin_cross_entropy: label must be [N] or [N, 1] with N = {logits.shape[0]}, "
            f"got {label.shape}"
        )
    xp = get_array_module(logits._data)
    classes = logits.shape[1]
    target = xp.arange(classes)[None, :] == label._data.astype("int64")[:, None]
    angle = acos(logits)
    margined = cos(angle * margin1 + margin2) - margin3
    logp = log_softmax(where(Tensor._wrap(target), margined, logits) * scale, axis=-1)
    loss = -(logp * Tensor._wrap(target.astype(logp._data.dtype))).sum(axis=1, keepdim=True)
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    return (loss, logp.exp()) if return_softmax else loss
