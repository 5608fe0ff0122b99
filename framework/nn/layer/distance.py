"""`framework.nn.layer.distance`, as `paddle.nn.layer.distance`: PairwiseDistance."""

from framework.nn.layer.margin_loss import PairwiseDistance

__all__ = ["PairwiseDistance"]
