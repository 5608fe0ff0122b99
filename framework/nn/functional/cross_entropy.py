"""cross_entropy, softmax_with_cross_entropy and nll_loss, with Paddle's semantics.

`SoftmaxCrossEntropy` fuses a numerically stable log-softmax with the negative log-likelihood:
forward keeps only the softmax, and backward is `(softmax * sum(y) - y) * coefficient` in one
pass (for hard labels, softmax with the label's entry reduced). `NLLAlongAxis` is the same on
log-probabilities. Labels (and `weight`) are constants: no gradient flows to them.

Paddle's rules, which this module follows exactly:
- hard labels have the input's shape without the class axis, or with 1 there (then the
  unreduced loss keeps that axis); `label_smoothing > 0` turns them into soft labels
  `(1 - eps) * one_hot + eps / C`, and the unreduced loss keeps the axis;
- a sample's weight is `weight[label]` (hard) or `sum_c label_c * weight_c` (soft);
- 'mean' divides the (weighted) sum by the sum of the sample weights when `weight` is given,
  by the number of non-ignored samples when `ignore_index >= 0`, and otherwise by the number
  of samples (so with the default ignore_index=-100, ignored samples count as zeros);
- nll_loss's 'mean' divides by the summed weight of the non-ignored samples.
"""

from __future__ import annotations

from framework.amp.auto_cast import amp_cast
from framework.core.autograd import Function, is_grad_enabled
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.loss_terms import check_reduction
from framework.nn.functional.softmax import softmax


class Targets:
    """Labels prepared for one loss call, all as arrays in the keep-dims layout (the class
    axis present with size 1): `index` (hard) or `soft`, the per-sample `weight` (or None),
    the divisor for 'mean', and whether the unreduced loss keeps the class axis."""

    __slots__ = ("axis", "index", "soft", "weight", "divisor", "reduction", "keep_axis")

    def __init__(self, axis, index, soft, weight, divisor, reduction, keep_axis) -> None:
        self.axis = axis
        self.index = index
        self.soft = soft
        self.weight = weight
        self.divisor = divisor
        self.reduction = reduction
        self.keep_axis = keep_axis

    def reduce(self, loss):
        """`loss` is per sample (keep-dims layout) and already weighted."""
        if self.reduction == "sum":
            return loss.sum()
        if self.reduction == "mean":
            if not self.divisor:  # no samples at all: NaN, as Paddle, without NumPy's warning
                return loss.sum() * loss.dtype.type("nan")
            return loss.sum() / loss.dtype.type(self.divisor)
        return loss if self.keep_axis else loss.squeeze(self.axis)

    def coefficient(self, gy):
        """d(output)/d(per-sample loss) times the incoming gradient, as an array."""
        g = gy._data
        if self.reduction == "none" and not self.keep_axis:
            g = get_array_module(g).expand_dims(g, self.axis)
        elif self.reduction == "mean":
            g = g / g.dtype.type(self.divisor or 1.0)  # 0 only when there are no samples
        return g if self.weight is None else g * self.weight

    def graph_coefficient(self, gy: Tensor, shape: list[int]) -> Tensor:
        if self.reduction == "none" and not self.keep_axis:
            gy = gy.unsqueeze(self.axis)
        elif self.reduction == "mean":
            gy = gy / (self.divisor or 1.0)
        return gy if self.weight is None else gy * Tensor._wrap(self.weight)

    def one_hot(self, like):
        """The labels as a dense array shaped like `like` (for recorded backwards)."""
        if self.soft is not None:
            return self.soft
        xp = get_array_module(like)
        dense = xp.zeros_like(like)
        xp.put_along_axis(dense, self.index, 1, self.axis)
        return dense


