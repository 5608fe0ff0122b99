"""Likelihood loss layers: PoissonNLLLoss and GaussianNLLLoss, as in `paddle.nn`."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn.functional import likelihood_loss
from framework.nn.functional.loss_terms import check_reduction
from framework.nn.layer.layers import Layer


class PoissonNLLLoss(Layer):
    """Poisson negative log-likelihood, as `paddle.nn.PoissonNLLLoss`; `log_input=True` takes
    log-rates (`exp(input) - label * input`).

    Args:
        log_input (bool, optional): `input` is the log of the rate. Default: True.
        full (bool, optional): add Stirling's term. Default: False.
        epsilon (float, optional): keeps `log` finite when `log_input=False`. Default: 1e-08.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input: `[N, *]` rates (or log-rates), float32 or float64.
        - label: the shape and dtype of `input`.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> loss = paddle.nn.PoissonNLLLoss()
        >>> round(float(loss(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([1.0, 2.0]))), 4)
        0.8591
    """

    def __init__(
        self,
        log_input: bool = True,
        full: bool = False,
        epsilon: float = 1e-8,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        super().__init__()
        check_reduction(reduction, "PoissonNLLLoss")
        self.log_input = log_input
        self.full = full
        self.epsilon = epsilon
        self.reduction = reduction

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return likelihood_loss.poisson_nll_loss(
            input, label, self.log_input, self.full, self.epsilon, self.reduction
        )


class GaussianNLLLoss(Layer):
    """Gaussian negative log-likelihood with a predicted variance, as `paddle.nn.GaussianNLLLoss`:
    `0.5 * (log(max(variance, epsilon)) + (input - label) ** 2 / max(variance, epsilon))`.

    Args:
        full (bool, optional): add the constant `0.5 * log(2 * pi)`. Default: False.
        epsilon (float, optional): the variance's lower clamp. Default: 1e-06.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input, label: `[N, *]`, float32 or float64.
        - variance: the shape of `input` (or one fewer trailing axis), positive.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> loss = paddle.nn.GaussianNLLLoss()
        >>> x, y = paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.5, 2.0])
        >>> round(float(loss(x, y, paddle.to_tensor([1.0, 1.0]))), 4)
        0.0625
    """

    def __init__(
        self,
        full: bool = False,
        epsilon: float = 1e-6,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        super().__init__()
        check_reduction(reduction, "GaussianNLLLoss")
        self.full = full
        self.epsilon = epsilon
        self.reduction = reduction

    def forward(self, input: Tensor, label: Tensor, variance: Tensor) -> Tensor:
        return likelihood_loss.gaussian_nll_loss(
            input, label, variance, self.full, self.epsilon, self.reduction
        )
