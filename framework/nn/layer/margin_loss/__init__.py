"""Layers for the margin, embedding and likelihood losses, PairwiseDistance and
CosineSimilarity, as in `paddle.nn`. Each stores its settings and calls the functional form.

This package re-exports them from its modules: `embedding_losses`, `margin_classification`,
`nll_losses` and `similarity`.
"""

from __future__ import annotations

# The names the module held before it became a package stay reachable by their old paths.
from collections.abc import Callable

from framework.core.tensor import Tensor
from framework.nn.functional import distance, likelihood_loss, margin_loss
from framework.nn.functional.loss_terms import check_reduction
from framework.nn.functional.margin_loss import multi_label_margin_loss, multi_margin_loss
from framework.nn.layer.layers import Layer
from framework.nn.layer.margin_loss.embedding_losses import (
    CosineEmbeddingLoss,
    HingeEmbeddingLoss,
    MarginRankingLoss,
    TripletMarginLoss,
    TripletMarginWithDistanceLoss,
)
from framework.nn.layer.margin_loss.margin_classification import (
    MultiLabelMarginLoss,
    MultiLabelSoftMarginLoss,
    MultiMarginLoss,
    SoftMarginLoss,
)
from framework.nn.layer.margin_loss.nll_losses import GaussianNLLLoss, PoissonNLLLoss
from framework.nn.layer.margin_loss.similarity import CosineSimilarity, PairwiseDistance