class SoftmaxCrossEntropy(Function):
    def __init__(self, targets: Targets) -> None:
        self.targets = targets

    def forward(self, x):
        self.retain_inputs(0)
        xp = get_array_module(x)
        t = self.targets
        shifted = x - x.max(axis=t.axis, keepdims=True)
        if t.soft is None:
            picked = xp.take_along_axis(shifted, t.index, t.axis)
        else:
            picked = (t.soft * shifted).sum(axis=t.axis, keepdims=True)
            self.label_sum = t.soft.sum(axis=t.axis, keepdims=True)
        xp.exp(shifted, out=shifted)
        total = shifted.sum(axis=t.axis, keepdims=True)
        shifted /= total
        self.softmax = shifted
        loss = xp.log(total)
        if t.soft is not None:
            loss *= self.label_sum
        loss -= picked
        if t.weight is not None:
            loss *= t.weight
        return t.reduce(loss)

    def backward(self, gy: Tensor) -> Tensor:
        t = self.targets
        # Two formulas: the array one measurably pays (benchmarks/backward_formulas.py).
        if is_grad_enabled():
            (x,) = self.saved_inputs()
            labels = Tensor._wrap(t.one_hot(x._data))
            p = softmax(x, t.axis)
            if t.soft is not None:
                p = p * Tensor._wrap(self.label_sum)
            return (p - labels) * t.graph_coefficient(gy, x.shape)
        xp = get_array_module(self.softmax)
        c = t.coefficient(gy)
        if t.soft is None:
            gx = self.softmax * c
            picked = xp.take_along_axis(gx, t.index, t.axis)
            picked -= c
            xp.put_along_axis(gx, t.index, picked, t.axis)
        else:
            gx = self.softmax * self.label_sum
            gx -= t.soft
            gx *= c
        return Tensor._wrap(gx)

    def release(self) -> None:
        super().release()
        self.softmax = None


class NLLAlongAxis(Function):
    """`-sum_c y_c * logp_c` (soft) or `-logp[label]` (hard) along the class axis."""

    def __init__(self, targets: Targets) -> None:
        self.targets = targets

    def forward(self, logp):
        self.shape, self.dtype = logp.shape, logp.dtype
        xp = get_array_module(logp)
        t = self.targets
        if t.soft is None:
            loss = -xp.take_along_axis(logp, t.index, t.axis)
        else:
            loss = -(t.soft * logp).sum(axis=t.axis, keepdims=True)
        if t.weight is not None:
            loss *= t.weight
        return t.reduce(loss)

    def backward(self, gy: Tensor) -> Tensor:
        t = self.targets
        xp = get_array_module(gy._data)
        dense = t.one_hot(xp.zeros(self.shape, dtype=self.dtype))
        return Tensor._wrap(-dense) * t.graph_coefficient(gy, list(self.shape))


def _label_array(label: object, like: Tensor):
    xp = get_array_module(like._data)
    return label._data if isinstance(label, Tensor) else xp.asarray(label)


def _hard_index(label, input: Tensor, axis: int, loss: str):
    """Labels as an int array with the class axis present (size 1); and whether it was."""
    xp = get_array_module(label)
    if label.dtype.kind == "f" and bool((label == xp.floor(label)).all()):
        label = label.astype(xp.int64)  # whole-number float labels, as Paddle casts them
    if label.dtype.kind not in "iu":
        raise TypeError(
            f"{loss} got labels of dtype {label.dtype} with fractional values for hard labels; "
            "pass integer class indices, or soft_label=True for probabilities"
        )
    shape = list(input.shape)
    expected = shape[:axis] + shape[axis + 1 :]
    if label.ndim == input.ndim - 1 and list(label.shape) == expected:
        return xp.expand_dims(label, axis), False
    if label.ndim == input.ndim and list(label.shape) == shape[:axis] + [1] + shape[axis + 1 :]:
        return label, True
    raise ValueError(
        f"{loss} expects hard labels of shape {expected} (or with 1 at axis {axis}) for an "
        f"input of shape {shape}, got labels of shape {list(label.shape)}"
    )


def prepare_hard(label, input, weight, ignore_index, reduction, axis, loss, nll=False):
    index, keep_axis = _hard_index(label, input, axis, loss)
    xp = get_array_module(index)
    classes = input.shape[axis]
    valid = index != ignore_index
    checked = index[valid] if not valid.all() else index
    if checked.size and (int(checked.min()) < 0 or int(checked.max()) >= classes):
        bad = int(checked.min()) if int(checked.min()) < 0 else int(checked.max())
        raise ValueError(
            f"{loss} got label {bad}, outside [0, {classes}) for an input with {classes} "
            f"classes along axis {axis} (ignore_index={ignore_index})"
        )
    all_valid = bool(valid.all())
    safe = index if all_valid else xp.where(valid, index, 0)
    sample_weight = None
    if weight is not None:
        if weight.shape[-1] != classes:
            raise ValueError(
                f"input's class_dimension({classes}) must equal to weight's "
                f"class_dimension({weight.shape[-1]}) when weight is provided"
            )
        sample_weight = weight._data[safe].astype(input.dtype, copy=False)
        if not all_valid:
            sample_weight = sample_weight * valid
    elif not all_valid:
        sample_weight = valid.astype(input.dtype)
    if weight is not None:
        divisor = float(sample_weight.sum())
    elif nll or ignore_index >= 0:
        divisor = float(valid.sum())
    else:
        divisor = float(index.size)
    if weight is not None or nll or ignore_index >= 0:
        divisor = divisor if divisor != 0.0 else 1.0
    return Targets(axis, safe, None, sample_weight, divisor, reduction, keep_axis)


def prepare_soft(soft, input, weight, reduction, axis, keep_axis=True):
    if list(soft.shape) != input.shape:
        raise ValueError(
            f"soft labels must have the input's shape {input.shape}, got {list(soft.shape)}"
        )
    soft = soft.astype(input.dtype, copy=False)
    sample_weight = None
    samples = soft.size // max(input.shape[axis], 1)
    divisor = float(samples)
    if weight is not None:
        view = [1] * input.ndim
        view[axis] = input.shape[axis]
        w = weight._data.astype(input.dtype, copy=False).reshape(view)
        sample_weight = (soft * w).sum(axis=axis, keepdims=True)
        total = float(sample_weight.sum())
        divisor = total if total != 0.0 else 1.0
    return Targets(axis, None, soft, sample_weight, divisor, reduction, keep_axis)


def _smoothed(index, input: Tensor, axis: int, epsilon: float, ignore_index: int):
    xp = get_array_module(index)
    classes = input.shape[axis]
    dense = xp.zeros(input.shape, dtype=input.dtype)
    valid = index != ignore_index
    xp.put_along_axis(dense, xp.where(valid, index, 0), 1, axis)
    dense *= 1.0 - epsilon
    dense += epsilon / classes
    return dense * valid


def cross_entropy(
    input: Tensor,
    label: Tensor,
    weight: Tensor | None = None,
    ignore_index: int = -100,
    reduction: str = "mean",
    soft_label: bool = False,
    axis: int = -1,
    use_softmax: bool = True,
    label_smoothing: float = 0.0,
    name: str | None = None,
) -> Tensor:
    """Softmax cross-entropy between logits `input` and `label`, as `paddle.nn.functional.
    cross_entropy`.

    input: float logits, classes along `axis` (default last), e.g. [N, C].
    label: int class indices of shape [N] or [N, 1] (hard), or probabilities shaped like
    `input` with `soft_label=True`. `weight` ([C]) rescales classes; `ignore_index` marks
    samples that contribute nothing; `label_smoothing` mixes in a uniform distribution;
    `use_softmax=False` treats `input` as probabilities. See the module docstring for how
    'mean' divides.

    Args:
        input (Tensor): logits (probabilities with `use_softmax=False`), classes along `axis`, e.g.
            `[N, C]`; float32 or float64.
        label (Tensor): int64 class ids `[N]` or `[N, 1]`, or with `soft_label` probabilities shaped
            like `input`.
        weight (Tensor, optional): `[C]`, rescales each class. Default: None.
        ignore_index (int, optional): a label id that contributes nothing. Default: -100.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        soft_label (bool, optional): `label` holds probabilities. Default: False.
        axis (int, optional): the class axis. Default: -1.
        use_softmax (bool, optional): apply softmax to `input` first. Default: True.
        label_smoothing (float, optional): mix in a uniform distribution. Default: 0.0.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar for 'mean' and 'sum', else one loss per sample; the dtype of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> logits = paddle.to_tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]])
        >>> label = paddle.to_tensor([0, 2])
        >>> print(F.cross_entropy(logits, label))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               0.17545635)
        >>> print(F.cross_entropy(logits, label, reduction='none'))
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0.24131124, 0.10960147])
    """
    check_reduction(reduction, "softmax_cross_entropy")
    if ignore_index > 0 and soft_label:
        raise ValueError(
            "When soft_label == True, the value of 'ignore_index' in softmax_cross_entropy "
            f"should be '-100', but received {ignore_index}, which is not allowed."
        )
    if input.ndim == 0:
        raise ValueError("The dimension of input should be larger than zero!")
    axis = axis % input.ndim
    (input,) = amp_cast("cross_entropy", input)
    labels = _label_array(label, input)
    if soft_label:
        targets = prepare_soft(labels, input, weight, reduction, axis)
    elif label_smoothing > 0.0:
        index, _ = _hard_index(labels, input, axis, "cross_entropy")
        soft = _smoothed(index, input, axis, label_smoothing, ignore_index)
        targets = prepare_soft(soft, input, weight, reduction, axis)
    else:
        targets = prepare_hard(
            labels, input, weight, ignore_index, reduction, axis, "cross_entropy"
        )
    if use_softmax:
        return SoftmaxCrossEntropy(targets).apply(input)
    return NLLAlongAxis(targets).apply(input.log())


def softmax_with_cross_entropy(
    logits: Tensor,
    label: Tensor,
    soft_label: bool = False,
    ignore_index: int = -100,
    numeric_stable_mode: bool = True,
    return_softmax: bool = False,
    axis: int = -1,
) -> Tensor | tuple[Tensor, Tensor]:
    """Softmax cross-entropy, as `paddle.nn.functional.softmax_with_cross_entropy`.

    Unreduced softmax cross-entropy; the loss keeps the class axis with size 1.
    `return_softmax=True` also returns the softmax of `logits`.

    Args:
        logits (Tensor): `[N, C]` (classes along `axis`); float32 or float64.
        label (Tensor): int64 ids `[N, 1]`, or probabilities shaped like `logits` with `soft_label`.
        soft_label (bool, optional): `label` holds probabilities. Default: False.
        ignore_index (int, optional): a label id whose loss is 0. Default: -100.
        numeric_stable_mode (bool, optional): accepted; always stable. Default: True.
        return_softmax (bool, optional): also return the softmax. Default: False.
        axis (int, optional): the class axis. Default: -1.

    Returns:
        Tensor: the loss, `logits`' shape with size 1 along `axis`; with `return_softmax`, `(loss,
            softmax)`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> logits = paddle.to_tensor([[2.0, 0.0]])
        >>> print(F.softmax_with_cross_entropy(logits, paddle.to_tensor([[0]])))
        Tensor(shape=[1, 1], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[0.12692805]])
    """
    axis = axis % logits.ndim
    (logits,) = amp_cast("softmax_with_cross_entropy", logits)
    labels = _label_array(label, logits)
    if soft_label:
        targets = prepare_soft(labels, logits, None, "none", axis)
    else:
        targets = prepare_hard(
            labels, logits, None, ignore_index, "none", axis, "softmax_with_cross_entropy"
        )
        targets.keep_axis = True
    loss = SoftmaxCrossEntropy(targets).apply(logits)
    return (loss, softmax(logits, axis)) if return_softmax else loss


def nll_loss(
    input: Tensor,
    label: Tensor,
    weight: Tensor | None = None,
    ignore_index: int = -100,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """The negative log-likelihood loss, as `paddle.nn.functional.nll_loss`.

    Negative log-likelihood on log-probabilities `input` of shape [N, C] or
    [N, C, d1, ...] with int labels [N] or [N, d1, ...] (or with a size-1 axis 1: [N, 1]).
    'mean' divides by the summed weight of the non-ignored samples.

    Args:
        input (Tensor): log-probabilities `[N, C]` or `[N, C, d1, ...]`; float32 or float64.
        label (Tensor): int64 class ids `[N]` or `[N, d1, ...]`.
        weight (Tensor, optional): `[C]`, rescales each class. Default: None.
        ignore_index (int, optional): a label id that contributes nothing. Default: -100.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar for 'mean' and 'sum', else the shape of `label`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> logp = F.log_softmax(paddle.to_tensor([[2.0, 0.0], [0.0, 2.0]]))
        >>> print(F.nll_loss(logp, paddle.to_tensor([0, 1])))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               0.12692805)
    """
    check_reduction(reduction, "nll_loss")
    if input.ndim < 2:
        raise ValueError(f"nll_loss expects input with at least 2 dims [N, C], got {input.shape}")
    (input,) = amp_cast("nll_loss", input)
    labels = _label_array(label, input)
    if labels.ndim == input.ndim and labels.shape[1] == 1:
        labels = labels.squeeze(1)  # [N, 1] (or [N, 1, d1, ...]), as Paddle takes them
    if labels.ndim != input.ndim - 1:
        expected = [input.shape[0], *input.shape[2:]]
        raise ValueError(
            f"nll_loss expects labels of shape {expected} for an input of shape {input.shape}, "
            f"got {list(labels.shape)}"
        )
    targets = prepare_hard(labels, input, weight, ignore_index, reduction, 1, "nll_loss", nll=True)
    return NLLAlongAxis(targets).apply(input)
